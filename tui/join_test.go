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
