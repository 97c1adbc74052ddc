package tui

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"parlour/tui/client"
)

// TestLeaveBeforeTheGame: ctrl+x once says what a second press does, any
// other key takes it back, and a second press leaves: Ann is home, the
// table is gone from her recent games and her seat is open for Ben to
// see. Ben, the last person seated, then closes the table by leaving.
func TestLeaveBeforeTheGame(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 3) // a friend
	tm.key("enter")
	tm.waitFor("the invite", has("Invite a friend: "+ts.URL+"/t/", "Make your grid"))
	id := tm.table().id
	ctx := context.Background()
	bc, _ := client.New(ts.URL, "Ben")
	seat, err := bc.Join(ctx, "", id)
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Ben seated", func(string) bool { return tm.table().upd != nil && tm.table().upd.Table.Seats[1].Kind == "person" })

	tm.key("ctrl+x")
	tm.waitFor("what a second press does", has("ctrl+x again leaves this table: your seat opens for somebody else"))
	checkFits(t, tm)
	tm.key("tab") // across/down in the grid: not a second press
	if s := tm.screen(); strings.Contains(s, "ctrl+x again") {
		t.Errorf("another key took the leave back, but its question stays:\n%s", s)
	}
	tm.key("ctrl+x")
	// The leave itself is answered later: what the key did shows at once
	// in the message line.
	if tm.m.note != "ctrl+x again leaves this table: your seat opens for somebody else" {
		t.Fatalf("ctrl+x, another key, ctrl+x: the message is %q, want the first press's", tm.m.note)
	}
	tm.key("ctrl+x")
	tm.waitFor("home, the leave said", has("you left table "+id))
	if tm.table() != nil {
		t.Fatal("still at the table")
	}
	for _, r := range tm.m.recent {
		if r.Table == id {
			t.Errorf("the table Ann left is among her recent games: %+v", r)
		}
	}
	u, err := bc.Get(ctx, seat.Token, id)
	if err != nil {
		t.Fatal(err)
	}
	if s := u.Table.Seats[0]; s.Kind != "open" || u.Table.Status != "open" {
		t.Fatalf("Ann's seat after she left: %+v, status %s", s, u.Table.Status)
	}
	l, err := bc.Leave(ctx, seat.Token, id)
	if err != nil || !l.Cancelled || l.Seat != 1 {
		t.Fatalf("Ben leaves: %+v, %v", l, err)
	}
	var refused *client.Error
	if _, err := bc.Get(ctx, seat.Token, id); !errors.As(err, &refused) || refused.Status != 410 {
		t.Fatalf("the table after the last left: %v, want 410", err)
	}
}

// TestLeaveOnceBegun: ctrl+x during a game leaves nothing and says how a
// seat is given up then.
func TestLeaveOnceBegun(t *testing.T) {
	ts := newTestServer(t)
	tm, _ := twoPlayerQuizl(t, ts)
	tm.key("ctrl+x")
	s := tm.waitFor("the refusal", has("the game has begun: :resign gives up your seat"))
	if tm.table() == nil || !strings.Contains(s, "your turn") {
		t.Fatalf("ctrl+x in play left the table:\n%s", s)
	}
}

