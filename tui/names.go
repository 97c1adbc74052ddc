package tui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/account"
)

// namesPause is how long typing pauses before the names that begin with
// what was typed are asked for: one request a pause, not one a key.
const namesPause = 250 * time.Millisecond

// namesDueMsg says typing paused on the name q; namesMsg brings the
// names that begin with it.
type (
	namesDueMsg struct{ q string }
	namesMsg    struct {
		q     string
		names []string
	}
)

// nameOffer is the account names that begin with a name being typed, as
// the server last answered for it (GET /api/v1/players?q=): the
// challenge form and the leaderboards' find line show them, and → takes
// the first.
type nameOffer struct {
	names []string
}

// typed notes that the name is now q: the names offered for the one
// before go, and the server is asked about q once typing pauses.
func (o *nameOffer) typed(q string) tea.Cmd {
	o.names = nil
	q = strings.TrimSpace(q)
	return tea.Tick(namesPause, func(time.Time) tea.Msg { return namesDueMsg{q: q} })
}

// update takes the offer's messages while now is the name typed, and
// reports whether msg was one of them.
func (o *nameOffer) update(sh *shared, msg tea.Msg, now string) (tea.Cmd, bool) {
	now = strings.TrimSpace(now)
	switch msg := msg.(type) {
	case namesDueMsg:
		if msg.q != now || account.CheckPrefix(now) != nil {
			return nil, true // typed on since, or no name begins so
		}
		c := *sh.c
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(sh.ctx, 5*time.Second)
			defer cancel()
			names, err := c.FindPlayers(ctx, now, 5)
			if err != nil {
				return nil // suggestions only: the line works without them
			}
			return namesMsg{q: now, names: names}
		}, true
	case namesMsg:
		if msg.q == now {
			o.names = msg.names
		}
		return nil, true
	}
	return nil, false
}

// first is the first name offered, or "".
func (o *nameOffer) first() string {
	if len(o.names) == 0 {
		return ""
	}
	return o.names[0]
}

// line is the names offered, for a row w columns wide: "→ Ann, anna".
func (o *nameOffer) line() string {
	if len(o.names) == 0 {
		return ""
	}
	return "→ " + strings.Join(o.names, ", ")
}
