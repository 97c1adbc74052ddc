package tui

import (
	"context"
	"strings"
	"testing"
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
	checkFits(t, tm)

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
