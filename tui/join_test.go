package tui

import (
	"context"
	"strings"
	"testing"

	"parlour/invite"
)

// TestJoinShowsTheTableFirst: a table joined by its invite code is shown
// before the player sits down, as the browser's invite page shows it:
// rated, its seats and its rules; esc leaves its seat open, enter takes
// it.
func TestJoinShowsTheTableFirst(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ann, annS := signedUp(t, ts, "Ann")
	_, benS := signedUp(t, ts, "Ben")
	rated, err := ann.Create(ctx, annS.Token, "nymphabet", nil, []string{"me", "open"}, map[string]any{"rated": true})
	if err != nil {
		t.Fatal(err)
	}
	u, err := ann.Get(ctx, rated.Token, rated.Table)
	if err != nil {
		t.Fatal(err)
	}
	tm := newTermWith(t, ts.URL, "Ben", 80, 24, Config{DataDir: t.TempDir(), Session: benS.Token, Account: "Ben"})
	tm.key("i")
	tm.typeText(invite.Format(u.Table.Code))
	tm.key("enter")
	tm.waitFor("the table, before sitting down", has("Nymphabet · rated: both players' ratings change", "Ann", "(open)", "rules: standard", "enter take a seat"))
	checkFits(t, tm)
	tm.key("esc")
	tm.waitFor("home", has("New table"))
	if u, err := ann.Get(ctx, rated.Token, rated.Table); err != nil || u.Table.Status != "open" {
		t.Fatalf("after esc the table is %q (%v); want still open", u.Table.Status, err)
	}

	tm.key("i")
	tm.typeText(invite.Format(u.Table.Code))
	tm.key("enter")
	tm.waitFor("the table, before sitting down", has("enter take a seat"))
	tm.key("enter")
	s := tm.waitFor("the table", has("you: Ben"))
	if first, _, _ := strings.Cut(s, "\n"); !strings.Contains(first, "rated") {
		t.Errorf("the table's first line does not say it is rated:\n%s", s)
	}
}

// TestJoinAFullTable: a table with no seat open offers its own player
// their seat back, and anybody else to watch it (to see how it ended,
// once over), where enter once tried to take a seat and was refused.
func TestJoinAFullTable(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ann, annS := signedUp(t, ts, "Ann")
	seat, err := ann.Create(ctx, annS.Token, "nymphabet", nil, []string{"me", "computer:easy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	joinByID := func(tm *term, want ...string) {
		t.Helper()
		tm.key("i")
		tm.typeText(seat.Table)
		tm.key("enter")
		tm.waitFor("the table, before sitting down", has(want...))
		checkFits(t, tm)
		tm.key("enter")
	}

	own := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "Ann"})
	joinByID(own, "you have a seat here", "enter back to your seat")
	own.waitFor("Ann's seat", has("you: Ann"))

	cy := newTerm(t, ts.URL, "Cy", 80, 24)
	joinByID(cy, "no seat is open: the game is playing", "enter watch the game")
	cy.waitFor("the game watched", has("watching"))

	if _, err := ann.Move(ctx, annS.Token, seat.Table, "resign", 0, false); err != nil {
		t.Fatal(err)
	}
	dee := newTerm(t, ts.URL, "Dee", 80, 24)
	joinByID(dee, "the game is over", "enter see how it ended")
	dee.waitFor("the end", over)

	// A guest's own table, from their recent games.
	gus := newTerm(t, ts.URL, "Gus", 80, 24)
	gus.open("nymphabet", 0)
	gus.key("enter")
	gus.waitFor("Gus's table", has("▶ your turn"))
	mine := gus.table().id
	gus.key("esc")
	gus.waitFor("home", has("Your recent games", mine))
	gus.key("i")
	gus.typeText(mine)
	gus.key("enter")
	gus.waitFor("the table, before sitting down", has("you have a seat here", "enter back to your seat"))
	gus.key("enter")
	gus.waitFor("Gus's seat", has("you: Gus", "▶ your turn"))
}
