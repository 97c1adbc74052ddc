package tui

import (
	"context"
	"strings"
	"testing"

	"parlour/tui/client"
)

// TestChatBetweenTwoPlayers: Ann (the terminal) and Ben (the API) write
// to each other in the players' chat; a line over 200 characters is
// refused in place and stays to be mended; mute hides Ben's lines.
func TestChatBetweenTwoPlayers(t *testing.T) {
	ts := newTestServer(t)
	tm, ben := twoPlayerQuizl(t, ts)
	ctx := context.Background()

	tm.key("ctrl+t")
	tm.typeText("good luck?") // "?" is typed, not the help
	tm.waitFor("the chat line", has("say (players): good luck?"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("Ann's line in her panel, the chat line closed", func(s string) bool {
		return strings.Contains(s, "Ann (guest): good luck?") && !strings.Contains(s, "say (players)")
	})
	u, err := ben.c.Get(ctx, ben.token, ben.id)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Chat) != 1 || u.Chat[0].Text != "good luck?" || u.Chat[0].Name != "Ann" {
		t.Fatalf("Ben sees the chat %+v, want Ann's line", u.Chat)
	}

	if _, err := ben.c.Chat(ctx, ben.token, ben.id, "players", "thanks, you too"); err != nil {
		t.Fatal(err)
	}
	s := tm.waitFor("Ben's line on Ann's screen", has("Ben (guest): thanks, you too", "Ann (guest): good luck?"))
	checkFits(t, tm)
	if n := strings.Count(s, "Ann (guest): good luck?"); n != 1 {
		t.Errorf("Ann's line shows %d times, want once (kept by seq):\n%s", n, s)
	}

	tm.key("ctrl+t")
	long := strings.Repeat("a", 201)
	tm.typeText(long)
	tm.key("enter")
	tm.waitFor("the refusal in place", func(s string) bool { return strings.Contains(s, "! ") && tm.table().chat.err != "" })
	checkFits(t, tm)
	if tm.table().chat.line != long || !tm.table().chat.open {
		t.Errorf("the refused line was not kept to mend: %d characters, open %v", len(tm.table().chat.line), tm.table().chat.open)
	}
	if !strings.Contains(tm.table().chat.err, "200") {
		t.Errorf("the refusal %q does not say the limit", tm.table().chat.err)
	}
	u, _ = ben.c.Get(ctx, ben.token, ben.id)
	for _, l := range u.Chat {
		if strings.HasPrefix(l.Text, "aaa") {
			t.Errorf("the refused line reached Ben: %q", l.Text)
		}
	}
	tm.key("esc")
	tm.waitFor("the chat line closed", func(s string) bool { return !strings.Contains(s, "say (players)") })

	tm.key("ctrl+o")
	tm.waitFor("the mute said", has("chat is muted"))
}

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
	tm.waitFor("Gus's table, before sitting down", has("Gus (guest)", "enter take a seat"))
	tm.key("enter")
	tm.waitFor("Gus's chat line, marked", has("Gus (guest): hello"))
}