// TestAbortAndResignOutOfTurn: in a two-player Quizl game Ann calls a
// square; Ben has not moved, so ctrl+a once says what a second press
// does, and the second aborts the game: the end screen says so, with no
// result. In a second game, once both have called, ctrl+a is refused and
// :resign is taken while it is Ben's turn.
func TestAbortAndResignOutOfTurn(t *testing.T) {
	ts := newTestServer(t)
	tm, _ := twoPlayerQuizl(t, ts)
	tm.typeText("72")
	tm.key("enter")
	tm.waitFor("Ben to move", func(string) bool {
		return tm.table().upd != nil && len(tm.table().upd.Table.ToMove) == 1 && tm.table().upd.Table.ToMove[0] == 1
	})
	tm.key("ctrl+a")
	tm.waitFor("what a second press does", has("ctrl+a again aborts the game"))
	checkFits(t, tm)
	tm.key("tab")
	if s := tm.screen(); strings.Contains(s, "ctrl+a again") {
		t.Errorf("another key took the abort back, but its question stays:\n%s", s)
	}
	tm.key("ctrl+a")
	tm.waitFor("what a second press does, asked again", has("ctrl+a again aborts the game"))
	tm.key("ctrl+a")
	s := tm.waitFor("the aborted end", has("Game over: aborted, Ann aborted it before every player had moved", "no result"))
	checkFits(t, tm)
	if strings.Contains(s, "you won") || strings.Contains(s, "Ben won") {
		t.Errorf("an aborted game shows a winner:\n%s", s)
	}

	tm2, ben2 := twoPlayerQuizl(t, ts)
	tm2.typeText("72")
	tm2.key("enter")
	tm2.waitFor("Ben to move", func(string) bool { return tm2.table().upd != nil && tm2.table().upd.Table.ToMove[0] == 1 })
	ben2.call(t)
	tm2.waitFor("Ann to move", has("▶ your turn"))
	tm2.typeText("73")
	tm2.key("enter")
	tm2.waitFor("Ben to move", func(string) bool {
		return tm2.table().upd != nil && len(tm2.table().upd.Table.ToMove) == 1 && tm2.table().upd.Table.ToMove[0] == 1
	})
	tm2.key("ctrl+a")
	tm2.waitFor("the refusal", has("the game can no longer be aborted"))
	tm2.typeText(":resign")
	tm2.key("enter")
	tm2.key("enter") // the first asks
	tm2.waitFor("Ann resigned out of turn", func(string) bool {
		return tm2.table().upd != nil && strings.Contains(strings.Join(tm2.table().log, "\n"), "Ann resigned")
	})
	if tm2.m.err != "" {
		t.Errorf("resigning out of turn: %s", tm2.m.err)
	}
}

// TestAbortInARealTerminal runs `parlour play` under tmux against the
// computer and aborts the game before anybody has moved: ctrl+a says what
// a second press does, and the second ends the game without a result.
func TestAbortInARealTerminal(t *testing.T) {
	ts := newTestServer(t)
	dir, bin := buildParlour(t)
	x := tmux{t: t, socket: filepath.Join(dir, "tmux.sock")}
	cmd := fmt.Sprintf("NO_COLOR=1 TERM=xterm-256color %s play --server %s --name Ann --data %s nymphabet", bin, ts.URL, filepath.Join(dir, "data"))
	x.run("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", cmd)
	t.Cleanup(func() { exec.Command("tmux", "-S", x.socket, "kill-server").Run() })
	x.waitFor("the new-table form", has("Nymphabet", "new table", "Play against"))
	x.run("send-keys", "-t", "play", "Enter")
	x.waitFor("the first turn", has("▶ your turn"))
	x.run("send-keys", "-t", "play", "C-a")
	x.waitFor("what a second press does", has("ctrl+a again aborts the game"))
	x.run("send-keys", "-t", "play", "C-a")
	s := x.waitFor("the aborted end", has("Game over: aborted, Ann aborted it before every player had", "no result"))
	if strings.Contains(s, "won") {
		t.Errorf("an aborted game shows a winner:\n%s", s)
	}
}

// TestResignAsksFirst: a resignation cannot be taken back, so the first
// enter on it only says what it would do (an abort while not every
// player has moved, else who wins), as the browser's confirm does; any
// other key takes it back, and only a second enter resigns. In
// Nymphabet, where RESIGN typed at the letter R reads like a word, the
// question also says it is no word to play.
func TestResignAsksFirst(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	for _, c := range []struct {
		name  string
		first string // a word played first, or none
		typed string
		asks  []string
		end   string
	}{
		{"before every player moved", "", ":resign",
			[]string{"Resign now? Not every player has moved yet, so the game is aborted instead", "enter again resigns"},
			"Game over: aborted"},
		{"a word typed after a move", "able", "resign",
			[]string{"RESIGN is no word to play", "Resign? Computer (easy) wins.", "enter again resigns"},
			"Game over: Ann resigned"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tm := newTerm(t, ts.URL, "Ann", 80, 24)
			tm.open("nymphabet", 0)
			tm.key("enter")
			tm.waitFor("the first turn", has("▶ your turn", "[A]"))
			if c.first != "" {
				tm.typeText(c.first)
				tm.key("enter")
				tm.waitFor("the computer's answer", func(s string) bool {
					return strings.Contains(s, "▶ your turn") && !tm.table().upd.Table.Abortable
				})
			}
			tm.typeText(c.typed)
			tm.key("enter")
			s := tm.waitFor("the question", has(c.asks...))
			checkFits(t, tm)
			if tb := tm.table(); tb.busy || tb.upd.Table.Status != "playing" {
				t.Fatalf("the first enter sent the resignation:\n%s", s)
			}
			// Any other key takes it back: the next enter asks again.
			tm.key("backspace")
			if s := tm.screen(); strings.Contains(s, "enter again resigns") {
				t.Errorf("a key other than enter left the question on screen:\n%s", s)
			}
			tm.typeText(c.typed[len(c.typed)-1:])
			tm.key("enter")
			tm.waitFor("the question again", has(c.asks...))
			if tb := tm.table(); tb.busy || tb.upd.Table.Status != "playing" {
				t.Fatalf("an enter after the question was taken back resigned:\n%s", tm.screen())
			}
			tm.key("enter")
			tm.waitFor("the end", has(c.end))
		})
	}
}

