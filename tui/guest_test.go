package tui

import (
	"context"
	"strings"
	"testing"

	"parlour/tui/client"
)

// TestGuestsMarked: a guest's name says so wherever others see it in the
// terminal, the lobby's list, a table's seats and its chat, so that no
// guest passes for an account; an account's name carries no mark.
func TestGuestsMarked(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ann, annS := signedUp(t, ts, "Ann")
	gus, err := client.New(ts.URL, "Gus")
	if err != nil {
		t.Fatal(err)
	}
	guestTable, err := gus.Create(ctx, "", "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	annTable, err := ann.Create(ctx, annS.Token, "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm := newTerm(t, ts.URL, "Cy", 100, 30)
	tm.key("l")
	s := tm.waitFor("the lobby", has(guestTable.Table, annTable.Table))
	if l := lineWith(s, guestTable.Table); !strings.Contains(l, "Gus (guest)") {
		t.Errorf("the lobby's line of a guest's table: %q", l)
	}
	if l := lineWith(s, annTable.Table); !strings.Contains(l, "Ann") || strings.Contains(l, "guest") {
		t.Errorf("the lobby's line of an account's table: %q", l)
	}
	// At Gus's table: his seat and his chat line are marked.
	if _, err := gus.Chat(ctx, guestTable.Token, guestTable.Table, "players", "hello"); err != nil {
		t.Fatal(err)
	}
	tm.key("esc")
	tm.key("i")
	tm.typeText(guestTable.Table)
	tm.key("enter")
	tm.waitFor("Gus's chat line, marked", has("Gus (guest): hello"))
}
