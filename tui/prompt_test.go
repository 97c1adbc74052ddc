package tui

import (
	"context"
	"strings"
	"testing"

	"parlour/invite"
	"parlour/tui/client"
)

func TestNameAndJoinErrors(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("n")
	tm.key("ctrl+u")
	tm.typeText("Zoë")
	tm.key("enter")
	tm.waitFor("the name changed", has(`play as "Zoë"`, "you are now Zoë"))
	tm.key("i")
	tm.typeText(ts.URL + "/t/nosuchtable")
	tm.key("enter")
	tm.waitFor("the refusal", has("! joining nosuchtable"))
	checkFits(t, tm)
	tm.key("esc")
	tm.key("l")
	tm.waitFor("the lobby", has("Lobby: open tables", "no open tables"))
	// Ben opens a public table; Ann finds it in the lobby and sits down.
	bc, _ := client.New(ts.URL, "Ben")
	seat, err := bc.Create(context.Background(), "", "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm.key("r")
	tm.waitFor("Ben's table", has(seat.Table, "1 of 2 open: Ben (guest)"))
	tm.key("enter")
	tm.waitFor("the table", has("Nymphabet · "+seat.Table, "you: Zoë", "waiting for Ben"))
	checkFits(t, tm)
	// Out of turn: a word typed and sent is refused in words, and kept.
	tm.typeText("abdicated")
	tm.key("enter")
	s := tm.screen()
	if !strings.Contains(s, "it is not your turn: waiting for Ben") || !strings.Contains(s, ": abdicated") {
		t.Errorf("a move out of turn:\n%s", s)
	}
}

// TestJoinByCode: the terminal shows the code of a table it opens for a
// friend, and joins Ben's table by the code he read out, typed in lower
// case with its dash; a mistyped code is refused in words.
func TestJoinByCode(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	bc, _ := client.New(ts.URL, "Ben")
	seat, err := bc.Create(ctx, "", "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := bc.Get(ctx, seat.Token, seat.Table)
	if err != nil || len(u.Table.Code) != invite.Len {
		t.Fatalf("Ben's table has code %q: %v", u.Table.Code, err)
	}
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("i")
	tm.typeText("K7M0PX")
	tm.key("enter")
	tm.waitFor("the refusal", has("! invite code K7M0PX: ", "'0' is not in invite codes"))
	tm.key("ctrl+u")
	tm.typeText(strings.ToLower(invite.Format(u.Table.Code)))
	tm.key("enter")
	tm.waitFor("the table, before sitting down", has("Nymphabet · table "+seat.Table, "Ben (guest)", "(open)"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("the table", has("Nymphabet · "+seat.Table, "you: Ann", "waiting for Ben"))
	checkFits(t, tm)

	cy := newTerm(t, ts.URL, "Cy", 80, 24)
	cy.open("nymphabet", 3) // a friend
	cy.key("enter")
	s := cy.waitFor("the invite", has("Invite a friend: ", "or read out the code "))
	code := cy.table().upd.Table.Code
	if !strings.Contains(s, invite.Format(code)) {
		t.Errorf("the invite shows no code %q:\n%s", code, s)
	}
}

// TestJoinMistyped: a code or link that names no table is refused under
// the join form, which stays open with the line as typed, to be mended:
// the next keys type into it, and reach no other screen.
func TestJoinMistyped(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	for _, line := range []string{"xyf-jr0", ts.URL + "/t/nosuchtable"} {
		tm.key("i")
		tm.typeText(line)
		tm.key("enter")
		s := tm.waitFor("the refusal under the form", func(s string) bool { return strings.Contains(s, "! ") })
		checkFits(t, tm)
		if !strings.Contains(s, "Join a table") || !strings.Contains(s, "> "+tailOf(line, 77)+"█") {
			t.Errorf("%s refused, the form is gone or its line lost:\n%s", line, s)
		}
		tm.key("space")
		tm.key("enter") // the line with a space after it: refused again
		s = tm.waitFor("the refusal again", func(s string) bool { return strings.Contains(s, "! ") })
		if !strings.Contains(s, "Join a table") || tm.table() != nil {
			t.Errorf("keys after the refusal left the form:\n%s", s)
		}
		tm.key("esc")
		if s := tm.waitFor("home", has("New table")); strings.Contains(s, "! ") {
			t.Errorf("the refusal of a line given up stands on the home screen:\n%s", s)
		}
	}
}

// TestNameRefused: a guest's name the server would refuse at the next
// table (a computer player's, one too long) is refused on the name form,
// which stays open with the line as typed; the name stays as it was.
func TestNameRefused(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	for _, tc := range []struct{ name, why string }{
		{"Computer (easy)", `! "Computer (easy)" is reserved: it is a computer player's name`},
		{strings.Repeat("z", 30), "at most 24"},
	} {
		tm.key("n")
		tm.key("ctrl+u")
		tm.typeText(tc.name)
		tm.key("enter")
		s := tm.waitFor("the refusal under the form", has(tc.why))
		checkFits(t, tm)
		if !strings.Contains(s, "Your name") || !strings.Contains(s, "> "+tc.name+"█") || strings.Contains(s, "you are now") {
			t.Errorf("%q refused, the form is gone or its line lost:\n%s", tc.name, s)
		}
		if tm.m.c.Name != "Ann" {
			t.Errorf("%q refused, the name is now %q", tc.name, tm.m.c.Name)
		}
		tm.key("esc")
		tm.waitFor("home, the name kept", has(`play as "Ann"`))
	}
}