// TestAbortAsTheTableSays: ctrl+a offers the abort whenever the table
// says the game is abortable, and otherwise says what is possible: during
// the setups, when the server has no game to abort yet, leaving the table
// (ctrl+x); once every player has moved, resigning.
func TestAbortAsTheTableSays(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		status    string
		abortable bool
		seat      int
		seats     int    // 2 when 0
		want      string // in the message after one ctrl+a
	}{
		{"waiting for a player", "open", false, 0, 0, "the game has not begun: ctrl+x twice gives up your seat"},
		{"during the setups", "setup", false, 0, 0, "the game has not begun: ctrl+x twice gives up your seat"},
		{"before every player moved", "playing", true, 0, 0, "ctrl+a again aborts the game"},
		{"after every player moved", "playing", false, 0, 0, "every player has moved: the game can no longer be aborted"},
		{"watching", "playing", true, -1, 0, "you are watching: there is no game of yours to abort"},
		{"alone, before a move", "playing", false, 0, 1, "a game of one player cannot be aborted: :resign gives it up"},
	} {
		t.Run(c.name, func(t *testing.T) {
			seats := []client.Seat{{Name: "Ann", Kind: "person"}, {Name: "Ben", Kind: "person"}}
			if c.seats == 1 {
				seats = seats[:1]
			}
			ts := &tableScreen{shared: &shared{w: 80, h: 24}, seat: c.seat, game: "quizl",
				upd: &client.Update{Table: client.Table{Status: c.status, Abortable: c.abortable, Seats: seats}}}
			ts.chat, ts.play, ts.setup = &chatPanel{t: ts}, &playScreen{t: ts}, &setupScreen{t: ts}
			if cmd := ts.abort(); cmd != nil {
				t.Fatal("the first ctrl+a sent the abort")
			}
			if got := ts.err + ts.note; !strings.Contains(got, c.want) {
				t.Errorf("ctrl+a says %q, want %q", got, c.want)
			}
			if cmd := ts.abort(); (cmd != nil) != (c.abortable && c.seat >= 0) {
				t.Errorf("the second ctrl+a sent the abort: %v, want %v", cmd != nil, c.abortable)
			}
		})
	}
}

// TestEventAbortWords: at an event's table, an abort before every player
// has moved leaves no result at the table but counts in the event, as a
// loss for the player who ended it (a game they did not show up for when
// their clock ran out), and the questions before it and the end say so.
func TestEventAbortWords(t *testing.T) {
	t.Parallel()
	ts := &tableScreen{shared: &shared{w: 80, h: 24}, seat: 0, game: "nymphabet",
		upd: &client.Update{Table: client.Table{Status: "playing", Abortable: true, Seats: []client.Seat{{Name: "Ann", Kind: "person"}, {Name: "Ben", Kind: "person"}}}}}
	ts.chat, ts.play, ts.setup = &chatPanel{t: ts}, &playScreen{t: ts}, &setupScreen{t: ts}
	ts.upd.Table.Event = &client.GameEvent{ID: "ev1", Name: "Club night"}
	ts.abort()
	if want := "but Club night counts it as your loss"; !strings.Contains(ts.note, want) {
		t.Errorf("ctrl+a says %q, want %q", ts.note, want)
	}
	if got, want := ts.resignWords(), "Resign now? Not every player has moved yet, so the game is aborted instead: it ends without a result, but Club night counts it as your loss."; got != want {
		t.Errorf("the resignation asks %q, want %q", got, want)
	}
	for _, c := range []struct {
		seat int
		why  string
		want string
	}{
		{0, "resign", "no result at the table, and no rating changes; Club night counts it as a loss for Ann and a win for Ben"},
		{1, "abort", "no result at the table, and no rating changes; Club night counts it as a loss for Ben and a win for Ann"},
		{1, "timeout", "no result at the table, and no rating changes; Club night counts it as a game Ben did not show up for and a win for Ann"},
	} {
		if got := ts.eventAbortText("Club night", c.seat, c.why); got != c.want {
			t.Errorf("seat %d, %s: the end says %q, want %q", c.seat, c.why, got, c.want)
		}
	}
}

