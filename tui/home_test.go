package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// TestGuestIdentity: a client that keeps no list (the SSH door's) and
// starts as a known guest lists that guest's tables under way, and tells
// Config.OnIdentity nothing it was given; one that starts as a guest the
// server does not know drops it, and the next seat makes a new guest,
// which it tells.
func TestGuestIdentity(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	c, gus := guestAt(t, ts, "Gus")
	seat, err := c.Create(ctx, gus.Token, "nymphabet", nil, []string{"me", "computer:easy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var told []string
	known := newTermWith(t, ts.URL, "Gus", 80, 24, Config{NoDisk: true, Identity: gus.Token, OnIdentity: func(tok string) { told = append(told, tok) }})
	s := known.waitFor("Gus's table under way", has(seat.Table, "playing"))
	checkFits(t, known)
	if strings.Contains(s, "none yet") {
		t.Errorf("the known guest's table is listed, yet none:\n%s", s)
	}
	if len(told) != 0 {
		t.Errorf("OnIdentity told %q of the identity the client was given", told)
	}

	told = nil
	lost := newTermWith(t, ts.URL, "Gus", 80, 24, Config{NoDisk: true, Identity: "no-such-token", OnIdentity: func(tok string) { told = append(told, tok) }})
	lost.waitFor("the unknown guest dropped", func(s string) bool {
		return strings.Contains(s, "none yet") && lost.m.idToken == ""
	})
	lost.open("nymphabet", 0)
	lost.key("enter")
	lost.waitFor("the new table", has("▶ your turn"))
	if len(told) != 1 || told[0] == "no-such-token" || told[0] == "" {
		t.Errorf("OnIdentity told %q; want the one new guest identity", told)
	}
	if lost.m.idToken != told[0] {
		t.Errorf("the client plays as %q, and told %q", lost.m.idToken, told)
	}
}

// TestRecentStatusFollowsTable: the server's list of a guest's tables,
// read when the seat was taken, says the new Salvo table is in setup;
// once the fleet is handed in and play begins, home lists it as under
// play, though nothing read the list again.
func TestRecentStatusFollowsTable(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	_, gus := guestAt(t, ts, "Gus")
	tm := newTermWith(t, ts.URL, "Gus", 80, 24, Config{NoDisk: true, Identity: gus.Token})
	tm.open("salvo", 0)
	tm.key("enter")
	tm.waitFor("the fleet editor", has("Place your fleet", "✓ the referee accepts"))
	id := tm.table().id
	tm.waitFor("the server's list", func(string) bool {
		return slices.ContainsFunc(tm.m.soc.served, func(r Recent) bool { return r.Table == id && r.Status == "setup" })
	})
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn"))
	tm.key("esc")
	s := tm.waitFor("home", has("Your recent games", id))
	for row := range strings.Lines(s) {
		if strings.Contains(row, id) && !strings.Contains(row, "playing") {
			t.Errorf("home lists the table under play as %q", strings.TrimSpace(row))
		}
	}
}

// TestGuestKeptAcrossRuns: a guest who starts the client again with the
// same data folder and name is the same guest (their daily attempt is
// theirs); under another name, another guest.
func TestGuestKeptAcrossRuns(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	dir := t.TempDir()
	first := newTermWith(t, ts.URL, "Gus", 80, 24, Config{DataDir: dir})
	first.open("nymphabet", 0)
	first.key("enter")
	first.waitFor("the table", has("▶ your turn"))
	gus := first.m.idToken
	if gus == "" {
		t.Fatal("no guest identity after a seat")
	}
	first.m.Close()

	again := newTermWith(t, ts.URL, "Gus", 80, 24, Config{DataDir: dir})
	if again.m.idToken != gus {
		t.Errorf("started again as Gus, the client plays as %q, not the guest %q", again.m.idToken, gus)
	}
	other := newTermWith(t, ts.URL, "Ivy", 80, 24, Config{DataDir: dir})
	if other.m.idToken != "" {
		t.Errorf("started as Ivy, the client plays as Gus's guest %q", other.m.idToken)
	}
}

// TestHomeNews: the home screen's first line says how many are online and
// how many look for a quick game, so that a player sees others to play.
func TestHomeNews(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	bc, ben := guestAt(t, ts, "Ben")
	if _, err := bc.SeekGame(context.Background(), ben.Token, client.SeekRequest{Game: "nymphabet"}); err != nil {
		t.Fatal(err)
	}
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	s := tm.waitFor("the news", has("online · 1 looking for a game"))
	checkFits(t, tm)
	if first, _, _ := strings.Cut(s, "\n"); !strings.HasPrefix(first, "Parlour  ·  guest Ann") {
		t.Errorf("the first line reads %q", first)
	}
	for _, tc := range []struct {
		n    homeNews
		want string
	}{
		{homeNews{online: 0, seeking: 0}, "nobody else online"},
		{homeNews{online: 1, seeking: 0}, "1 online"},
		{homeNews{online: 3, seeking: 1}, "3 online · 1 looking for a game"},
		{homeNews{online: 12, seeking: 4}, "12 online · 4 looking for a game"},
	} {
		if got := tc.n.String(); got != tc.want {
			t.Errorf("%+v says %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestHomeEvents: under the lobby's line, the home screen names the first
// event under way and the next to come, so that a player sees there is
// one to join; a server with none shows no line.
func TestHomeEvents(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	s := tm.waitFor("the news", has("online"))
	if strings.Contains(s, "under way") || strings.Contains(s, ": in ") {
		t.Errorf("with no events, the home screen names some:\n%s", s)
	}

	ben, benS := signedUp(t, ts, "Ben")
	// An arena nobody joined, under way before the club's: the home
	// screen names the one with players.
	empty := newArenaAPI(t, ts, benS, "Empty hall", "")
	if err := startEvent(ben, benS, empty.ID); err != nil {
		t.Fatal(err)
	}
	club := newArenaAPI(t, ts, benS, "Club night", "")
	if _, err := ben.JoinTournament(context.Background(), benS.Token, club.ID, ""); err != nil {
		t.Fatal(err)
	}
	late := map[string]any{"kind": "arena", "name": "Late night", "game": "nymphabet", "minutes": 30,
		"clock": map[string]any{"kind": "fischer", "initial": 60, "increment": 0}, "starts": time.Now().Add(2*time.Hour + 30*time.Second)}
	if err := postAs(ts.URL, benS.Token, "/api/v1/tournaments", late, nil); err != nil {
		t.Fatal(err)
	}
	if err := startEvent(ben, benS, club.ID); err != nil {
		t.Fatal(err)
	}
	tm.update(homeTickMsg{})
	s = tm.waitFor("the events", has("Club night: under way, 29m left · Late night: in 2h 00m"))
	checkFits(t, tm)
	if !strings.Contains(s, "e events · t leaderboards\n    Club night") {
		t.Errorf("the events are not named under the lobby's line:\n%s", s)
	}
}

// TestEventsNews: the home screen's line of events, in minutes.
func TestEventsNews(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC)
	sh := &shared{}
	arena := client.Tournament{Name: "Club night", Kind: "arena", Status: "started", Minutes: 60, Starts: now.Add(-12*time.Minute - 30*time.Second)}
	swiss := client.Tournament{Name: "Sunday Swiss", Kind: "swiss", Status: "started", Round: 2, Rounds: 5}
	soon := client.Tournament{Name: "Hourly Quizl Arena", Kind: "arena", Status: "created", Starts: now.Add(7*time.Minute + 59*time.Second)}
	for _, c := range []struct {
		events []client.Tournament
		want   string
	}{
		{nil, ""},
		{[]client.Tournament{arena, soon}, "Club night: under way, 47m left · Hourly Quizl Arena: in 7m"},
		{[]client.Tournament{swiss}, "Sunday Swiss: under way, round 2 of 5"},
		{[]client.Tournament{{Name: "Soon", Status: "created", Starts: now.Add(30 * time.Second)}}, "Soon: in under a minute"},
		{[]client.Tournament{{Name: "Now", Status: "created", Starts: now}}, "Now: starting now"},
		// The server down for ten minutes while it ran: its end moved on.
		{[]client.Tournament{{Name: "Moved", Kind: "arena", Status: "started", Minutes: 30, Starts: now.Add(-25 * time.Minute), Ends: now.Add(15 * time.Minute)}}, "Moved: under way, 15m left"},
		{[]client.Tournament{{Name: "Over", Kind: "arena", Status: "started", Minutes: 30, Starts: now.Add(-31 * time.Minute)}}, "Over: ending"},
		{[]client.Tournament{{Name: "Late", Status: "created", Starts: now.Add(2*time.Hour + 5*time.Minute)}}, "Late: in 2h 05m"},
		{[]client.Tournament{{Name: "Weekly", Status: "created", Starts: now.Add(50 * time.Hour)}}, "Weekly: May 3 20:00"},
	} {
		if got := sh.eventsNews(homeNews{events: c.events}, now); got != c.want {
			t.Errorf("%+v reads %q, want %q", c.events, got, c.want)
		}
	}
}

// TestHomeEscStays: esc on the home screen, where a player pressing it
// to come back home lands, says how to quit rather than quit; q quits.
func TestHomeEscStays(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.waitFor("home", has("Join a table by invite code"))
	tm.key("esc")
	tm.waitFor("the note", has("q quits Parlour", "Join a table by invite code"))
	if err := tm.m.ctx.Err(); err != nil {
		t.Fatalf("esc on the home screen closed the client: %v", err)
	}
	// The hint stays on the home screen: the lobby does not repeat it.
	tm.key("l")
	if s := tm.waitFor("the lobby", has("Lobby")); strings.Contains(s, "q quits") {
		t.Errorf("the lobby carries the home screen's hint:\n%s", s)
	}
	tm.key("esc")
	tm.waitFor("home", has("Join a table by invite code"))
	tm.key("q")
	if tm.m.ctx.Err() == nil {
		t.Error("q on the home screen did not close the client")
	}
}

// TestRecentAborted: an aborted game is listed among a signed-in
// player's recent games as aborted, not with a blank status.
func TestRecentAborted(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ann, annS := signedUp(t, ts, "Ann")
	seat, err := ann.Create(ctx, annS.Token, "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	bc, _ := client.New(ts.URL, "Ben")
	if _, err := bc.Join(ctx, "", seat.Table); err != nil {
		t.Fatal(err)
	}
	if err := ann.Abort(ctx, annS.Token, seat.Table); err != nil {
		t.Fatal(err)
	}
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "Ann"})
	s := tm.waitFor("the recent games", has("Your recent games", seat.Table))
	for row := range strings.Lines(s) {
		if strings.Contains(row, seat.Table) && !strings.Contains(row, "aborted") {
			t.Errorf("the aborted game is listed as %q", strings.TrimSpace(row))
		}
	}
}

// TestHomeNoName: a player with no name yet (a login the server keeps
// from guests, say) is told the server gives one, not shown an empty
// name in quotes.
func TestHomeNoName(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "", 80, 24)
	s := tm.waitFor("home", has("Join a table by invite code", "n Name: none yet, the server gives you one"))
	if strings.Contains(s, `""`) {
		t.Errorf("home shows an empty name:\n%s", s)
	}
}

// TestHomeCountsTheSignedIn: the server's list of the player's games,
// asked for with their token (which counts them online), has the home
// screen read its count of players online again, so that one who just
// signed in is counted at once; elsewhere nothing is read.
func TestHomeCountsTheSignedIn(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	signedUp(t, ts, "Ann")
	tm := newTerm(t, ts.URL, "Gus", 80, 24)
	tm.waitFor("home", has("nobody else online"))
	tm.key("s")
	tm.waitFor("the sign-in form", has("Password"))
	tm.typeText("Ann")
	tm.key("enter")
	tm.typeText("correct horse battery")
	tm.key("enter")
	tm.waitFor("signed in, counted", has("signed in as Ann", "1 online"))

	cmd, ok := tm.m.playerMsg(servedMsg{gen: tm.m.soc.gen})
	if !ok || cmd == nil {
		t.Fatal("the list's answer on the home screen reads nothing again")
	}
	if msg, ok := cmd().(homeNewsMsg); !ok || msg.err != nil || msg.news.online != 1 {
		t.Errorf("the read again answered %+v, want 1 online", msg)
	}
	tm.key("l")
	tm.waitFor("the lobby", has("Lobby"))
	if cmd, _ := tm.m.playerMsg(servedMsg{gen: tm.m.soc.gen}); cmd != nil {
		t.Error("the list's answer away from home reads the count")
	}
}

// TestHomeCountOnReturn: coming back home from a table reads the count of
// players online at once. A guest's home read 0 before their first table
// gave them a token; back home, they are counted, without waiting for the
// next poll.
func TestHomeCountOnReturn(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Gus", 80, 24)
	tm.waitFor("home", has("nobody else online"))
	tm.open("nymphabet", 0)
	tm.key("enter")
	tm.waitFor("the table", has("▶ your turn"))
	tm.pump()
	_, cmd := tm.m.Update(keyMsg("esc"))
	if tm.m.cur != screen(tm.m.home) {
		t.Fatalf("esc did not go home:\n%s", tm.screen())
	}
	news := make(chan homeNews, 1)
	var find func(tea.Cmd)
	find = func(c tea.Cmd) {
		switch msg := c().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				if c != nil {
					go find(c)
				}
			}
		case homeNewsMsg:
			if msg.err == nil {
				news <- msg.news
			}
		}
	}
	if cmd != nil {
		go find(cmd)
	}
	select {
	case n := <-news:
		if n.online != 1 {
			t.Errorf("back home, the count read %d online, want 1", n.online)
		}
	case <-time.After(homePoll / 2):
		t.Error("coming home reads nothing: the count waits for the next poll")
	}
}

// TestRecentNamesThePool: a finished rated game of a game that rates its
// modes apart is listed under its pool's title, as the profile names it.
func TestRecentNamesThePool(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ann, annS := signedUp(t, ts, "Ann")
	ben, benS := signedUp(t, ts, "Ben")
	id := ratedGame(t, ann, annS, ben, benS, map[string]any{"mode": "cyclic"}, "able", "cede")
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "Ann"})
	s := tm.waitFor("the recent games", has("Your recent games", id))
	for row := range strings.Lines(s) {
		if strings.Contains(row, id) && !strings.Contains(row, "Nymphabet (cyclic)") {
			t.Errorf("the rated cyclic game is listed as %q", strings.TrimSpace(row))
		}
	}
}

