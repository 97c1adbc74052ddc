package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// replayScreen steps through a finished game move by move, as any of its
// seats saw it, over the end screen. The server re-referees the game's
// record and answers every seat's view after every move (Client.Replay);
// this screen draws each with the play screen's boards, so that a game
// looks in its replay as it looked while played.
type replayScreen struct {
	t    *tableScreen // the table whose game is replayed
	ans  client.Replay
	step int // the moves shown: 0 before the first, len(ans.Steps) after the last
	seat int // whose view is shown
}

// replayKeys are the keys of a replay of a game of players seats.
func replayKeys(players int) string {
	if players < 2 {
		return "←→ a move · pgup/pgdn ten · home/end the first/last · esc back"
	}
	return "←→ a move · pgup/pgdn ten · home/end · tab another seat · esc back"
}

// replayMsg is the replay of the game at table id, or why there is none.
type replayMsg struct {
	id  string
	ans client.Replay
	err error
}

// replay fetches the game's record and asks the server to replay it; the
// replay opens over the end screen when it comes, at the game's start.
func (e *endScreen) replay() tea.Cmd {
	t := e.t
	if e.replaying {
		return nil
	}
	e.replaying = true
	t.err, t.note = "", "replaying the game…"
	id, token := t.id, t.token
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, 60*time.Second)
		defer cancel()
		rec, err := t.c.Record(ctx, token, id)
		if err != nil {
			return replayMsg{id: id, err: fmt.Errorf("fetching the record: %w", err)}
		}
		ans, err := t.c.Replay(ctx, rec)
		return replayMsg{id: id, ans: ans, err: err}
	}
}

// openReplay opens a game's replay, as this seat saw it (a spectator: as
// the first player did).
func (t *tableScreen) openReplay(ans client.Replay) {
	if len(ans.Players) == 0 || len(ans.Start) < len(ans.Players) {
		t.err = "the server's replay holds no views"
		return
	}
	// The boards draw these views as Update views are drawn, once
	// checked (checkView).
	unreadable := func(views []json.RawMessage) bool {
		for _, v := range views {
			if err := checkView(ans.Game, v); err != nil {
				t.err = err.Error()
				return true
			}
		}
		return false
	}
	if unreadable(ans.Start) {
		return
	}
	for _, st := range ans.Steps {
		if unreadable(st.Views) {
			return
		}
	}
	r := &replayScreen{t: t, ans: ans}
	if t.seat >= 0 && t.seat < len(ans.Players) {
		r.seat = t.seat
	}
	t.err, t.note = "", ""
	if ans.Refused != "" {
		// A record the referee stops in is the server's own: say so
		// rather than show fewer moves without a word.
		t.err = "the replay stops early: " + ans.Refused
	}
	t.replay = r
}

func (r *replayScreen) key(s string) tea.Cmd {
	last := len(r.ans.Steps)
	switch s {
	case "esc", "q", "p":
		r.t.replay = nil
	case "right", "l", "n", "space", "enter":
		r.step++
	case "left", "h", "backspace":
		r.step--
	case "pgdown", "f":
		r.step += 10
	case "pgup", "b":
		r.step -= 10
	case "home", "g":
		r.step = 0
	case "end", "G":
		r.step = last
	case "tab":
		r.seat = (r.seat + 1) % len(r.ans.Players)
	case "shift+tab":
		r.seat = (r.seat + len(r.ans.Players) - 1) % len(r.ans.Players)
	}
	r.step = max(0, min(r.step, last))
	return nil
}

// board is a table screen that draws the step's view of the seat: the
// view the server answered, and the events that seat had learnt by then
// in its log.
func (r *replayScreen) board() *tableScreen {
	t := r.t
	views := r.ans.Start
	if r.step > 0 {
		views = r.ans.Steps[r.step-1].Views
	}
	var view json.RawMessage
	if r.seat < len(views) {
		view = views[r.seat]
	}
	seats := make([]client.Seat, len(r.ans.Players))
	for i, n := range r.ans.Players {
		seats[i] = client.Seat{Seat: i, Name: n}
	}
	lexicon := ""
	if t.upd != nil {
		lexicon = t.upd.Table.Lexicon
	}
	d := &tableScreen{shared: t.shared, id: t.id, game: r.ans.Game, seat: r.seat, replaying: true,
		upd: &client.Update{Seat: r.seat, View: view, Table: client.Table{ID: t.id, Game: r.ans.Game,
			Title: r.ans.Title, Status: "playing", Seats: seats, Lexicon: lexicon}}}
	// No cursor: a replay is looked at, not played.
	d.play = &playScreen{t: d, r: -1, c: -1, board: -1}
	d.chat = &chatPanel{t: d}
	for i, st := range r.ans.Steps[:r.step] {
		if f, ok := t.forcedAt[i+1]; ok && f.seat == st.Seat {
			// The record holds the move alone; why the server played it
			// is the table's, heard in the game.
			d.log = append(d.log, f.text)
			d.logBy = append(d.logBy, logMove{seat: st.Seat, version: i + 1})
		}
		for _, e := range st.Events {
			if len(e.To) > 0 && !slices.Contains(e.To, r.seat) {
				continue // another seat's news
			}
			d.log = append(d.log, e.Text)
			d.logBy = append(d.logBy, logMove{seat: st.Seat, version: i + 1})
		}
	}
	return d
}

// at says where in the game the replay stands: the move shown, and who
// moves next or that the game is over.
func (r *replayScreen) at() string {
	where := fmt.Sprintf("the start, before %s", countMoves(len(r.ans.Steps)))
	if r.step > 0 {
		st := r.ans.Steps[r.step-1]
		where = fmt.Sprintf("move %d of %d, %s: %s", r.step, len(r.ans.Steps), st.By, st.Move)
		if f, ok := r.t.forcedAt[r.step]; ok && f.seat == st.Seat {
			where += " (" + r.t.cause(f) + ")"
		}
	}
	switch {
	case r.step < len(r.ans.Steps):
		where += " · next: " + r.ans.Steps[r.step].By
	case r.ans.Result.Status == "finished" || r.ans.Result.Status == "aborted":
		where += " · game over"
	}
	return where
}

// countMoves says how many moves a game has.
func countMoves(n int) string {
	if n == 1 {
		return "its one move"
	}
	return fmt.Sprintf("its %d moves", n)
}

// view is the replay's first line (the game, whose view, where) and the
// seat's board at that step.
func (r *replayScreen) view() string {
	t := r.t
	head := fmt.Sprintf("%s · replay, %s's view · %s", title(r.ans.Title), r.ans.Players[r.seat], r.at())
	return fit(head, t.w, 1) + "\n" + r.board().play.view()
}
