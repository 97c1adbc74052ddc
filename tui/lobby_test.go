package tui

import (
	"context"
	"strings"
	"testing"

	"parlour/tui/client"
)

// TestWatchFromTheLobby: a game two players play through the API shows
// in the lobby's games to watch, featured; the terminal opens it as a
// spectator, who is offered nothing to play, sees the next move, and is
// counted among the game's spectators.
func TestWatchFromTheLobby(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	ac, _ := client.New(ts.URL, "Ann")
	a, err := ac.Create(ctx, "", "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	bc, _ := client.New(ts.URL, "Ben")
	b, err := bc.Join(ctx, "", a.Table)
	if err != nil {
		t.Fatal(err)
	}
	tm := newTerm(t, ts.URL, "Cat", 80, 24)
	tm.key("l")
	s := tm.waitFor("the game in play", has("Games to watch", "Ann (guest) v Ben (guest)", "featured · 0 watching"))
	checkFits(t, tm)
	if strings.Contains(s, "no game is being played") {
		t.Fatalf("the lobby says no game is played:\n%s", s)
	}
	tm.key("down") // past the open tables: there are none
	tm.key("enter")
	s = tm.waitFor("the game, watched", has("Nymphabet · "+a.Table+" · watching", "ctrl+t chat with the spectators"))
	checkFits(t, tm)
	if strings.Contains(s, "A word starting with") {
		t.Errorf("a spectator is asked for a word:\n%s", s)
	}
	// A spectator's keys type nothing and play nothing.
	tm.typeText("zebra")
	tm.key("enter")
	if s := tm.screen(); strings.Contains(strings.ToLower(s), "zebra") {
		t.Errorf("a spectator typed a word:\n%s", s)
	}
	mover := a
	if u, err := ac.Get(ctx, a.Token, a.Table); err == nil && len(u.Table.ToMove) == 1 && u.Table.ToMove[0] != a.Seat {
		mover = b
	}
	c := ac
	if mover == b {
		c = bc
	}
	if _, err := c.Move(ctx, mover.Token, a.Table, "abdicate", 0, false); err != nil {
		t.Fatal(err)
	}
	s = tm.waitFor("the move, seen", has("3 letters in 1 word"))
	if strings.Contains(s, "ctrl+g") {
		t.Errorf("a spectator is offered a claim:\n%s", s)
	}
	live, err := ac.Lobby(ctx, "playing")
	if err != nil || len(live) != 1 || live[0].Spectators == nil || *live[0].Spectators != 1 {
		t.Errorf("the game in play is listed as %+v, %v: want 1 watching", live, err)
	}
}

// TestLobbySaysTheRules: the lobby says the chosen table's rules that
// differ from its game's defaults, in the words the server labels them
// with, or that it keeps them all; the table, once joined, says them
// while it waits for players.
func TestLobbySaysTheRules(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ac, _ := client.New(ts.URL, "Ann")
	if _, err := ac.Create(ctx, "", "salvo", nil, []string{"me", "open"}, nil); err != nil {
		t.Fatal(err)
	}
	rules := map[string]any{"strike_limit": 1, "clock": map[string]any{"kind": "fischer", "initial": 300, "increment": 3}}
	ruled, err := ac.Create(ctx, "", "wordfight", rules, []string{"me", "open", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm := newTerm(t, ts.URL, "Cat", 80, 24)
	tm.key("l")
	tm.waitFor("the newest table's rules", has("> Sightless Word Fight", "rules: Clock: 5+3; Strike limit: 1"))
	checkFits(t, tm)
	tm.key("down")
	s := tm.waitFor("the other table's rules", has("> Salvo", "rules: standard"))
	checkFits(t, tm)
	if strings.Contains(s, "Strike limit") {
		t.Errorf("the rules of a table not chosen are shown:\n%s", s)
	}
	tm.key("up")
	tm.key("enter")
	tm.waitFor("the table, waiting", has("you: Cat", ruled.Table, "rules: Clock: 5+3; Strike limit: 1"))
	checkFits(t, tm)
	// The help over a table says its rules; over another screen, none.
	tm.key("?")
	tm.waitFor("the help over the table", has("This table's rules: Clock: 5+3; Strike limit: 1", "Everywhere:"))
	checkFits(t, tm)
	tm.key("esc")
	tm.key("esc")
	tm.waitFor("home", has("New table"))
	tm.key("?")
	if s := tm.waitFor("the help at home", has("Everywhere:")); strings.Contains(s, "This table") {
		t.Errorf("the help at home names a table's rules:\n%s", s)
	}
}
