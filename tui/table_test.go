package tui

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// TestRatedSaid: a rated table says so in the lobby's list, on the table
// screen and on the end screen; an unrated one says nothing of it.
func TestRatedSaid(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ann, annS := signedUp(t, ts, "Ann")
	_, benS := signedUp(t, ts, "Ben")
	rated, err := ann.Create(ctx, annS.Token, "nymphabet", nil, []string{"me", "open"}, map[string]any{"rated": true})
	if err != nil {
		t.Fatal(err)
	}
	tm := newTermWith(t, ts.URL, "Ben", 80, 24, Config{DataDir: t.TempDir(), Session: benS.Token, Account: "Ben"})
	tm.key("l")
	s := tm.waitFor("the lobby", has(rated.Table))
	if l := lineWith(s, rated.Table); !strings.Contains(l, "rated") {
		t.Fatalf("the lobby's line of a rated table does not say so: %q", l)
	}
	tm.key("enter")
	s = tm.waitFor("the table", has("you: Ben"))
	if first, _, _ := strings.Cut(s, "\n"); !strings.Contains(first, "rated") {
		t.Fatalf("the table's first line does not say it is rated:\n%s", s)
	}
	checkFits(t, tm)
	// Both move first: a game resigned before that is aborted, unrated.
	if _, err := ann.Move(ctx, annS.Token, rated.Table, "apple", 0, false); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Ben's turn", has("▶ your turn"))
	tm.typeText("bed")
	tm.key("enter")
	tm.waitFor("Ben's word played", has("current letter C"))
	if _, err := ann.Move(ctx, annS.Token, rated.Table, "resign", 0, false); err != nil {
		t.Fatal(err)
	}
	s = tm.waitFor("the end", has("Game over"))
	if !strings.Contains(s, "rated: both ratings change") {
		t.Fatalf("the end screen does not say the game was rated:\n%s", s)
	}
	// Ben won: his rating went up from where a new player's starts, as
	// his games then say.
	s = tm.waitFor("Ben's rating change", func(s string) bool {
		return strings.Contains(strings.Join(strings.Fields(s), " "), "your rating in Nymphabet (standard): 1500 → ")
	})
	checkFits(t, tm)
	games, err := ann.PlayedGames(ctx, "", "Ben", 5)
	if err != nil || len(games) == 0 || games[0].Table != rated.Table {
		t.Fatalf("Ben's games: %+v, %v", games, err)
	}
	// The change stands whole on one line at every width: the
	// result breaks between its parts, not inside one.
	want := fmt.Sprintf("your rating in Nymphabet (standard): 1500 → %d (%+d)", int(math.Round(games[0].RatingAfter)), int(math.Round(games[0].RatingAfter-games[0].RatingBefore)))
	if !strings.Contains(s, want) || games[0].RatingAfter <= 1500 {
		t.Errorf("the end screen does not say %q on one line (Ben's games: %+v):\n%s", want, games[0], s)
	}
	for w := 80; w <= 140; w++ {
		tm.update(tea.WindowSizeMsg{Width: w, Height: 24})
		if s := tm.screen(); !strings.Contains(s, want) {
			t.Errorf("%d columns: the end screen does not say %q on one line:\n%s", w, want, s)
		}
	}
	tm.update(tea.WindowSizeMsg{Width: 80, Height: 24})

	// An unrated table says nothing of ratings.
	plain, err := ann.Create(ctx, annS.Token, "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm.key("esc")
	tm.key("l")
	s = tm.waitFor("the lobby", has(plain.Table))
	if l := lineWith(s, plain.Table); strings.Contains(l, "rated") {
		t.Fatalf("the lobby's line of an unrated table says rated: %q", l)
	}
	tm.key("enter")
	s = tm.waitFor("the table", has("you: Ben"))
	if strings.Contains(s, "rated") {
		t.Fatalf("an unrated table says rated:\n%s", s)
	}
}

// lineWith is the first line of s holding part.
func lineWith(s, part string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, part) {
			return l
		}
	}
	return ""
}

// TestAnswerLostAfterTheMoveLanded: a move whose answer fails after the
// table showed it played is in, and its line does not come back to be
// sent again; one whose answer fails otherwise, or whose seat the table
// showed played by the server (its time ran out), is given back with
// the failure.
func TestAnswerLostAfterTheMoveLanded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		shown  []client.Move // the moves the table shows before the answer
		wantIn bool
	}{
		{"shown played", []client.Move{{Version: 5, Seat: 0, Move: "52", Events: []client.Event{{Kind: "call", Text: "Ann called 52"}}}}, true},
		{"not shown", nil, false},
		{"the other seat's move shown", []client.Move{{Version: 5, Seat: 1, Move: "53", Events: []client.Event{{Kind: "call"}}}}, false},
		{"played by the server for the seat", []client.Move{{Version: 5, Seat: 0, Move: "resign", Events: []client.Event{{Kind: "timeout"}}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := client.New("http://parlour.invalid", "Ann")
			if err != nil {
				t.Fatal(err)
			}
			ts := &tableScreen{shared: &shared{cfg: Config{Server: "test", DataDir: t.TempDir()}, c: c}, id: "t1", gen: 1}
			ts.chat, ts.play, ts.setup = &chatPanel{t: ts}, &playScreen{t: ts}, &setupScreen{t: ts}
			playing := client.Table{Status: "playing", ToMove: []int{0}}
			ts.apply(client.Update{Version: 4, Table: playing})
			ts.play.line = "52"
			if cmd := ts.send("52"); cmd == nil || !ts.busy || ts.play.line != "" {
				t.Fatalf("the move was not sent: busy %v, line %q, error %q", ts.busy, ts.play.line, ts.err)
			}
			if tc.shown != nil {
				ts.apply(client.Update{Version: 5, Table: client.Table{Status: "playing", ToMove: []int{1}}, Moves: tc.shown})
			}
			ts.update(answerMsg{gen: 1, seq: 1, err: errors.New("the connection dropped")})
			if in := ts.play.line == "" && ts.err == ""; in != tc.wantIn {
				t.Errorf("after the answer failed: line %q, error %q; want the move taken as in: %v", ts.play.line, ts.err, tc.wantIn)
			}
		})
	}
}

