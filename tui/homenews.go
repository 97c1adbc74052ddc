package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// homePoll is how often the home screen reads who is about, while shown.
const homePoll = 15 * time.Second

// homeNews is who is about, as the home screen's first line says it:
// how many are online and how many look for a quick game; and events,
// the event under way that most play and the next to come (either may be
// missing), named on a line under the lobby's.
type homeNews struct {
	online, seeking int
	events          []client.Tournament
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
	// Asked as this player, as the lobby (l) is: those kept apart by a
	// block are left out of both.
	o, err := m.c.Online(ctx, m.idToken)
	if err != nil {
		return homeNewsMsg{err: err}
	}
	sk, err := m.c.Seeks(ctx, m.idToken)
	if err != nil {
		return homeNewsMsg{err: err}
	}
	news := homeNews{online: o.Count, seeking: len(sk)}
	for _, st := range []string{"started", "created"} {
		// The events are a pointer to the events screen, which says why
		// they cannot be read; a server that runs none (501) has none.
		l, err := m.c.Tournaments(ctx, st)
		if err != nil || len(l) == 0 {
			continue
		}
		// Of those under way, the one most play (a house arena nobody
		// joined is little news); of those to come, the next.
		pick := l[0]
		for _, ev := range l[1:] {
			if st == "started" && ev.Players > pick.Players {
				pick = ev
			}
		}
		news.events = append(news.events, pick)
	}
	return homeNewsMsg{news: news}
}

// eventsNews names the events of n for the home screen, in minutes (the
// screen is drawn again every homePoll, not every second): "Hourly Salvo
// Arena: under way, 47m left · Club night: in 7m".
func (sh *shared) eventsNews(n homeNews, now time.Time) string {
	var parts []string
	for _, ev := range n.events {
		var when string
		switch {
		case ev.Status == "started" && ev.Kind == "swiss":
			when = fmt.Sprintf("under way, round %d of %d", ev.Round, ev.Rounds)
		case ev.Status == "started" && !arenaEnd(ev).After(now):
			when = "ending" // its last games are played out
		case ev.Status == "started":
			when = "under way, " + minutes(arenaEnd(ev).Sub(now)) + " left"
		case ev.Starts.Sub(now) > 24*time.Hour:
			when = sh.eventWhen(ev, now, false)
		case !ev.Starts.After(now):
			when = "starting now"
		default:
			when = "in " + minutes(ev.Starts.Sub(now))
		}
		parts = append(parts, ev.Name+": "+when)
	}
	return strings.Join(parts, " · ")
}

// minutes is a length of time to the minute, rounded down, and under a
// minute "under a minute".
func minutes(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "under a minute"
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	default:
		return fmt.Sprintf("%dh %02dm", int(d.Hours()), int(d.Minutes())%60)
	}
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
			if m.guestUnderWay() {
				// No player stream tells a guest of a game that ended
				// away from its table: its line is asked about.
				return tea.Batch(m.readHomeNews, m.loadServed(), homeTick()), true
			}
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
