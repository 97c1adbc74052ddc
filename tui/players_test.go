package tui

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"parlour/server"
	socialsvc "parlour/server/social"
	"parlour/server/table/tabletest"
	"parlour/tui/client"
)

// TestChallengesInTheTerminal: a signed-in terminal holds the player
// stream, so the server counts its player online (and the web lists them
// to challenge) for as long as it runs, not only for the minutes after a
// request; the challenges made to them reach the screen as they come, and
// are declined and accepted there (accepting seats them at the table);
// they challenge by name, and the table the accepted challenge opens
// comes to their screen; another terminal signed in to the same account
// lists those games among the recent ones, from the server.
func TestChallengesInTheTerminal(t *testing.T) {
	t.Parallel()
	clk := tabletest.NewClock(time.Now())
	ts := newTestServerWith(t, func(c *server.Config) { c.Clock = clk })
	ctx := context.Background()
	ann, annS := signedUp(t, ts, "Ann")
	_, benS := signedUp(t, ts, "Ben")
	tm := newTermWith(t, ts.URL, "Ben", 80, 24, Config{DataDir: t.TempDir(), Session: benS.Token, Account: "Ben"})

	// Online while the terminal runs, long after its last request.
	clk.Advance(socialsvc.OnlineWindow + time.Minute)
	waitOnline(t, ann, "Ben")

	// A challenge comes to the home screen; p lists it, with the rules
	// it changes; d declines it.
	var ch client.Challenge
	err := postAs(ts.URL, annS.Token, "/api/v1/challenges", map[string]any{"to": "ben", "game": "nymphabet", "rules": map[string]any{"mode": "cyclic", "no_repeats": true}}, &ch)
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor("the challenge's news", has("Ann challenges you to Nymphabet with changed rules: p answers"))
	tm.key("p")
	tm.waitFor("the players screen", has("Challenges to you", "> Ann challenges you to Nymphabet · Mode: cyclic; No repeated words: on", "Online", "Ann"))
	checkFits(t, tm)
	tm.key("d")
	tm.waitFor("declined", has("you declined Ann's challenge"))
	if _, out, err := ann.Challenges(ctx, annS.Token); err != nil || len(out) != 0 {
		t.Fatalf("Ann's open challenges after Ben declined: %+v, %v", out, err)
	}
	if s := tm.screen(); strings.Contains(s, "> Ann challenges") {
		t.Fatalf("the declined challenge is still listed:\n%s", s)
	}
	if _, err := ann.Accept(ctx, annS.Token, ch.ID); err == nil {
		t.Fatal("a declined challenge was accepted")
	}

	// A rated challenge, accepted with a: Ben is at the table.
	ch, err = ann.Challenge(ctx, annS.Token, "Ben", client.Proposal{Game: "nymphabet", Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	// On the players screen, the news says where the challenge is.
	tm.waitFor("the rated challenge", has("> Ann challenges you to Nymphabet (rated)", "Ann challenges you to Nymphabet (rated): listed above, a accepts it"))
	tm.key("a")
	s := tm.waitFor("the table", has("you: Ben"))
	if first, _, _ := strings.Cut(s, "\n"); !strings.Contains(first, "rated") {
		t.Fatalf("the challenge's table is not said rated:\n%s", s)
	}
	first := tm.table().id
	// At a table p is a letter: the news says where p answers.
	again, err := ann.Challenge(ctx, annS.Token, "Ben", client.Proposal{Game: "salvo"})
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor("the news at the table", has("you: Ben", "Ann challenges you to Salvo: p on the home screen answers"))
	if _, err := ann.Withdraw(ctx, annS.Token, again.ID); err != nil {
		t.Fatal(err)
	}

	// Ben challenges Ann by name on the challenge form; she accepts;
	// the table comes to his screen. Sent without a name, the form says
	// what is missing; to a name nobody has, the server's refusal shows
	// and nothing is sent.
	tm.key("esc")
	tm.key("p")
	tm.waitFor("the players screen", has("Challenges to you"))
	tm.key("c")
	tm.waitFor("the form", has("Challenge a player", "> Player", "Rated"))
	tm.key("enter")
	tm.waitFor("the name asked for", has("type the name of the player to challenge"))
	tm.typeText("zed")
	tm.key("enter")
	tm.waitFor("the refusal", has(`the challenge to zed: there is no player called "zed"`))
	for range 3 {
		tm.key("backspace")
	}
	// The name takes j and k as letters, not as moves.
	tm.typeText("jk")
	tm.waitFor("the name typed", has("> Player", "‹ jk█ ›"))
	tm.key("backspace")
	tm.key("backspace")
	// The names that begin as the one typed show beside it, and →
	// takes the first.
	tm.typeText("an")
	s = tm.waitFor("the names offered", has("‹ an█ ›", "→ Ann"))
	if strings.Contains(s, "zed") {
		t.Errorf("the refusal of the last name stays after the name changed:\n%s", s)
	}
	checkFits(t, tm)
	tm.key("right")
	tm.waitFor("the name taken", has("‹ Ann█ ›"))
	// The game: Sightless Word Fight, whose options, clock and word
	// list follow it; the strike limit typed, a Fischer clock, the
	// smallest word list.
	tm.key("down")
	tm.keyUntil("right", "‹ Sightless Word Fight ›")
	tm.waitFor("Word Fight's options", has("Strike limit", "Clock", "Word list"))
	checkFits(t, tm)
	tm.keyUntil("down", "> Strike limit")
	tm.key("backspace")
	tm.key("5")
	tm.keyUntil("down", "> Clock")
	tm.keyUntil("right", "‹ 3+2 ›")
	tm.key("down")
	tm.waitFor("the word list chosen", has("> Word list"))
	tm.keyUntil("right", "‹ en-common ›")
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("the challenge made", has("you challenged Ann to Sightless Word Fight: they have", "you challenged Ann to Sightless Word Fight, waiting for an answer · Clock:"))
	in, _, err := ann.Challenges(ctx, annS.Token)
	if err != nil || len(in) != 1 || in[0].From != "Ben" || in[0].Game != "wordfight" || in[0].Lexicon != "en-common" || in[0].Rated {
		t.Fatalf("Ann's challenges: %+v, %v", in, err)
	}
	var clock client.Clock
	if err := json.Unmarshal(in[0].Rules["clock"], &clock); err != nil || clock.Kind != "fischer" || clock.Initial != 180 || clock.Increment != 2 {
		t.Errorf("the challenge's clock is %s, want 3+2 as a Fischer clock", in[0].Rules["clock"])
	}
	if got := string(in[0].Rules["strike_limit"]); got != "5" {
		t.Errorf("the challenge's strike limit is %s, want 5", got)
	}
	seat, err := ann.Accept(ctx, annS.Token, in[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor("the accepted challenge's table", func(s string) bool {
		return tm.table() != nil && tm.table().id == seat.Table && strings.Contains(s, "you: Ben")
	})

	// Another terminal of Ben's, with nothing kept on its disk, lists
	// both tables among his recent games: the server's list.
	other := newTermWith(t, ts.URL, "Ben", 80, 24, Config{NoDisk: true, Session: benS.Token, Account: "Ben"})
	s = other.waitFor("the recent games", has(first, seat.Table))
	if l := lineWith(s, first); !strings.Contains(l, "rated") {
		t.Fatalf("the rated game's line does not say so: %q", l)
	}
	checkFits(t, other)
	_ = ch
}

// TestChallengeFromAProfile: c on another player's profile opens the
// challenge form with their name, the game next to choose; esc comes
// back to the profile, and c on your own profile says why not. f and b
// there follow and block the player, and undo it.
func TestChallengeFromAProfile(t *testing.T) {
	t.Parallel()
	_, _, _, ben, benS, tm := benSeesAnn(t)
	ctx := context.Background()
	tm.key("v")
	// f waits for the profile to know whether Ben follows Ann ("one
	// moment" before): the test waits for that too.
	tm.waitFor("Ann's profile, and whether Ben follows her", func(s string) bool {
		p, ok := tm.m.cur.(*profileScreen)
		return ok && p.follows != nil && has("Ann  ·  playing since", "c challenge", "f follow", "b block", "R report")(s)
	})
	tm.key("f")
	tm.waitFor("Ann followed", has("you follow Ann", "finished games  ·  following"))
	if fs, err := ben.Follows(ctx, benS.Token); err != nil || len(fs) != 1 || fs[0].Name != "Ann" {
		t.Errorf("Ben follows %+v, %v", fs, err)
	}
	tm.key("b")
	tm.waitFor("Ann blocked", has("you block Ann", "following  ·  blocked"))
	tm.key("f")
	tm.waitFor("Ann no longer followed", has("you no longer follow Ann"))
	tm.key("b")
	tm.waitFor("Ann no longer blocked, nor followed", func(s string) bool {
		return has("you no longer block Ann")(s) && !strings.Contains(s, "following") && !strings.Contains(s, "blocked")
	})
	if bs, err := ben.Blocks(ctx, benS.Token); err != nil || len(bs) != 0 {
		t.Errorf("Ben blocks %+v, %v", bs, err)
	}
	// R reports Ann, as the browser's profile does: "?" is typed, not the
	// help; "other" without words is refused in the server's words, the
	// form kept; with them it goes, and the form closes.
	tm.key("R")
	tm.waitFor("the report's line", has("Report Ann for ‹ cheating ›: █", "←→ reason · type what happened"))
	checkFits(t, tm)
	tm.typeText("?")
	tm.waitFor("? typed", has("‹ cheating ›: ?█"))
	tm.key("backspace")
	tm.key("left")
	tm.waitFor("the reason other", has("Report Ann for ‹ something else (say what) ›: █"))
	tm.key("enter")
	tm.waitFor("the refusal, the form kept", has("needs a few words", "Report Ann for ‹ something else"))
	tm.typeText("she plays at three tables with one clock")
	tm.key("enter")
	s := tm.waitFor("the report sent", has("your report about Ann went to the moderators"))
	if strings.Contains(s, "Report Ann for") {
		t.Errorf("the report's line stays after it went:\n%s", s)
	}
	tm.key("c")
	tm.waitFor("the form", has("Challenge a player", "‹ Ann ›", "> Game"))
	checkFits(t, tm)
	tm.key("esc")
	tm.waitFor("the profile again", has("Ann  ·  playing since"))
	tm.key("esc")
	tm.waitFor("the players screen", has("Online", "> Ann"))
	tm.key("esc")
	tm.key("t") // the leaderboards, then m: Ben's own profile
	tm.key("m")
	s = tm.waitFor("Ben's own profile", has("Ben  ·  playing since"))
	if strings.Contains(s, "c challenge") {
		t.Errorf("Ben's own profile offers to challenge him:\n%s", s)
	}
	tm.key("c")
	tm.waitFor("the refusal", has("this is your own profile"))
	tm.key("f")
	tm.waitFor("f refused", has("this is your own profile"))
	tm.key("R")
	if s := tm.waitFor("R refused", has("this is your own profile")); strings.Contains(s, "Report Ben") {
		t.Errorf("Ben may report himself:\n%s", s)
	}
}

// TestWithdrawInTheTerminal: a challenge of the player's own is a row of
// the players screen, with the rules it changes; x on it withdraws it,
// a and d say whose it is, and x elsewhere says what it takes.
func TestWithdrawInTheTerminal(t *testing.T) {
	t.Parallel()
	_, ann, annS, ben, benS, tm := benSeesAnn(t)
	ctx := context.Background()
	if _, err := ben.Challenge(ctx, benS.Token, "Ann", client.Proposal{Game: "nymphabet", Rules: map[string]any{"mode": "cyclic"}}); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Ben's challenge", has("> you challenged Ann to Nymphabet, waiting for an answer · Mode: cyclic"))
	checkFits(t, tm)
	tm.key("a")
	tm.waitFor("a on his own challenge", has("this challenge is yours: x withdraws it"))
	tm.key("down")
	tm.waitFor("Ann chosen", has("> Ann"))
	tm.key("x")
	tm.waitFor("x on a player", has("choose one of your challenges"))
	tm.key("up")
	tm.key("x")
	s := tm.waitFor("the challenge withdrawn", has("you withdrew your challenge to Ann"))
	if strings.Contains(s, "you challenged Ann") {
		t.Errorf("the withdrawn challenge is still listed:\n%s", s)
	}
	if in, _, err := ann.Challenges(ctx, annS.Token); err != nil || len(in) != 0 {
		t.Errorf("Ann's challenges after the withdrawal: %+v, %v", in, err)
	}
}

// TestChallengeSettledWhileAway: Ben's player stream is cut while Ann
// declines his challenge, so no line says so; when it opens again his
// challenge leaves the list, saying it is no longer open. Then Ann's
// challenge to him is withdrawn while the stream is cut: his a on it is
// refused in the server's words, and it leaves the list rather than be
// offered again.
func TestChallengeSettledWhileAway(t *testing.T) {
	t.Parallel()
	ts, ann, annS, ben, benS, tm := benSeesAnn(t)
	ctx := context.Background()
	ch, err := ben.Challenge(ctx, benS.Token, "Ann", client.Proposal{Game: "nymphabet"})
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Ben's challenge", has("you challenged Ann to Nymphabet, waiting for an answer"))
	ts.dropStreams()
	if _, err := ann.Decline(ctx, annS.Token, ch.ID); err != nil {
		t.Fatal(err)
	}
	ts.restore()
	s := tm.waitFor("the challenge put away", has("your challenge to Ann is no longer open"))
	if strings.Contains(s, "you challenged Ann") {
		t.Errorf("the declined challenge is still listed:\n%s", s)
	}

	in, err := ann.Challenge(ctx, annS.Token, "Ben", client.Proposal{Game: "salvo"})
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Ann's challenge", has("> Ann challenges you to Salvo"))
	ts.dropStreams()
	if _, err := ann.Withdraw(ctx, annS.Token, in.ID); err != nil {
		t.Fatal(err)
	}
	tm.key("a")
	s = tm.waitFor("the refusal", has("this challenge was withdrawn"))
	if strings.Contains(s, "Ann challenges you to Salvo") {
		t.Errorf("the withdrawn challenge is still offered:\n%s", s)
	}
	ts.restore()
}

// benSeesAnn starts a server with the accounts Ann and Ben, Ann online,
// and Ben's terminal on the players screen with Ann chosen.
func benSeesAnn(t *testing.T) (ts *testServer, ann *client.Client, annS client.Session, ben *client.Client, benS client.Session, tm *term) {
	t.Helper()
	ts = newTestServer(t)
	ann, annS = signedUp(t, ts, "Ann")
	ben, benS = signedUp(t, ts, "Ben")
	tm = newTermWith(t, ts.URL, "Ben", 80, 24, Config{DataDir: t.TempDir(), Session: benS.Token, Account: "Ben"})
	if _, err := ann.YourTables(context.Background(), annS.Token); err != nil { // a request of Ann's: she is online
		t.Fatal(err)
	}
	waitOnline(t, ben, "Ann")
	tm.key("p")
	tm.waitFor("Ann online", has("Online", "> Ann"))
	return ts, ann, annS, ben, benS, tm
}

// waitOnline waits until the server lists name among the players online.
func waitOnline(t *testing.T, c *client.Client, name string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		o, err := c.Online(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range o.Players {
			if p.Name == name {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is not listed online: %+v", name, o)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestFollowBlockReportInTheTerminal: on the players screen a signed-in
// player follows another (and hears when they start a game), blocks them
// (whose challenge is then refused) and unblocks them, and reports them
// to the moderators, once.
func TestFollowBlockReportInTheTerminal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ts, ann, annS, ben, benS, tm := benSeesAnn(t)

	tm.key("f")
	tm.waitFor("the follow", has("you follow Ann", "Ann (following)"))
	checkFits(t, tm)
	if fs, err := ben.Follows(ctx, benS.Token); err != nil || len(fs) != 1 || fs[0].Name != "Ann" {
		t.Fatalf("Ben follows %+v, %v", fs, err)
	}
	ts.waitStreams(t, 1) // Ben's, to hear the news
	annGame, err := ann.Create(ctx, annS.Token, "nymphabet", nil, []string{"me", "computer:easy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor("the followed player's game", has("Ann, whom you follow, started a game of Nymphabet: w on them watches it"))

	tm.key("b")
	tm.waitFor("the block", has("you block Ann", "Ann (following) (blocked)"))
	if _, err := ann.Challenge(ctx, annS.Token, "Ben", client.Proposal{Game: "nymphabet"}); err == nil || !strings.Contains(err.Error(), "not taking challenges from you") {
		t.Errorf("a blocked player's challenge answered %v", err)
	}
	tm.key("R")
	tm.waitFor("the report form", has("Report Ann for ‹ cheating ›"))
	tm.key("right")
	tm.typeText("rude after every move")
	tm.waitFor("the report typed", has("Report Ann for ‹ abuse in chat ›: rude after every move"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("the report sent", has("your report about Ann went to the moderators"))
	tm.key("R")
	tm.key("right")
	tm.key("enter")
	tm.waitFor("the second report refused", has("already reported Ann"))
	tm.key("esc")

	tm.key("b")
	tm.waitFor("the unblock", has("you no longer block Ann"))
	if _, err := ann.Challenge(ctx, annS.Token, "Ben", client.Proposal{Game: "nymphabet"}); err != nil {
		t.Errorf("a challenge after the unblock: %v", err)
	}
	tm.waitFor("Ann among the players followed", has("You follow", "Ann playing Nymphabet (w watches)"))
	// The Online list says what she plays too, once the lists are read
	// again after the unblock.
	tm.waitFor("Ann online, playing", has("Ann (following) playing Nymphabet (w watches)"))
	// w watches Ann's game from either list: Online, and You follow.
	for _, row := range []string{"> Ann (following)", "> Ann playing Nymphabet (w watches)"} {
		tm.keyUntil("down", row)
		checkFits(t, tm)
		tm.key("w")
		tm.waitFor("Ann's game, watched from "+row, func(s string) bool {
			return tm.table() != nil && tm.table().id == annGame.Table && strings.Contains(s, "watching")
		})
		tm.key("esc")
		tm.waitFor("the players screen again", has("You follow", "Ann playing Nymphabet"))
	}

	// A player who is not online, blocked from a browser: listed under
	// You block, and unblocked from there.
	signedUp(t, ts, "Cyd")
	if err := ben.Block(ctx, benS.Token, "Cyd", true); err != nil {
		t.Fatal(err)
	}
	tm.key("r")
	tm.waitFor("Cyd blocked", has("You block", "Cyd (blocked since"))
	checkFits(t, tm)
	for range 10 {
		if strings.Contains(tm.screen(), "> Cyd") {
			break
		}
		tm.key("down")
	}
	// Where a player not followed plays the server does not say.
	tm.key("w")
	tm.waitFor("w on Cyd", has("only the games of players you follow show here: f follows Cyd"))
	tm.key("b")
	tm.waitFor("Cyd unblocked", has("you no longer block Cyd"))
	if bs, err := ben.Blocks(ctx, benS.Token); err != nil || len(bs) != 0 {
		t.Errorf("Ben blocks %+v, %v", bs, err)
	}
}

// TestFollowNewsOnLine: news that a followed player came online, which
// can come late, takes the note line only when nothing else holds it:
// not over the answer to what the player just did, nor over a followed
// player's game; a later one takes the place of an earlier.
func TestFollowNewsOnLine(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	online := func(name string) client.PlayerEvent {
		return client.PlayerEvent{Type: "followOnline", Follow: &client.FollowNews{Name: name}}
	}
	playing := func(name string) client.PlayerEvent {
		ev := client.PlayerEvent{Type: "followPlaying", Follow: &client.FollowNews{Name: name}}
		ev.Follow.Table = &struct {
			ID   string `json:"id,omitempty"`
			Game string `json:"game"`
		}{ID: "t1", Game: "nymphabet"}
		return ev
	}
	for _, c := range []struct {
		name   string
		note   string
		events []client.PlayerEvent
		want   string
	}{
		{"nothing on the line", "", []client.PlayerEvent{online("Ann")}, "Ann, whom you follow, is online"},
		{"after the player's own action", "you block Ann", []client.PlayerEvent{online("Ann")}, "you block Ann"},
		{"after a game started", "", []client.PlayerEvent{playing("Ann"), online("Ann")}, "Ann, whom you follow, started a game of Nymphabet: w on the players screen watches it"},
		{"a game after", "", []client.PlayerEvent{online("Ann"), playing("Ann")}, "Ann, whom you follow, started a game of Nymphabet: w on the players screen watches it"},
		{"one after another", "", []client.PlayerEvent{online("Ann"), online("Ben")}, "Ben, whom you follow, is online"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tm := newTerm(t, ts.URL, "Cat", 80, 24)
			tm.m.note = c.note
			for _, ev := range c.events {
				tm.m.playerEvent(ev)
			}
			if tm.m.note != c.want {
				t.Errorf("the note line says %q, want %q", tm.m.note, c.want)
			}
		})
	}
}

// TestChallengeTerms: the news of a challenge says, in few words, what
// it changes: the rules, the clock, the word list.
func TestChallengeTerms(t *testing.T) {
	t.Parallel()
	sh := &shared{games: []client.Game{{Name: "nymphabet", Title: "Nymphabet"}}}
	for _, c := range []struct {
		ch   client.Challenge
		want string
	}{
		{client.Challenge{Game: "nymphabet"}, "Nymphabet"},
		{client.Challenge{Game: "nymphabet", Rated: true}, "Nymphabet (rated)"},
		{client.Challenge{Game: "nymphabet", Rules: map[string]json.RawMessage{"mode": []byte(`"cyclic"`)}}, "Nymphabet with changed rules"},
		{client.Challenge{Game: "nymphabet", Rules: map[string]json.RawMessage{"clock": []byte(`60`)}}, "Nymphabet, clock 1 minute a turn"},
		{client.Challenge{Game: "nymphabet", Rated: true, Lexicon: "en-large", Rules: map[string]json.RawMessage{"clock": []byte(`60`), "no_repeats": []byte(`true`)}},
			"Nymphabet (rated) with changed rules, clock 1 minute a turn on the en-large word list"},
		{client.Challenge{Game: "chess"}, "chess"},
	} {
		if got := sh.challengeTerms(c.ch); got != c.want {
			t.Errorf("%+v: %q, want %q", c.ch, got, c.want)
		}
	}
}

// TestChallengeText: the challenge form types a text option (a Word
// Fight board's shape) as the new-table form does, with a cursor and the
// keys that type it.
func TestChallengeText(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	_, as := signedUp(t, ts, "ann_c")
	tm := newTermWith(t, ts.URL, "ann_c", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_c"})
	tm.key("p")
	tm.waitFor("the players screen", has("c challenge by name"))
	tm.key("c")
	tm.waitFor("the form", has("Challenge a player"))
	tm.key("down")
	tm.keyUntil("right", "‹ Sightless Word Fight ›")
	tm.keyUntil("down", "> Board shape")
	tm.typeText(".#")
	s := tm.waitFor("the shape typed", has("type · backspace erase · ctrl+e draw it · ↑↓ field"))
	checkFits(t, tm)
	if !regexp.MustCompile(`> Board shape +\.#█\n`).MatchString(s) {
		t.Errorf("the shape does not show as typed:\n%s", s)
	}
	// ctrl+e draws it, on the board of 20 by 20; esc leaves it as typed.
	tm.key("ctrl+e")
	tm.waitFor("the drawing", has("20 by 20", "no shape of this board"))
	tm.key("esc")
	tm.waitFor("the form again", has("Challenge a player", "> Board shape"))
	if s := tm.screen(); !regexp.MustCompile(`> Board shape +\.#█\n`).MatchString(s) {
		t.Errorf("after the drawing left with esc, the shape reads:\n%s", s)
	}
}

// TestChallengeRatedKeepsDefaults: on the challenge form, Rated holds
// the options a rated game may not change at their defaults, the word
// list among them, and refuses keys that would change them; the rated
// challenge sent is one the server takes, at the defaults.
func TestChallengeRatedKeepsDefaults(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ben, bs := signedUp(t, ts, "ben_r")
	_, as := signedUp(t, ts, "ann_r")
	tm := newTermWith(t, ts.URL, "ann_r", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_r"})
	tm.key("p")
	tm.waitFor("the players screen", has("c challenge by name"))
	tm.key("c")
	tm.waitFor("the form", has("Challenge a player"))
	tm.typeText("ben_r")
	tm.key("down")
	tm.keyUntil("right", "‹ Sightless Word Fight ›")
	tm.keyUntil("down", "> Strike limit")
	tm.key("right")
	tm.keyUntil("down", "> Word list")
	tm.keyUntil("right", "‹ en-large ›")
	tm.keyUntil("down", "> Rated")
	tm.key("right")
	s := tm.waitFor("rated", func(s string) bool { return strings.Contains(lineWith(s, "Rated"), "‹ yes ›") })
	checkFits(t, tm)
	for _, want := range []string{"Strike limit", "Word list"} {
		if l := lineWith(s, want); !strings.Contains(l, "rated: the default") || strings.Contains(l, "‹ 4 ›") || strings.Contains(l, "en-large") {
			t.Errorf("a rated challenge's %s is not held at its default: %q", want, l)
		}
	}
	tm.keyUntil("up", "> Word list")
	tm.key("left")
	tm.waitFor("the refusal", has("! a rated game keeps word list at its default"))
	tm.key("enter")
	tm.waitFor("the challenge made", has("you challenged ben_r to Sightless Word Fight"))
	in, _, err := ben.Challenges(ctx, bs.Token)
	if err != nil || len(in) != 1 || !in[0].Rated || in[0].Lexicon != "" || len(in[0].Rules["strike_limit"]) > 0 {
		t.Fatalf("ben_r's challenges: %+v, %v", in, err)
	}
}

// TestPlayersAsGuest: a guest's players screen says that challenges are
// an account's and offers only the keys a guest may use; the others,
// pressed anyway, say why not.
func TestPlayersAsGuest(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	gm := newTerm(t, ts.URL, "Gus", 80, 24)
	gm.key("p")
	s := gm.waitFor("the players screen", has("Sign in (s on the home screen) to challenge players", "↑↓ choose · v profile · r refresh · esc back"))
	checkFits(t, gm)
	for _, no := range []string{"challenge by name", "f follow", "R report", "a accept"} {
		if strings.Contains(s, no) {
			t.Errorf("a guest is offered %q:\n%s", no, s)
		}
	}
	gm.key("f")
	gm.waitFor("why not", has("sign in first"))
}

// TestRematchOnTheStream: Ann, on the home screen after a rated game
// with Ben, hears that Ben asked for a rematch, and the next game's table
// is listed in her recent games, under way.
func TestRematchOnTheStream(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ben, benS := signedUp(t, ts, "Ben")
	ann, annS := signedUp(t, ts, "Ann")
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "Ann"})
	waitOnline(t, ben, "Ann")
	done := ratedGame(t, ben, benS, ann, annS, nil, "abdicate", "defog")
	next, err := ben.Rematch(context.Background(), benS.Token, done)
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor("the rematch's news", has("Ben asks for a rematch of Nymphabet (rated): the table is in your recent games"))
	checkFits(t, tm)
	tm.waitFor("the next game listed, under way", has(next.Table+" playing"))
}

// TestWatchYourOwnGame: a challenge to the player at the terminal that
// they accept elsewhere (the API, as a browser does) leaves the players
// screen's list, with news of it. Then w on the followed player whose
// game it opened, against the player at the terminal, opens that game at
// the player's own seat, to play, not as a spectator who cannot move, as
// the browser's link to the game does.
func TestWatchYourOwnGame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, ann, annS, ben, benS, tm := benSeesAnn(t)
	if err := ben.Follow(ctx, benS.Token, "Ann", true); err != nil {
		t.Fatal(err)
	}
	ch, err := ann.Challenge(ctx, annS.Token, "Ben", client.Proposal{Game: "nymphabet"})
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Ann's challenge", has("Ann challenges you to Nymphabet"))
	seat, err := ben.Accept(ctx, benS.Token, ch.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Accepted through the API, as from a browser: the screen's list
	// drops it.
	s := tm.waitFor("the challenge answered", has("you accepted Ann's challenge elsewhere"))
	if strings.Contains(s, "Ann challenges you") {
		t.Errorf("the challenge accepted elsewhere is still offered:\n%s", s)
	}
	tm.key("r")
	tm.waitFor("Ann playing", has("Ann (following) playing Nymphabet (w watches)"))
	tm.keyUntil("down", "> Ann (following)")
	tm.key("w")
	s = tm.waitFor("Ben's own seat", func(s string) bool {
		return tm.table() != nil && tm.table().id == seat.Table && strings.Contains(s, "you: Ben")
	})
	if strings.Contains(s, "watching") || tm.table().watching() {
		t.Errorf("Ben watches his own game:\n%s", s)
	}
	tm.key("esc")
	tm.waitFor("the players screen again", has("You follow", "Ann playing Nymphabet"))
}

// TestPlayersKeepNewestAnswers: answers about who is online and whom the
// account follows and blocks may overtake one another; the players
// screen and a profile keep the newest asked for, not the last to come
// (a list asked for as the screen opened, answered after a refresh's).
func TestPlayersKeepNewestAnswers(t *testing.T) {
	t.Parallel()
	sh := &shared{w: 80, h: 24, cfg: Config{Session: "s", Account: "Ben"}, c: &client.Client{}}
	ps := &playersScreen{shared: sh}
	first, second := sh.loadRelations(ps), sh.loadRelations(ps) // numbered as asked
	if first == nil || second == nil {
		t.Fatal("no request for the relations")
	}
	ps.update(relationsMsg{to: ps, asked: sh.asked, follows: []client.Followed{{Name: "Ann"}}})
	ps.update(relationsMsg{to: ps, asked: sh.asked - 1})
	if !ps.follows["ann"] {
		t.Errorf("an older answer of whom Ben follows took the place of the newer: %v", ps.follows)
	}
	ps.loadOnline()
	ps.loadOnline()
	newer := client.Online{Count: 2}
	newer.Players = append(newer.Players, struct {
		Name string `json:"name"`
	}{"Ann"})
	ps.update(onlineMsg{to: ps, asked: sh.asked, online: newer})
	ps.update(onlineMsg{to: ps, asked: sh.asked - 1, online: client.Online{Count: 1}})
	if ps.online.Count != 2 {
		t.Errorf("an older answer of who is online took the place of the newer: %+v", ps.online)
	}

	pr := &profileScreen{shared: sh, name: "Ann"}
	sh.loadRelations(pr)
	sh.loadRelations(pr)
	pr.update(relationsMsg{to: pr, asked: sh.asked, follows: []client.Followed{{Name: "Ann"}}})
	pr.update(relationsMsg{to: pr, asked: sh.asked - 1})
	if pr.follows == nil || !*pr.follows {
		t.Errorf("on Ann's profile an older answer took the place of the newer: follows %v", pr.follows)
	}
}

// TestBlockerHiddenInTheTerminal: a player who blocks Ben is not shown
// to him as online, nor is her seek counted on his home screen, as the
// browser and the lobby (l) leave them out: the terminal asked as nobody.
func TestBlockerHiddenInTheTerminal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, ann, annS, _, _, tm := benSeesAnn(t)
	if _, err := ann.SeekGame(ctx, annS.Token, client.SeekRequest{Game: "quizl"}); err != nil {
		t.Fatal(err)
	}
	tm.key("esc")
	tm.waitFor("home, Ann's seek counted", has("1 looking for a game"))
	if err := ann.Block(ctx, annS.Token, "Ben", true); err != nil {
		t.Fatal(err)
	}
	tm.key("p")
	tm.waitFor("the lists read again, Ann left out", func(s string) bool { return strings.Contains(s, "Online") && !strings.Contains(s, "Ann") })
	tm.key("esc")
	tm.waitFor("home, Ann's seek no longer counted", func(s string) bool {
		return strings.Contains(s, "online") && !strings.Contains(s, "looking for a game")
	})
}