// TestAbortDuringTheSetups: at a Quizl table whose grids are not all in,
// the server has no game to abort and says to leave instead; the
// terminal's ctrl+a says as much, and once both grids are in and nobody
// has called, it aborts the game.
func TestAbortDuringTheSetups(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 3) // a friend
	tm.key("enter")
	tm.waitFor("the grid editor", has("Make your grid"))
	ctx := context.Background()
	bc, seat := benJoins(t, ts, tm)
	tm.waitFor("Ben seated", func(string) bool { return tm.table().upd != nil && tm.table().upd.Table.Status == "setup" })
	if err := bc.Abort(ctx, seat.Token, seat.Table); err == nil || !strings.Contains(err.Error(), "leave the table") {
		t.Fatalf("the server's answer to an abort during the setups: %v", err)
	}
	tm.key("ctrl+a")
	tm.waitFor("what to do instead", has("the game has not begun: ctrl+x twice gives up your seat"))
	checkFits(t, tm)

	if _, err := bc.Setup(ctx, seat.Token, seat.Table, nil, ""); err != nil {
		t.Fatal(err)
	}
	tm.key("ctrl+r")
	tm.waitFor("a random grid, checked", has("✓ the referee accepts"))
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn"))
	tm.key("ctrl+a")
	tm.waitFor("what a second press does", has("ctrl+a again aborts the game"))
	tm.key("ctrl+a")
	tm.waitFor("the aborted end", has("Game over: aborted", "no result"))
}

// TestLeaveSaysWhatCloses: ctrl+x once says what leaving does at each
// kind of table: a seat opened for somebody else, a table closed for good
// with nobody else seated, or with somebody else at a table made for its
// players, and at an event's, a game the event counts as not shown up for;
// once left, the note says the same of what was done.
func TestLeaveSaysWhatCloses(t *testing.T) {
	t.Parallel()
	event := &client.GameEvent{ID: "k3v9x2m4q8w1z7p5", Name: "Hourly Salvo Arena"}
	both := []client.Seat{{Name: "Ann", Kind: "person"}, {Name: "Ben", Kind: "person"}}
	for _, tc := range []struct {
		name       string
		table      client.Table
		closes     bool
		want, left string
	}{
		{"a friend's", client.Table{Status: "setup", Seats: both}, false, "your seat opens for somebody else", "you left table t1"},
		{"alone", client.Table{Status: "open", Seats: []client.Seat{{Name: "Ann", Kind: "person"}, {Name: "Seat 2", Kind: "open"}}}, true, "nobody else is seated, so it closes for good", "you left table t1; nobody else was seated, so it is closed"},
		{"a seek's", client.Table{Status: "setup", Seats: both, Paired: true}, true, "it was made for its players, so it closes for good", "you left table t1; it was made for its players, so it is closed"},
		{"an event's", client.Table{Status: "setup", Seats: both, Paired: true, Event: event}, true, "the event counts it as a game you did not show up for", "you left table t1; it is closed, and the event counts it as a game you did not show up for"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := &tableScreen{shared: &shared{w: 80, h: 24}, id: "t1", seat: 0, game: "salvo", upd: &client.Update{Table: tc.table}}
			if cmd := ts.leave(); cmd != nil || !strings.Contains(ts.note, tc.want) {
				t.Errorf("the first ctrl+x says %q (a command sent: %v), want %q", ts.note, cmd != nil, tc.want)
			}
			if got := ts.leftWords(tc.closes); got != tc.left {
				t.Errorf("once left, the note says %q, want %q", got, tc.left)
			}
		})
	}
}
