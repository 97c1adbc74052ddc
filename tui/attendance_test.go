package tui

import (
	"context"
	"strings"
	"testing"

	"parlour/tui/client"
)

// TestAttendanceShows: the seat to move is said away while it has no
// stream open, and no longer once it opens one, though no move was
// made: the server's update at the same version says so.
func TestAttendanceShows(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("nymphabet", 3) // a friend
	tm.key("enter")
	tm.waitFor("the open table", has("waiting for players to join"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bc, seat := benJoins(t, ts, tm)
	tm.waitFor("Ann's turn", has("▶ your turn"))
	tm.typeText("abhor")
	tm.key("enter")
	tm.waitFor("Ben to move, away", has("waiting for Ben (away)"))
	// The table opened again, as after a dropped connection: its stream
	// follows from the version the client has.
	tm.key("esc")
	tm.waitFor("home", has("Your recent games"))
	tm.key("up") // the table, last of the list
	tm.key("enter")
	tm.waitFor("the table again", has("waiting for Ben (away)"))

	go bc.Stream(ctx, seat.Token, seat.Table, 0, make(chan client.Update, 100), nil)
	tm.waitFor("Ben back", func(s string) bool {
		first, _, _ := strings.Cut(s, "\n")
		return strings.Contains(first, "waiting for Ben") && !strings.Contains(first, "away")
	})
}
