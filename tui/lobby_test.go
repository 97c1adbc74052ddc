package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

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
	live, err := ac.Lobby(ctx, "", "playing")
	if err != nil || len(live) != 1 || live[0].Spectators == nil || *live[0].Spectators != 1 {
		t.Errorf("the game in play is listed as %+v, %v: want 1 watching", live, err)
	}
	// A game watched is none of Cat's: it is not among her recent games.
	tm.key("esc")
	s = tm.waitFor("home", has("Your recent games"))
	if strings.Contains(s, a.Table) || len(tm.m.recent) != 0 {
		t.Errorf("the game watched is among Cat's recent games (%d kept):\n%s", len(tm.m.recent), s)
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

// TestLobbySeeks: the lobby lists the players looking for a quick game,
// on their terms; enter plays one, at the table the server pairs them
// at. A seek gone meanwhile, or a rated one for a guest, is refused in
// the server's words under the lists, which are read again; a seek made
// while the lobby is open shows without a key.
func TestLobbySeeks(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	bc, ben := guestAt(t, ts, "Ben")
	sk, err := bc.SeekGame(ctx, ben.Token, client.SeekRequest{Game: "nymphabet", Clock: 60})
	if err != nil || sk.Seek == nil {
		t.Fatalf("Ben's seek: %+v %v", sk, err)
	}
	tm := newTerm(t, ts.URL, "Cat", 80, 24)
	tm.key("l")
	s := tm.waitFor("Ben's seek", has("Players looking for a game", "> Ben", "a casual Nymphabet", "1 minute a turn", "enter plays Ben on these terms"))
	checkFits(t, tm)
	if strings.Contains(s, "nobody just now") {
		t.Errorf("the lobby lists a seek and says nobody is looking:\n%s", s)
	}
	tm.key("enter")
	tm.waitFor("the table with Ben", func(s string) bool {
		return tm.table() != nil && strings.Contains(s, "you: Cat")
	})
	st, err := bc.SeekStatus(ctx, ben.Token, sk.Seek.ID)
	if err != nil || st.Status != "paired" || st.Table == nil || st.Table.Table != tm.table().id {
		t.Fatalf("Ben's seek reads %+v, %v; the terminal sat at %s", st, err, tm.table().id)
	}

	// A seek withdrawn after the lobby listed it.
	tm.key("esc")
	dc, dan := guestAt(t, ts, "Dan")
	dk, err := dc.SeekGame(ctx, dan.Token, client.SeekRequest{Game: "salvo"})
	if err != nil || dk.Seek == nil {
		t.Fatalf("Dan's seek: %+v %v", dk, err)
	}
	tm.key("l")
	tm.waitFor("Dan's seek", has("> Dan", "a casual Salvo game, no clock"))
	if err := dc.CancelSeek(ctx, dan.Token, dk.Seek.ID); err != nil {
		t.Fatal(err)
	}
	tm.key("enter")
	s = tm.waitFor("the refusal, and the list read again", has("accepting Dan's game: there is no seek", "nobody just now"))
	checkFits(t, tm)
	if tm.table() != nil {
		t.Fatalf("a table opened for a withdrawn seek:\n%s", s)
	}

	// A rated seek, made while the lobby is open, shows by itself; a
	// guest may not play it.
	ec, es := signedUp(t, ts, "eve")
	if _, err := ec.SeekGame(ctx, es.Token, client.SeekRequest{Game: "nymphabet", Rated: true}); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Eve's seek, polled", has("> eve", "a rated Nymphabet"))
	tm.key("enter")
	tm.waitFor("the refusal", has("rated games are for accounts: sign in or sign up on the home screen (s, u)"))
	checkFits(t, tm)
	// Nor sit at a rated table: told so before the server is asked.
	if _, err := ec.Create(ctx, es.Token, "salvo", nil, []string{"me", "open"}, map[string]any{"rated": true}); err != nil {
		t.Fatal(err)
	}
	tm.key("r")
	tm.waitFor("Eve's rated table", has("Lobby: open tables", "rated 1 of 2 open: eve"))
	tm.keyUntil("up", "> Salvo")
	tm.key("enter")
	s = tm.waitFor("the refusal", has("rated games are for accounts"))
	if tm.table() != nil || strings.Contains(s, "joining ") {
		t.Errorf("a guest's join of a rated table was sent:\n%s", s)
	}

	// Eve's own terminal marks her seek and does not send her acceptance.
	em := newTermWith(t, ts.URL, "eve", 80, 24, Config{DataDir: t.TempDir(), Session: es.Token, Account: "eve"})
	em.key("l")
	// Her rating is new to the pool: provisional, as a profile says.
	em.waitFor("her table and seek", has("Salvo", "eve (1500?)"))
	em.keyUntil("down", "> eve")
	em.waitFor("her seek", has("> eve", "your own: it waits for an opponent"))
	em.key("enter")
	em.waitFor("not sent", has("that is your own seek: it waits for another player"))

	// A seek whose rating range leaves the reader out says so, and its
	// acceptance is not sent: to a guest, who has no rating, and to an
	// account rated outside it.
	_, gs := signedUp(t, ts, "gil")
	if err := postAs(ts.URL, gs.Token, "/api/v1/seeks", map[string]any{"game": "quizl", "rating_range": map[string]int{"min": 1600, "max": 2000}}, nil); err != nil {
		t.Fatal(err)
	}
	tm.key("r")
	tm.waitFor("gil's seek listed", has("gil (1500?)"))
	tm.keyUntil("down", "> gil")
	s = tm.waitFor("gil's seek, to a guest", has("takes players rated 1600 to 2000 · not you: a guest has no rating"))
	tm.key("enter")
	s = tm.waitFor("the refusal", has("gil seeks players rated 1600 to 2000, and a guest has no rating"))
	if tm.table() != nil || strings.Contains(s, "accepting ") {
		t.Errorf("a guest's acceptance of a seek out of range was sent:\n%s", s)
	}
	em.key("r")
	em.waitFor("gil's seek listed", has("gil (1500?)"))
	em.keyUntil("down", "> gil")
	em.waitFor("gil's seek, to eve", has("takes players rated 1600 to 2000 · not you: your rating is outside it"))
	em.key("enter")
	s = em.waitFor("the refusal", has("gil seeks players rated 1600 to 2000, and your rating is outside it"))
	if em.table() != nil || strings.Contains(s, "accepting ") {
		t.Errorf("an acceptance of a seek out of range was sent:\n%s", s)
	}
}

// TestWatchSays: a spectator's screen of each game names what it shows
// as a spectator sees it, not as a player would: Quizl's grids by their
// owners, Word Fight's strikes without a score or grid of its own.
func TestWatchSays(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		game      string
		rules     map[string]any
		first     string // a move of Ann's before the spectator comes
		want, not []string
	}{
		{"quizl", nil, "", []string{"Ann's grid", "Computer (easy)'s grid"}, []string{"Tracking", "▸"}},
		{"wordfight", map[string]any{"width": 8, "height": 8}, "declare cat", []string{"Strikes 0 of 3", "spectators see the grids at the end"}, []string{"Your score"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			ts := newTestServer(t)
			ac, _ := client.New(ts.URL, "Ann")
			a, err := ac.Create(ctx, "", tc.game, tc.rules, []string{"me", "computer:easy"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.game == "quizl" {
				if _, err := ac.Setup(ctx, a.Token, a.Table, nil, ""); err != nil {
					t.Fatal(err)
				}
			}
			if tc.first != "" {
				if _, err := ac.Move(ctx, a.Token, a.Table, tc.first, 0, false); err != nil {
					t.Fatal(err)
				}
			}
			tm := newTerm(t, ts.URL, "Cat", 80, 24)
			tm.key("l")
			tm.waitFor("the game to watch", has("Games to watch", "Ann (guest) v Computer (easy)"))
			tm.key("enter")
			s := tm.waitFor("the game watched", has(append([]string{"watching"}, tc.want...)...))
			checkFits(t, tm)
			for _, n := range tc.not {
				if strings.Contains(s, n) {
					t.Errorf("a spectator's screen says %q:\n%s", n, s)
				}
			}
			// A key that would play at a seat says why it does not,
			// as do abort and leave.
			for key, want := range map[string]string{
				"x":      "you are watching: nothing to play here",
				"enter":  "you are watching: nothing to play here",
				"ctrl+a": "you are watching: there is no game of yours to abort",
				"ctrl+x": "you are watching: there is no seat of yours to leave",
			} {
				tm.key(key)
				tm.waitFor(key+"'s answer", has(want))
			}
		})
	}
}

// TestLobbyWideNames: a game to watch whose players' names overrun 30
// columns is cut at 80 columns and shown whole at 100.
func TestLobbyWideNames(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ac, err := client.New(ts.URL, "Annabelle")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ac.Create(context.Background(), "", "nymphabet", nil, []string{"me", "computer:easy"}, nil); err != nil {
		t.Fatal(err)
	}
	whole := "Annabelle (guest) v Computer (easy)"
	for _, tc := range []struct {
		w    int
		want string
	}{{80, "Annabelle (guest) v Computer"}, {100, whole}} {
		tm := newTerm(t, ts.URL, "Cat", tc.w, 24)
		tm.key("l")
		s := tm.waitFor(fmt.Sprintf("the game to watch at %d columns", tc.w), has("Games to watch", tc.want))
		checkFits(t, tm)
		if tc.w == 80 && strings.Contains(s, whole) {
			t.Errorf("at 80 columns the names overrun their column:\n%s", s)
		}
	}
}

// TestLobbyOpenSeats: an open table's line says first how many of its
// seats are open, then who sits at the others, so that at a table of
// four the count shows however long the names.
func TestLobbyOpenSeats(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	bc, err := client.New(ts.URL, "Bartholomew")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bc.Create(context.Background(), "", "wordfight", nil, []string{"me", "open", "computer:medium", "open"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{80, 120} {
		tm := newTerm(t, ts.URL, "Cat", w, 24)
		tm.key("l")
		s := tm.waitFor(fmt.Sprintf("the open table at %d columns", w), has("Lobby: open tables", "2 of 4 open: Bartholomew"))
		checkFits(t, tm)
		if w == 120 && !strings.Contains(s, "2 of 4 open: Bartholomew (guest), Computer (medium)") {
			t.Errorf("at %d columns the seated players are not all named:\n%s", w, s)
		}
	}
}

// TestLobbyYourOwnTables: enter on a game in play that the player plays
// in, or on their own open table, opens their seat, not a spectator's
// view nor a second join; a join refused leaves the lobby on show with
// the refusal under it.
func TestLobbyYourOwnTables(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	bc, bs := signedUp(t, ts, "bob")
	game, err := bc.Create(ctx, bs.Token, "nymphabet", nil, []string{"me", "computer:easy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm := newTermWith(t, ts.URL, "bob", 80, 24, Config{DataDir: t.TempDir(), Session: bs.Token, Account: "bob"})
	tm.key("l")
	tm.waitFor("bob's game", has("Games to watch", "> Nymphabet", "bob v Computer (easy)"))
	tm.key("enter")
	s := tm.waitFor("bob's game, his seat", has("Nymphabet · "+game.Table, "you: bob"))
	if strings.Contains(s, "watching") || tm.table().seat != game.Seat {
		t.Fatalf("bob's own game opens at seat %d:\n%s", tm.table().seat, s)
	}

	tm.key("esc")
	tm.waitFor("home", has("New table"))
	open, err := bc.Create(ctx, bs.Token, "salvo", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm.key("l")
	tm.waitFor("bob's open table", has("> Salvo", open.Table))
	tm.key("enter")
	s = tm.waitFor("bob's open table, his seat", has("Salvo · "+open.Table, "you: bob"))
	if strings.Contains(s, "already hold") {
		t.Fatalf("bob's own open table:\n%s", s)
	}

	// Cy's table is taken by Dan after the lobby listed it.
	tm.key("esc")
	tm.waitFor("home", has("New table"))
	cc, _ := client.New(ts.URL, "Cy")
	cy, err := cc.Create(ctx, "", "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm.key("l")
	tm.waitFor("Cy's table", has("> Nymphabet", cy.Table, "1 of 2 open: Cy (guest)"))
	dc, _ := client.New(ts.URL, "Dan")
	if _, err := dc.Join(ctx, "", cy.Table); err != nil {
		t.Fatal(err)
	}
	tm.key("enter")
	s = tm.waitFor("the refusal, on the lobby", has("! joining "+cy.Table))
	checkFits(t, tm)
	if !strings.Contains(s, "Lobby: open tables") || tm.table() != nil {
		t.Errorf("a join refused leaves the lobby:\n%s", s)
	}
	// esc home leaves the refusal with the lobby.
	tm.key("esc")
	if s := tm.waitFor("home", has("New table")); strings.Contains(s, "! joining") {
		t.Errorf("the lobby's refusal stands on the home screen:\n%s", s)
	}
}

// TestLobbySharesTheScreen: with no open table and nobody seeking, the
// games to watch take the lines the empty lists leave rather than a
// third of the screen, and say how many of them show; the screen fits.
func TestLobbySharesTheScreen(t *testing.T) {
	t.Parallel()
	lb := &lobbyScreen{shared: &shared{w: 80, h: 24}}
	for i := range 20 {
		lb.live = append(lb.live, client.Listed{ID: fmt.Sprintf("t%02d", i), Game: "quizl", Title: "Quizl", Status: "playing",
			Seats: []client.Seat{{Name: fmt.Sprintf("Ann%d", i)}, {Name: fmt.Sprintf("Ben%d", i)}}})
	}
	s := ansi.Strip(lb.view())
	for _, p := range fitProblems(s, 80, 24) {
		t.Error(p)
	}
	if got := strings.Count(s, " v Ben"); got < 8 || !strings.Contains(s, fmt.Sprintf("%d of 20 shown", got)) {
		t.Errorf("%d games to watch shown of 20, with room for more:\n%s", got, s)
	}
}
