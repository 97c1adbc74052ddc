package tui

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

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
	tm.waitFor("Ben's turn", has("your turn"))
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
	if want := fmt.Sprintf("1500 → %d (%+d)", int(math.Round(games[0].RatingAfter)), int(math.Round(games[0].RatingAfter-games[0].RatingBefore))); !strings.Contains(strings.Join(strings.Fields(s), " "), want) || games[0].RatingAfter <= 1500 {
		t.Errorf("the end screen does not say %q (Ben's games: %+v):\n%s", want, games[0], s)
	}

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
