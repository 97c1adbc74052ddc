package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// lobbyScreen lists the open tables, to join one.
type lobbyScreen struct {
	*shared
	tables []client.Listed
	at     int
	err    string
}

type lobbyMsg struct {
	tables []client.Listed
	err    error
}

// openLobby shows the lobby and asks for its tables.
func openLobby(sh *shared) tea.Cmd {
	lb := &lobbyScreen{shared: sh}
	sh.err = ""
	sh.nav.show(lb)
	return lb.fetch
}

func (lb *lobbyScreen) fetch() tea.Msg {
	ctx, cancel := context.WithTimeout(lb.ctx, 10*time.Second)
	defer cancel()
	ts, err := lb.c.Lobby(ctx, "open")
	return lobbyMsg{ts, err}
}

func (lb *lobbyScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case lobbyMsg:
		lb.tables, lb.err = msg.tables, ""
		if msg.err != nil {
			lb.err = msg.err.Error()
		}
		return nil
	case tea.KeyPressMsg:
		return lb.key(msg.String())
	}
	return nil
}

func (lb *lobbyScreen) key(s string) tea.Cmd {
	n := len(lb.tables)
	switch s {
	case "esc", "q":
		lb.nav.goHome()
	case "r":
		return lb.fetch
	case "up", "k":
		if n > 0 {
			lb.at = (lb.at + n - 1) % n
		}
	case "down", "j":
		if n > 0 {
			lb.at = (lb.at + 1) % n
		}
	case "enter":
		if n > 0 {
			lb.nav.goHome()
			return lb.join(lb.tables[lb.at].ID)
		}
	}
	return nil
}

func (lb *lobbyScreen) view() string {
	var b strings.Builder
	b.WriteString(title("Lobby: open tables") + "\n\n")
	if lb.err != "" {
		b.WriteString(bad("! "+lb.err) + "\n")
	}
	if len(lb.tables) == 0 {
		b.WriteString(faint("no open tables: open one from the home screen and invite a friend") + "\n")
	}
	for i, t := range lb.tables {
		if i >= lb.h-6 {
			break
		}
		var names []string
		for _, s := range t.Seats {
			n := marked(s.Name, s.Player)
			if s.Kind == "open" || s.Name == "" {
				n = "(open)"
			}
			names = append(names, n)
		}
		cur := "  "
		if i == lb.at {
			cur = hi("> ")
		}
		rated := "     "
		if t.Rated {
			rated = "rated"
		}
		fmt.Fprintf(&b, "%s%-22s %-16s %s %s\n", cur, t.Title, t.ID, rated, strings.Join(names, ", "))
	}
	b.WriteString("\n" + lb.message() + "\n")
	b.WriteString(faint("↑↓ choose · enter join · r refresh · esc back"))
	return b.String()
}
