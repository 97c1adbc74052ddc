package tui

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
)

// homePoll is how often the home screen reads who is about, while shown.
const homePoll = 15 * time.Second

// homeNews is who is about, as the home screen's first line says it:
// how many are online and how many look for a quick game.
type homeNews struct {
	online, seeking int
}

// homeNewsMsg answers a read of who is about; homeTickMsg says it is time
// for the next.
type (
	homeNewsMsg struct {
		news homeNews
		err  error
	}
	homeTickMsg struct{}
)

// readHomeNews asks the server who is online and how many seeks wait.
func (m *Model) readHomeNews() tea.Msg {
	ctx, cancel := context.WithTimeout(m.ctx, 10*time.Second)
	defer cancel()
	o, err := m.c.Online(ctx)
	if err != nil {
		return homeNewsMsg{err: err}
	}
	sk, err := m.c.Seeks(ctx)
	if err != nil {
		return homeNewsMsg{err: err}
	}
	return homeNewsMsg{news: homeNews{online: o.Count, seeking: len(sk)}}
}

// homeTick asks for the next read after homePoll.
func homeTick() tea.Cmd {
	return tea.Tick(homePoll, func(time.Time) tea.Msg { return homeTickMsg{} })
}

// homeUpdate takes the home screen's news in, and reads it again while
// the home screen is on show (elsewhere the tick only ticks); ok is false
// for other messages.
func (m *Model) homeUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case homeNewsMsg:
		if msg.err == nil { // a failed read keeps the last news
			m.home.news = &msg.news
		}
		return nil, true
	case homeTickMsg:
		if m.cur == screen(m.home) && m.help == nil {
			return tea.Batch(m.readHomeNews, homeTick()), true
		}
		return homeTick(), true
	}
	return nil, false
}

// String says the news in a few words: "3 online · 1 looking for a game".
// None online means the player reading it is not counted either (a guest
// before their first table): "nobody else online", as the browser says.
func (n homeNews) String() string {
	s := fmt.Sprintf("%d online", n.online)
	if n.online == 0 {
		s = "nobody else online"
	}
	switch n.seeking {
	case 0:
	case 1:
		s += " · 1 looking for a game"
	default:
		s += fmt.Sprintf(" · %d looking for a game", n.seeking)
	}
	return s
}
