package tui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// lobbyScreen lists the open tables, to join one, and the games in play,
// to watch one, the featured game first.
type lobbyScreen struct {
	*shared
	tables []client.Listed // open
	live   []client.Listed // in play, the featured game first
	// featured is the featured game's id ("" when none is in play).
	featured string
	at       int // the item chosen: open tables, then games in play
	err      string
}

type lobbyMsg struct {
	tables, live []client.Listed
	featured     string
	err          error
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
	open, err := lb.c.Lobby(ctx, "open")
	if err != nil {
		return lobbyMsg{err: err}
	}
	live, err := lb.c.Lobby(ctx, "playing")
	if err != nil {
		return lobbyMsg{tables: open, err: err}
	}
	var e *client.Error
	f, err := lb.c.TV(ctx)
	switch {
	case errors.As(err, &e) && e.Status == http.StatusNotFound:
		return lobbyMsg{tables: open, live: live} // no game in play
	case err != nil:
		return lobbyMsg{tables: open, live: live, err: err}
	}
	// The featured game first, the rest as the server lists them.
	i := slices.IndexFunc(live, func(t client.Listed) bool { return t.ID == f.Table.ID })
	if i < 0 {
		live = append([]client.Listed{f.Table}, live...)
	} else {
		live = append(append([]client.Listed{live[i]}, live[:i]...), live[i+1:]...)
	}
	return lobbyMsg{tables: open, live: live, featured: f.Table.ID}
}

func (lb *lobbyScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case lobbyMsg:
		lb.tables, lb.live, lb.featured, lb.err = msg.tables, msg.live, msg.featured, ""
		if msg.err != nil {
			lb.err = msg.err.Error()
		}
		if n := len(lb.tables) + len(lb.live); lb.at >= n {
			lb.at = max(0, n-1)
		}
		return nil
	case tea.KeyPressMsg:
		return lb.key(msg.String())
	}
	return nil
}

func (lb *lobbyScreen) key(s string) tea.Cmd {
	n := len(lb.tables) + len(lb.live)
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
		switch {
		case lb.at < len(lb.tables):
			lb.nav.goHome()
			return lb.join(lb.tables[lb.at].ID)
		case lb.at < n:
			// A game in play is watched: no seat, no token.
			t := lb.live[lb.at-len(lb.tables)]
			return lb.nav.sit(client.Seated{Table: t.ID, Seat: -1, Invite: lb.c.Base() + "/t/" + t.ID}, t.Game)
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
	// Each list takes at most half the lines there are, less the two
	// that say the chosen table's rules.
	room := max(1, (lb.h-12)/2)
	cur := func(i int) string {
		if i == lb.at {
			return hi("> ")
		}
		return "  "
	}
	for i, t := range lb.tables {
		if i >= room {
			fmt.Fprintf(&b, "  … and %d more\n", len(lb.tables)-i)
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
		rated := "     "
		if t.Rated {
			rated = "rated"
		}
		fmt.Fprintf(&b, "%s%-22s %-16s %s %s\n", cur(i), t.Title, t.ID, rated, strings.Join(names, ", "))
		if i == lb.at {
			b.WriteString(lb.rulesLines(t) + "\n")
		}
	}
	b.WriteString("\n" + title("Games to watch") + "\n")
	if len(lb.live) == 0 {
		b.WriteString(faint("no game is being played just now") + "\n")
	}
	for j, t := range lb.live {
		if j >= room {
			fmt.Fprintf(&b, "  … and %d more\n", len(lb.live)-j)
			break
		}
		var names []string
		for _, s := range t.Seats {
			names = append(names, marked(s.Name, s.Player))
		}
		watchers := 0
		if t.Spectators != nil {
			watchers = *t.Spectators
		}
		about := fmt.Sprintf("%d watching", watchers)
		if t.Rating != nil {
			about = fmt.Sprintf("rated %.0f · %s", *t.Rating, about)
		}
		if t.ID == lb.featured {
			about = warm("featured") + " · " + about
		}
		fmt.Fprintf(&b, "%s%-22s %s %s\n", cur(len(lb.tables)+j), t.Title, fmt.Sprintf("%-30s", fit(strings.Join(names, " v "), 30, 1)), faint(about))
		if len(lb.tables)+j == lb.at {
			b.WriteString(lb.rulesLines(t) + "\n")
		}
	}
	b.WriteString("\n" + lb.message() + "\n")
	b.WriteString(faint(wrap("↑↓ choose · enter join an open table or watch a game · r refresh · esc back", lb.w)))
	return b.String()
}

// rulesLines says the rules of t, the table chosen, under its row, in
// at most two lines: those that differ from its game's defaults, or that
// it keeps them all.
func (lb *lobbyScreen) rulesLines(t client.Listed) string {
	const head = "    rules: "
	lines := strings.Split(wrap(rulesLine(lb.gameByName(t.Game), t.Rules), lb.w-len(head)), "\n")
	if len(lines) > 2 {
		lines = []string{lines[0], lines[1] + " " + strings.Join(lines[2:], " ")}
	}
	for i, l := range lines {
		pad := head
		if i > 0 {
			pad = strings.Repeat(" ", len(head))
		}
		lines[i] = faint(fitLine(pad+l, lb.w))
	}
	return strings.Join(lines, "\n")
}