// TestRecentGameResult: a guest's recent games say how a finished game
// went for them, as an account's list does, not only that it finished.
func TestRecentGameResult(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("nymphabet", 3) // a friend
	tm.key("enter")
	tm.waitFor("the open table", has("waiting for players to join"))
	bc, seat := benJoins(t, ts, tm)
	tm.waitFor("Ann's turn", has("▶ your turn"))
	tm.typeText("able")
	tm.key("enter")
	tm.waitFor("Ben's turn", has("waiting for Ben"))
	// Ben plays a word, so that his resignation is no abort, then resigns.
	for _, mv := range []string{"cab", "resign"} {
		if _, err := bc.Move(context.Background(), seat.Token, seat.Table, mv, 0, false); err != nil {
			t.Fatalf("Ben's %s: %v", mv, err)
		}
	}
	tm.waitFor("the end", over)
	tm.key("esc")
	s := tm.waitFor("home", has("Your recent games"))
	if l := lineWith(s, seat.Table); !strings.Contains(l, " won ") {
		t.Errorf("the recent game won reads %q:\n%s", l, s)
	}

	two := []client.Seat{{Seat: 0}, {Seat: 1}}
	for _, c := range []struct {
		name  string
		table client.Table
		want  string
	}{
		{"under way", client.Table{Status: "playing", Seats: two}, "playing"},
		{"won", client.Table{Status: "finished", Seats: two, Result: &client.Result{Status: "finished", Winners: []int{0}}}, "won"},
		{"lost", client.Table{Status: "finished", Seats: two, Result: &client.Result{Status: "finished", Winners: []int{1}}}, "lost"},
		{"a draw", client.Table{Status: "finished", Seats: two, Result: &client.Result{Status: "finished"}}, "a draw"},
		{"aborted", client.Table{Status: "finished", Seats: two, Result: &client.Result{Status: "aborted"}}, "aborted"},
		{"alone, unsolved", client.Table{Status: "finished", Seats: two[:1], Result: &client.Result{Status: "finished"}}, "lost"},
	} {
		if got := recentStatus(c.table, 0); got != c.want {
			t.Errorf("%s: recentStatus = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestHomeKeyFile: signed in, the home screen offers to add this
// computer's SSH key only when its file is there, as the keys screen
// says.
func TestHomeKeyFile(t *testing.T) {
	t.Parallel()
	c, _ := client.New("http://127.0.0.1:1", "ann")
	key := filepath.Join(t.TempDir(), "id_ed25519.pub")
	hm := &homeScreen{shared: &shared{w: 80, h: 24, c: c, cfg: Config{Session: "a session", Account: "ann", SSHKey: key}}}
	s := ansi.Strip(hm.view())
	if strings.Contains(s, "add this computer's") || !strings.Contains(s, "K SSH keys") {
		t.Errorf("without %s the home screen says:\n%s", key, s)
	}
	if err := os.WriteFile(key, []byte("ssh-ed25519 AAAA ann@here\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s := ansi.Strip(hm.view()); !strings.Contains(s, "K SSH keys: add this computer's") {
		t.Errorf("with %s the home screen says:\n%s", key, s)
	}
}

// TestHomeFits: however many recent games, the home screen keeps to the
// terminal, its keys' lines whole at the foot, with the events' line and
// without, for a guest and an account.
func TestHomeFits(t *testing.T) {
	t.Parallel()
	c, _ := client.New("http://127.0.0.1:1", "ann")
	var recent []Recent
	for i := range 30 {
		recent = append(recent, Recent{Server: c.Base(), Table: fmt.Sprintf("table%011d", i), Title: "Nymphabet", Status: "won", When: time.Now()})
	}
	events := []client.Tournament{{Name: "Hourly Salvo Arena", Kind: "arena", Status: "started", Minutes: 60, Starts: time.Now()}}
	games := []client.Game{{Name: "nymphabet", Title: "Nymphabet"}, {Name: "quizl", Title: "Quizl"}, {Name: "salvo", Title: "Salvo"}, {Name: "wordfight", Title: "Sightless Word Fight"}}
	for _, size := range [][2]int{{80, 24}, {100, 32}} {
		for _, cfg := range []Config{{}, {Session: "a session", Account: "ann"}} {
			for _, news := range []*homeNews{nil, {online: 3, events: events}} {
				hm := &homeScreen{shared: &shared{w: size[0], h: size[1], c: c, cfg: cfg, recent: recent, games: games}, news: news}
				s := strings.TrimRight(ansi.Strip(hm.view()), " ")
				for _, p := range fitProblems(s, size[0], size[1]) {
					t.Errorf("%dx%d, %+v, news %v: %s", size[0], size[1], cfg, news != nil, p)
				}
				if !strings.HasSuffix(s, "? help") || !strings.Contains(s, "… and ") {
					t.Errorf("%dx%d, %+v, news %v: the keys or the count of games left out are cut:\n%s", size[0], size[1], cfg, news != nil, s)
				}
				// The cursor going down the games keeps the one it is on
				// in sight, to the last.
				for j, r := range recent {
					hm.at = len(games) + 3 + j
					s := strings.TrimRight(ansi.Strip(hm.view()), " ")
					for _, p := range fitProblems(s, size[0], size[1]) {
						t.Errorf("%dx%d, %+v, news %v, game %d chosen: %s", size[0], size[1], cfg, news != nil, j, p)
					}
					if l := lineWith(s, r.Table); !strings.HasPrefix(l, "> ") {
						t.Fatalf("%dx%d, %+v, news %v: game %d, chosen, is not in sight:\n%s", size[0], size[1], cfg, news != nil, j, s)
					}
					if last := j == len(recent)-1; last == strings.Contains(s, "… and ") || j > 10 && !strings.Contains(s, "newer above") {
						t.Errorf("%dx%d, %+v, news %v: game %d chosen, the games left out above or below are not counted:\n%s", size[0], size[1], cfg, news != nil, j, s)
					}
				}
			}
		}
	}
}

// TestGameOverAway: a game of the player's that ends while they are not at
// its table (here Ben resigns a game Ann played from elsewhere) is told on
// the screen they are on, with how it went for them.
func TestGameOverAway(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ann, annS := signedUp(t, ts, "Ann")
	ben, benS := signedUp(t, ts, "Ben")
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "Ann"})
	tm.waitFor("home", has("Your recent games"))
	// A key refused on the home screen: the refusal stands there, and
	// gives way to the news when it comes.
	tm.key("n")
	tm.waitFor("home with the refusal", has("Your recent games", "! you are signed in as Ann: your name is your account's"))
	id := ratedGame(t, ben, benS, ann, annS, nil, "able", "cede")
	s := tm.waitFor("the news of the end", has("your Nymphabet game "+id+" is over: you won"))
	if strings.Contains(s, "your name is your account's") {
		t.Errorf("the refusal stands beside the news:\n%s", s)
	}
	tm.waitFor("the game won among the recent games", func(s string) bool {
		return strings.Contains(lineWith(s, id+" won"), "Nymphabet")
	})
	checkFits(t, tm)
}

// TestGuestRecentEndedAway: a guest's game left before its end (esc home)
// and ended by the other player is listed as it ended, not as it was
// left: no player stream tells a guest, so the list asks the server on
// the way home and while home is on show.
func TestGuestRecentEndedAway(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	tm := newTermWith(t, ts.URL, "Eve", 80, 24, Config{DataDir: t.TempDir()})
	tm.open("nymphabet", 3) // a friend
	tm.key("enter")
	tm.waitFor("the table", func(string) bool { return tm.table() != nil })
	id := tm.table().id
	bc, err := client.New(ts.URL, "Ben")
	if err != nil {
		t.Fatal(err)
	}
	ben, err := bc.Join(ctx, "", id)
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Eve's turn", has("▶ your turn"))
	tm.typeText("able")
	tm.key("enter")
	tm.waitFor("Ben's turn", has("Ben"))
	tm.key("esc")
	tm.waitFor("home, the game under way", func(s string) bool { return strings.Contains(lineWith(s, id), "playing") })
	// Ben resigns before his first move: the game is aborted.
	if _, err := bc.Move(ctx, ben.Token, id, "resign", 0, false); err != nil {
		t.Fatal(err)
	}
	tm.update(homeTickMsg{})
	tm.waitFor("home, the game aborted", func(s string) bool { return strings.Contains(lineWith(s, id), "aborted") })
}

// TestRecentNotesWhole: whom the server played for stands whole after a
// recent game's line or under it, however full the list: the list shows
// fewer games rather than cut a note, and keeps the game the cursor is
// on in sight.
func TestRecentNotesWhole(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	for _, w := range []int{80, 100} {
		tm := newTermWith(t, ts.URL, "Eve", w, 32, Config{DataDir: t.TempDir()})
		var rs []Recent
		for i := range recentMax {
			rs = append(rs, Recent{Server: tm.m.serverName(), Table: fmt.Sprintf("t%015d", i), Game: "salvo", Title: "Salvo",
				Status: "a draw", When: time.Now(), Forfeits: []string{"Benedict ran out of time", "you ran out of time"}, Event: "in Friday Swiss, round 2"})
		}
		tm.m.recent = rs
		tm.m.home.at = len(tm.m.games) + 3 + 9 // the tenth game
		s := tm.screen()
		if !strings.Contains(s, "t000000000000009") {
			t.Errorf("at %d columns, the game the cursor is on is out of sight:\n%s", w, s)
		}
		for l := range strings.Lines(s) {
			if strings.HasSuffix(strings.TrimRight(l, " \n"), "…") && !strings.Contains(l, "… and") {
				t.Errorf("at %d columns, a line is cut: %q", w, l)
			}
		}
		if n := strings.Count(strings.Join(strings.Fields(s), " "), "in Friday Swiss, round 2 · Benedict ran out of time · you ran out of time"); n < 2 {
			t.Errorf("at %d columns, %d games' notes stand whole:\n%s", w, n, s)
		}
		checkFits(t, tm)
	}
}