// TestStaleErrorCleared: an error about the table as it stood goes once
// the table moves on ("it is not your turn" when the turn came) or the
// server is back ("cannot reach the server"); news that changes nothing
// (the same version) leaves it. One the player has only just been shown
// stays until it could be read, then goes.
func TestStaleErrorCleared(t *testing.T) {
	t.Parallel()
	ts := quizlTable(t, twoQuizl(1))
	ts.update(keyMsg("7"))
	ts.update(keyMsg("2"))
	ts.update(keyMsg("enter"))
	if !strings.Contains(ts.err, "it is not your turn") {
		t.Fatalf("a call out of turn: error %q", ts.err)
	}
	ts.update(updateMsg{ts.gen, quizlUpdate(t, 4, twoQuizl(1))})
	if !strings.Contains(ts.err, "it is not your turn") {
		t.Errorf("an update at the same version cleared the error")
	}
	ts.errSince = ts.errSince.Add(-errRead) // read by now
	ts.update(updateMsg{ts.gen, quizlUpdate(t, 5, twoQuizl(0))})
	if ts.err != "" {
		t.Errorf("the turn came, but the error stays: %q", ts.err)
	}

	// Said in the same instant the table moved: kept until read.
	ts.update(updateMsg{ts.gen, quizlUpdate(t, 6, twoQuizl(1))})
	ts.update(keyMsg("enter"))
	ts.update(updateMsg{ts.gen, quizlUpdate(t, 7, twoQuizl(0))})
	if !strings.Contains(ts.err, "it is not your turn") {
		t.Fatalf("an error just said went at once: %q", ts.err)
	}
	ts.update(errStaleMsg{ts.gen, ts.err, ts.errSince})
	if ts.err != "" {
		t.Errorf("the error stays once read: %q", ts.err)
	}

	// The server was out of reach, and is back with nothing new.
	ts.update(streamErrMsg{ts.gen, errors.New("cannot reach the server at http://parlour.invalid: connection refused")})
	ts.update(keyMsg("enter"))
	ts.update(answerMsg{gen: ts.gen, seq: ts.sent, err: errors.New("cannot reach the server at http://parlour.invalid: connection refused")})
	if !strings.Contains(ts.err, "cannot reach the server") {
		t.Fatalf("the failed move: error %q", ts.err)
	}
	ts.errSince = ts.errSince.Add(-errRead)
	ts.update(streamErrMsg{ts.gen, nil})
	if ts.err != "" || ts.lost != "" {
		t.Errorf("the server is back, but the screen says %q (stream: %q)", ts.err, ts.lost)
	}
}

// twoQuizl is Ann's view of a Quizl game against Ben, toMove to call.
func twoQuizl(toMove int) quizlView {
	blank := []string{".....", ".....", ".....", ".....", "....."}
	return quizlView{Seat: 0, Players: []string{"Ann", "Ben"}, Grid: blank, Password: "CRANE", ToMove: toMove,
		Scores: make([]int, 2), Done: make([]bool, 2), Resigned: make([]bool, 2),
		Boards: []quizlBoard{{Seat: 1, Name: "Ben", Grid: blank}}}
}

// TestUnreachableErrorGoesWhenTheServerIsBack: a move sent while the
// network is down fails with "cannot reach the server"; once the server
// is back the error goes, though nothing happened at the table, and the
// move's line is still there to send again.
func TestUnreachableErrorGoesWhenTheServerIsBack(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm, _ := twoPlayerQuizl(t, ts)
	ts.drop()
	tm.waitFor("the drop to show", has("reconnecting"))
	tm.typeText("50")
	tm.key("enter")
	tm.waitFor("the failed move", has("! cannot reach the server"))
	ts.restore()
	s := tm.waitFor("the error gone", func(s string) bool {
		return !strings.Contains(s, "cannot reach the server") && !strings.Contains(s, "reconnecting")
	})
	checkFits(t, tm)
	if !strings.Contains(s, "▶ your turn") || tm.table().play.line != "50" {
		t.Errorf("after the server came back: line %q\n%s", tm.table().play.line, s)
	}
}
