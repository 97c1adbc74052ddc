package tui

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
)

// The clocks of a table with one, and the claim against a player to
// move who walked away from a table without one.

// claimMsg is the answer to a claim.
type claimMsg struct {
	gen int
	err error
}

// tickMsg redraws a running clock once a second.
type tickMsg struct{ gen int }

// claim asks the server to claim the game against the players to move
// who have been away; it decides.
func (t *tableScreen) claim() tea.Cmd {
	tok, id, gen := t.token, t.id, t.gen
	t.note, t.err = "claiming the game…", ""
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, 15*time.Second)
		defer cancel()
		_, err := t.c.Claim(ctx, tok, id)
		return claimMsg{gen, err}
	}
}

// clockMsg handles the answer of a claim and the clock's tick.
func (t *tableScreen) clockMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case claimMsg:
		if msg.gen != t.gen {
			return nil
		}
		if msg.err != nil {
			t.note, t.err = "", msg.err.Error()
		} else {
			t.note = "the game is claimed"
		}
		return nil
	case tickMsg:
		if msg.gen != t.gen {
			return nil
		}
		t.ticking = false
		return t.tick()
	}
	return nil
}

// setupLeft is the time left until an event's setups are due, counted
// as the seats' clocks are (against the server's now, then the local
// monotonic time since the update arrived, so a skewed local clock does
// not matter); ok is false when the table names no such time.
func (t *tableScreen) setupLeft() (time.Duration, bool) {
	if t.upd == nil || t.upd.Table.Status != "setup" || t.upd.Table.SetupBy == nil {
		return 0, false
	}
	by := *t.upd.Table.SetupBy
	var d time.Duration
	if c := t.upd.Table.Clock; c != nil && !c.Now.IsZero() {
		d = by.Sub(c.Now) - time.Since(t.arrived)
	} else {
		d = time.Until(by)
	}
	return max(d, 0), true
}

// setupDueText is the line that tells a player when their setup is due
// at an event's table, wrapped to the screen, or "" at any other.
func (t *tableScreen) setupDueText() string {
	d, ok := t.setupLeft()
	if !ok {
		return ""
	}
	at := t.when(time.Now().Add(d), "15:04")
	secs := int((d + time.Second - 1) / time.Second)
	var in string
	switch mins := (secs + 59) / 60; {
	case secs <= 0:
		return bad(wrap("Set up by "+at+": the time is up, so this game is forfeit", t.w))
	case secs < 60:
		in = fmt.Sprintf("in %d seconds", secs)
	case mins == 1:
		in = "in 1 minute"
	default:
		in = fmt.Sprintf("in %d minutes", mins)
	}
	s := wrap("Set up by "+at+" ("+in+"), or forfeit this game", t.w)
	if secs < 60 {
		return bad(s)
	}
	return warm(s)
}

// clockRuns says whether a seat's clock is counting down, or an event's
// setups are due: either redraws once a second.
func (t *tableScreen) clockRuns() bool {
	if _, ok := t.setupLeft(); ok {
		return true
	}
	if t.upd == nil || t.upd.Table.Clock == nil || t.upd.Table.Status != "playing" {
		return false
	}
	for _, s := range t.upd.Table.Seats {
		if s.TimeLeft != nil {
			return true
		}
	}
	return false
}

// tick asks for a redraw in a second while a clock runs, one at a time.
func (t *tableScreen) tick() tea.Cmd {
	if t == nil || t.ticking || !t.clockRuns() {
		return nil
	}
	t.ticking = true
	gen := t.gen
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{gen} })
}

// timeLeft is a seat's time left now: its time_left, counted down
// against the local monotonic time since the update arrived while the
// seat has a deadline (under a Fischer clock the seats not to move show
// the time they keep, standing). ok is false for a seat without a clock,
// and at a table without one, whatever its seats say.
func (t *tableScreen) timeLeft(seat int) (time.Duration, bool) {
	if t.upd == nil || t.upd.Table.Clock == nil || seat < 0 || seat >= len(t.upd.Table.Seats) {
		return 0, false
	}
	s := t.upd.Table.Seats[seat]
	if s.TimeLeft == nil {
		return 0, false
	}
	d := time.Duration(*s.TimeLeft * float64(time.Second))
	if s.Deadline != nil {
		d -= time.Since(t.arrived)
	}
	return max(d, 0), true
}

// clockText is a seat's time left, marked "!" when low (a quarter of the
// turn, or 10 seconds, whichever is less), or "" without a clock. A
// correspondence game's deadline, days away, is shown as the local date
// and time it falls on.
func (t *tableScreen) clockText(seat int) string {
	d, ok := t.timeLeft(seat)
	if !ok {
		return ""
	}
	if s := t.upd.Table.Seats[seat]; t.upd.Table.Clock.Kind == "correspondence" && s.Deadline != nil {
		return "⏱ due " + t.when(*s.Deadline, "Mon 2 Jan 15:04")
	}
	secs := int((d + time.Second - 1) / time.Second)
	var s string
	switch {
	case secs >= 3600:
		s = fmt.Sprintf("%d:%02d:%02d", secs/3600, secs/60%60, secs%60)
	default:
		s = fmt.Sprintf("%d:%02d", secs/60, secs%60)
	}
	low := 10
	if turn := t.upd.Table.Clock.Turn; turn > 0 && turn/4 < low {
		low = turn / 4
	}
	if secs <= low {
		return bad("⏱" + s + "!")
	}
	return "⏱" + s
}

// awayToMove names the person to move whom the view shows away, if any.
func (t *tableScreen) awayToMove() string {
	if t.upd == nil || t.upd.Table.Status != "playing" {
		return ""
	}
	for _, s := range t.upd.Table.ToMove {
		if s != t.seat && s >= 0 && s < len(t.upd.Table.Seats) && t.upd.Table.Seats[s].AwaySince != nil {
			return t.upd.Table.Seats[s].Name
		}
	}
	return ""
}

// claimAt is when the claim against the person to move who is away
// becomes valid, as the view says (zero: not said).
func (t *tableScreen) claimAt() time.Time {
	for _, s := range t.upd.Table.ToMove {
		if s != t.seat && s >= 0 && s < len(t.upd.Table.Seats) && t.upd.Table.Seats[s].ClaimAt != nil {
			return *t.upd.Table.Seats[s].ClaimAt
		}
	}
	return time.Time{}
}
