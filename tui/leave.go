package tui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// The two ways out of a game that leave no result: leaving the table
// before the game begins, and aborting the game before every player has
// moved.

// leftMsg is the answer to leaving a table.
type leftMsg struct {
	gen  int
	left client.Left
	err  error
}

// leave gives up the seat before the game begins, on a second ctrl+x:
// the first only says what a second would do.
func (t *tableScreen) leave() tea.Cmd {
	switch st := t.upd.Table.Status; {
	case t.seat < 0:
		t.note, t.err = "", "you are watching: there is no seat of yours to leave"
		return nil
	case st != "open" && st != "setup":
		t.note, t.err = "", "the game has begun: :resign gives up your seat"
		return nil
	}
	if !t.leaveAsked {
		t.leaveAsked = true
		others := t.othersSeated()
		t.err = ""
		switch {
		case others && t.upd.Table.Event != nil:
			t.note = "ctrl+x again leaves this table, which closes: the event counts it as a game you did not show up for"
		case others && t.upd.Table.Paired:
			t.note = "ctrl+x again leaves this table: it was made for its players, so it closes for good"
		case others:
			t.note = "ctrl+x again leaves this table: your seat opens for somebody else"
		default:
			t.note = "ctrl+x again leaves this table: nobody else is seated, so it closes for good"
		}
		return nil
	}
	t.leaveAsked = false
	tok, id, gen := t.token, t.id, t.gen
	t.note, t.err = "leaving the table…", ""
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, 15*time.Second)
		defer cancel()
		l, err := t.c.Leave(ctx, tok, id)
		return leftMsg{gen, l, err}
	}
}

// left takes the player home once the seat is given up, and drops the
// table from the recent games.
func (t *tableScreen) left(msg leftMsg) tea.Cmd {
	if msg.err != nil {
		t.note, t.err = "", msg.err.Error()
		return nil
	}
	t.stop()
	t.forget(t.id)
	t.err = ""
	t.nav.goHome()
	t.note = t.leftWords(msg.left.Cancelled)
	return nil
}

// leftWords says what leaving the table did: the seat opened for somebody
// else, or the table closed, and why, as the first ctrl+x said it would.
func (t *tableScreen) leftWords(cancelled bool) string {
	note := "you left table " + t.id
	switch {
	case !cancelled:
		return note
	case t.upd.Table.Event != nil && t.othersSeated():
		return note + "; it is closed, and the event counts it as a game you did not show up for"
	case t.upd.Table.Paired && t.othersSeated():
		return note + "; it was made for its players, so it is closed"
	}
	return note + "; nobody else was seated, so it is closed"
}

// abortMsg is the answer to an abort.
type abortMsg struct {
	gen int
	err error
}

// abort ends the game without a result, on a second ctrl+a, while the
// server says it may be (the table's abortable: some player has not yet
// moved). Before the game begins there is nothing to abort, and the seat
// is given up by leaving (ctrl+x), as the server would answer.
func (t *tableScreen) abort() tea.Cmd {
	u := t.upd.Table
	if t.seat < 0 || !u.Abortable {
		t.abortAsked = false
	}
	switch {
	case t.seat < 0:
		t.err = "you are watching: there is no game of yours to abort"
		return nil
	case u.Abortable:
	case u.Status == "open" || u.Status == "setup":
		t.err = "the game has not begun: ctrl+x twice gives up your seat"
		return nil
	case u.Status == "playing" && len(u.Seats) == 1:
		// Alone there is nobody to abort a game for: the server says so.
		t.err = "a game of one player cannot be aborted: :resign gives it up"
		return nil
	case u.Status == "playing":
		t.err = "every player has moved: the game can no longer be aborted (:resign gives up)"
		return nil
	default:
		t.err = "the game is over: there is nothing to abort"
		return nil
	}
	if !t.abortAsked {
		t.abortAsked = true
		t.err, t.note = "", "ctrl+a again aborts the game: it ends without a result, and no rating changes"
		if ev := u.Event; ev != nil {
			t.note = "ctrl+a again aborts the game: no result at the table, and no rating changes, but " + ev.Name + " counts it as your loss"
		}
		return nil
	}
	t.abortAsked = false
	tok, id, gen := t.token, t.id, t.gen
	t.note, t.err = "aborting the game…", ""
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, 15*time.Second)
		defer cancel()
		return abortMsg{gen, t.c.Abort(ctx, tok, id)}
	}
}

// aborted takes in the answer to an abort.
func (t *tableScreen) aborted(msg abortMsg) tea.Cmd {
	if msg.gen != t.gen {
		return nil
	}
	if msg.err != nil {
		t.note, t.err = "", msg.err.Error()
	} else {
		t.note = "the game is aborted"
	}
	return nil
}

// resignWords says what resigning would do at this table, for the
// question the first enter on a resignation asks: as the browser's
// confirm does, it names who wins and whether the game is aborted
// instead, since a resignation cannot be taken back.
func (t *tableScreen) resignWords() string {
	u := t.upd.Table
	if u.Abortable {
		s := "Resign now? Not every player has moved yet, so the game is aborted instead: it ends without a result"
		if u.Rated {
			s += ", and no rating changes"
		}
		if u.Event != nil {
			// The event scores it all the same: the others win.
			s += ", but " + u.Event.Name + " counts it as your loss"
		}
		return s + "."
	}
	var others []string
	for i := range u.Seats {
		if i != t.seat {
			others = append(others, t.name(i))
		}
	}
	if len(others) == 0 {
		return "Resign? The game ends here, as a loss."
	}
	other := strings.Join(others, " and ")
	rated := ""
	if u.Rated {
		rated = " It counts as a loss in your rating."
	}
	switch {
	case t.game == "quizl" && len(others) == 1:
		return "Resign? You score 0 against " + other + ", who may still hunt your password alone." + rated
	case t.game == "quizl":
		return "Resign? You score 0 against every player whose password you have not found; the others play on."
	case len(others) > 1 && t.game == "salvo":
		return "Resign? You are out of the game; the others play on."
	case len(others) > 1 && t.game == "wordfight":
		return "Resign? You answer no more words; the others play on."
	case t.game == "wordfight":
		return "Resign? " + other + " wins, with the points so far." + rated
	}
	return "Resign? " + other + " wins." + rated
}
