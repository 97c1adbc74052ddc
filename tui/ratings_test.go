package tui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parlour/game"
	"parlour/tui/client"
)

// TestLeaderboardsAndProfiles: t on the home screen shows the
// leaderboards pool by pool; enter on a player opens their profile
// (ratings, latest games with the rating's change), esc comes back; m
// opens the player's own, and v on the players screen a player online's.
func TestLeaderboardsAndProfiles(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ann, annS := signedUp(t, ts, "ann_r")
	ben, benS := signedUp(t, ts, "ben_r")
	rated := ratedGame(t, ann, annS, ben, benS, nil, "apple", "bed")

	tm := newTermWith(t, ts.URL, "ann_r", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "ann_r"})
	// t opens the leaderboard of the game chosen on the home screen:
	// Salvo's, or for Nymphabet its standard mode's; ←→ go round the
	// pools, and r keeps the one on show.
	tm.key("down")
	tm.key("down")
	tm.waitFor("Salvo chosen", has("> 3 Salvo"))
	tm.key("t")
	tm.waitFor("Salvo's pool", has("Leaderboards", "‹ Salvo ›", "(5 of 6)", "nobody has a settled rating here yet", "m your profile"))
	checkFits(t, tm)
	// A guest has no profile to offer.
	gm := newTerm(t, ts.URL, "Gus", 80, 24)
	gm.key("t")
	if s := gm.waitFor("a guest's leaderboards", has("Leaderboards", "enter profile")); strings.Contains(s, "your profile") {
		t.Errorf("the leaderboards offer a guest their profile:\n%s", s)
	}
	tm.key("r")
	tm.waitFor("Salvo's pool still", has("‹ Salvo ›", "(5 of 6)", "nobody has a settled rating here yet"))
	tm.key("esc")
	tm.key("up")
	tm.key("up")
	tm.waitFor("Nymphabet chosen", has("> 1 Nymphabet"))
	tm.key("t")
	tm.waitFor("the standard pool", has("‹ Nymphabet (standard) ›", "(3 of 6)"))
	tm.key("left")
	tm.key("left")
	tm.waitFor("the first pool", has("‹ Nymphabet (cyclic) ›", "(1 of 6)"))
	tm.key("right")
	tm.key("right")
	tm.waitFor("the standard pool", has("‹ Nymphabet (standard) ›", "nobody has a settled rating here yet"))
	// Two settled players, as a busier server would list them (two
	// players cannot settle a rating within a test).
	tm.update(boardMsg{to: tm.m.cur.(*boardsScreen), pool: "nymphabet-standard", leaders: []client.Leader{
		{Rank: 1, Name: "ben_r", Rating: 1712.4, RD: 98.1, Games: 23},
		{Rank: 2, Name: "ann_r", Rating: 1650.6, RD: 101.7, Games: 19},
	}})
	s := tm.waitFor("the board", has("ben_r", "1712 ±98", "ann_r"))
	if l := lineWith(s, "ben_r"); !strings.Contains(l, ">") || !strings.Contains(l, "23") {
		t.Errorf("the first line is not chosen or lacks its games: %q", l)
	}
	checkFits(t, tm)
	tm.key("down")
	tm.key("enter")
	s = tm.waitFor("Ann's profile", has("ann_r", "playing since", "Ratings", "Nymphabet (standard)", "provisional", "lost    Nymphabet (standard) against ben_r · rated -"))
	checkFits(t, tm)
	// Under the rating, where it went: from 1500 down, over her one game.
	if l := lineWith(s, "over 1 rated game"); !strings.HasPrefix(strings.TrimSpace(l), "█▁  1500 → 1") {
		t.Errorf("the rating's trend: %q", l)
	}
	tm.key("esc")
	tm.waitFor("the leaderboard again", has("‹ Nymphabet (standard) ›", "1712 ±98"))
	tm.key("m")
	tm.waitFor("Ann's own profile", has("ann_r", "playing since"))
	// Her own game opens at her seat, as her recent games on the home
	// screen do: its end offers her the rematch.
	tm.key("enter")
	if s := tm.waitFor("Ann's game at her seat", has("Game over", "r rematch")); strings.Contains(s, "watching") {
		t.Errorf("Ann's own game, from her profile, is watched:\n%s", s)
	}
	tm.key("esc")
	tm.waitFor("Ann's own profile again", has("ann_r", "playing since"))
	tm.key("esc")
	// / finds a player by the start of their name: the names that
	// begin so show as it is typed, → takes the first, enter opens the
	// profile; a name nobody has opens none.
	tm.key("/")
	tm.typeText("BE")
	tm.waitFor("the names offered", has("Find a player: BE█", "→ ben_r", "enter its profile"))
	checkFits(t, tm)
	tm.key("right")
	tm.waitFor("the name taken", has("Find a player: ben_r█"))
	tm.key("enter")
	tm.waitFor("Ben's profile", has("ben_r", "playing since", "won     Nymphabet (standard) against ann_r"))
	tm.key("esc")
	tm.waitFor("the leaderboard again", has("‹ Nymphabet (standard) ›", "/ find a player"))
	tm.key("/")
	tm.typeText("zed")
	tm.key("enter")
	tm.waitFor("nobody called zed", has("zed has no profile: only players with accounts have one"))
	tm.key("esc")
	tm.key("/")
	tm.typeText("ben_x")
	tm.key("enter")
	tm.waitFor("the names like ben_x", has("ben_x has no profile", "players whose names", `"ben": ben_r`))
	tm.key("esc")
	tm.key("esc")
	tm.waitFor("home", has("New table"))

	// Ben online: v on the players screen opens his profile.
	newTermWith(t, ts.URL, "ben_r", 80, 24, Config{DataDir: t.TempDir(), Session: benS.Token, Account: "ben_r"})
	tm.key("p")
	tm.waitFor("Ben online", has("ben_r"))
	tm.key("v")
	tm.waitFor("Ben's profile", has("ben_r", "won     Nymphabet (standard) against ann_r · rated +"))
	checkFits(t, tm)
	// His game, opened from the profile: its end as a spectator sees
	// it, with its analysis; esc comes back to the profile.
	tm.key("enter")
	s = tm.waitFor("the game's end", has("Game over", "a analysis", "esc back"))
	if strings.Contains(s, "r rematch") {
		t.Errorf("a spectator is offered a rematch:\n%s", s)
	}
	if id := tm.table().id; id != rated {
		t.Errorf("the profile opened table %s, want %s", id, rated)
	}
	tm.key("a")
	tm.waitFor("the analysis", has("The engines' analysis", "Analysis of a Nymphabet game between ann_r and ben_r"))
	tm.key("esc")
	// The replay, as the first player saw it: a spectator has no seat.
	tm.key("p")
	tm.waitFor("the replay", has("replay, ann_r's view", "the start, before"))
	tm.key("esc")
	tm.waitFor("the end again", has("Game over", "p replay"))
	tm.key("esc")
	tm.waitFor("Ben's profile again", has("won     Nymphabet (standard) against ann_r"))
	tm.key("esc")
	tm.waitFor("the players screen again", has("v profile"))
}

// TestProfileOlderGames: a profile lists the latest 20 games; ↓ past
// the last asks for the older ones, until there are no more.
func TestProfileOlderGames(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ann, annS := signedUp(t, ts, "Ann")
	var tables []string
	for range profilePage + 3 {
		s, err := ann.Create(ctx, annS.Token, "nymphabet", nil, []string{"me", "computer:easy"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ann.Move(ctx, s.Token, s.Table, "resign", 0, false); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, s.Table)
	}
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "Ann"})
	tm.key("t")
	tm.key("m")
	tm.waitFor("the profile", has("Ann  ·  playing since", "older games: ↓ past the last"))
	checkFits(t, tm)
	for range profilePage - 1 {
		tm.key("down")
	}
	if got := tm.m.cur.(*profileScreen).at; got != profilePage-1 {
		t.Fatalf("after %d downs the game chosen is %d", profilePage-1, got)
	}
	tm.key("down")
	tm.waitFor("the older games", func(string) bool { return len(tm.m.cur.(*profileScreen).games) == profilePage+3 })
	s := tm.waitFor("the first older game chosen", has("> "))
	ps := tm.m.cur.(*profileScreen)
	if ps.at != profilePage || ps.next != "" || strings.Contains(s, "older games") {
		t.Fatalf("after the older games came: at %d, next %q:\n%s", ps.at, ps.next, s)
	}
	checkFits(t, tm)
	// Newest first, the oldest last; each listed once.
	seen := map[string]bool{}
	for _, g := range ps.games {
		seen[g.Table] = true
	}
	if len(seen) != len(tables) || ps.games[len(ps.games)-1].Table != tables[0] {
		t.Errorf("the profile lists %d tables, the last %s; want %d, the last %s", len(seen), ps.games[len(ps.games)-1].Table, len(tables), tables[0])
	}
	tm.key("down")
	tm.key("down")
	tm.key("down") // past the last of all: nothing more to ask
	if ps.older || ps.at != len(ps.games)-1 {
		t.Errorf("past the last game: asking %v, at %d of %d", ps.older, ps.at, len(ps.games))
	}
}

// TestTrend: a pool's history as a profile line, within its width.
func TestTrend(t *testing.T) {
	t.Parallel()
	pts := func(rs ...float64) []client.RatingPoint {
		var out []client.RatingPoint
		for _, r := range rs {
			out = append(out, client.RatingPoint{Rating: r})
		}
		return out
	}
	var long []float64
	for i := range 200 {
		long = append(long, 1500+float64(i))
	}
	for _, c := range []struct {
		name  string
		pts   []client.RatingPoint
		games int
		w     int
		want  string
	}{
		{"none", nil, 0, 76, ""},
		{"one game won", pts(1662.3), 1, 76, "▁█  1500 → 1662 over 1 rated game"},
		{"up then down", pts(1600, 1700, 1550), 3, 76, "▁▅█▃  1500 → 1550 over 3 rated games (low 1500, high 1700)"},
		{"a dip", pts(1400, 1600), 2, 76, "▅▁█  1500 → 1600 over 2 rated games (low 1400, high 1600)"},
		{"a few points", pts(1510, 1505), 2, 76, "▄▅▅  1500 → 1505 over 2 rated games (low 1500, high 1510)"},
		{"older games out of the history", pts(1600, 1650), 5, 76, "▁█  the last 2 rated games: 1600 → 1650"},
		{"narrow", pts(1600, 1700, 1550), 3, 40, "█▁  the last 2 rated games: 1700 → 1550"},
	} {
		if got := trend(c.pts, c.games, c.w); got != c.want {
			t.Errorf("%s: trend is %q, want %q", c.name, got, c.want)
		}
	}
	got := trend(pts(long...), 200, 76)
	if ansi.StringWidth(got) > 76 || !strings.Contains(got, "→ 1699") || !strings.Contains(got, "the last") {
		t.Errorf("200 games in 76 columns: %q (%d columns)", got, ansi.StringWidth(got))
	}
}

// TestOrdinal: places as a podium says them.
func TestOrdinal(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestProfileArchive: d on a profile saves every finished game's record,
// one a line, in the data folder's records; over SSH (no disk) it gives
// the address to fetch them from; a player with no finished game is told
// so, and nothing is written.
func TestProfileArchive(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ann, annS := signedUp(t, ts, "ann_a")
	ben, benS := signedUp(t, ts, "ben_a")
	ratedGame(t, ann, annS, ben, benS, nil, "apple", "bed")
	_, catS := signedUp(t, ts, "cat_a")

	dir := t.TempDir()
	tm := newTermWith(t, ts.URL, "ann_a", 80, 24, Config{DataDir: dir, Session: annS.Token, Account: "ann_a"})
	tm.key("t")
	tm.key("m")
	tm.waitFor("Ann's profile", has("ann_a", "playing since", "lost", "d save every game"))
	tm.key("d")
	path := filepath.Join(dir, "records", "ann_a-games.ndjson")
	tm.waitFor("the games saved", has("saved 1 game's record, one a line, to", "ann_a-games.ndjson"))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if rec, err := game.DecodeBytes(b); err != nil || rec.Game != "nymphabet" || strings.Join(rec.Players, ",") != "ann_a,ben_a" {
		t.Errorf("the saved record: %+v, %v", rec, err)
	}

	door := newTermWith(t, ts.URL, "ann_a", 80, 24, Config{NoDisk: true, Session: annS.Token, Account: "ann_a"})
	door.key("t")
	door.key("m")
	door.waitFor("Ann's profile", has("ann_a", "playing since"))
	door.key("d")
	door.waitFor("the address", has("from your own computer: curl -o", "ann_a-games.ndjson "+ts.URL+"/api/v1/players/ann_a/games/export"))

	catDir := t.TempDir()
	cm := newTermWith(t, ts.URL, "cat_a", 80, 24, Config{DataDir: catDir, Session: catS.Token, Account: "cat_a"})
	cm.key("t")
	cm.key("m")
	cm.waitFor("Cat's profile", has("cat_a", "no finished games yet"))
	cm.key("d")
	cm.waitFor("nothing to save", has("no finished game to save"))
	if _, err := os.Stat(filepath.Join(catDir, "records")); err == nil {
		t.Error("saving no game made the records folder")
	}
}

// TestProfilePrivateGames: a player's own profile lists the games of
// private tables they sat at, and d saves their records: the screen asks
// with the player's session, as the browser does with its cookie.
func TestProfilePrivateGames(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ann, annS := signedUp(t, ts, "ann_p")
	ben, benS := signedUp(t, ts, "ben_p")
	id := ratedGameAt(t, ann, annS, ben, benS, nil, map[string]any{"rated": true, "private": true}, "apple", "bed")

	dir := t.TempDir()
	tm := newTermWith(t, ts.URL, "ann_p", 80, 24, Config{DataDir: dir, Session: annS.Token, Account: "ann_p"})
	tm.key("t")
	tm.key("m")
	tm.waitFor("Ann's profile", has("ann_p", "playing since", "d save every game"))
	if ps := tm.m.cur.(*profileScreen); len(ps.games) != 1 || ps.games[0].Table != id || ps.p.History["nymphabet-standard"][0].Table != id {
		t.Fatalf("Ann's own profile: games %+v, chart %+v; want the private table %s", ps.games, ps.p.History, id)
	}
	tm.key("d")
	tm.waitFor("the games saved", has("saved 1 game's record, one a line, to", "ann_p-games.ndjson"))
}

// TestClosedProfile: the profile of an account a moderator closed says
// so, within the screen, offers no challenge, and c says why not.
func TestClosedProfile(t *testing.T) {
	t.Parallel()
	sh := &shared{w: 80, h: 24, cfg: Config{Session: "a session", Account: "ben"}}
	ps := &profileScreen{shared: sh, name: "Cy", p: &client.Profile{Name: "Cy", Games: 3, Ratings: map[string]client.PoolRating{}}}
	if s := ansi.Strip(ps.view()); strings.Contains(s, "closed by a moderator") || !strings.Contains(s, "c challenge") {
		t.Errorf("an open account's profile:\n%s", s)
	}
	ps.p.Closed = true
	s := ansi.Strip(ps.view())
	if !strings.Contains(s, "This account was closed by a moderator.") || strings.Contains(s, "c challenge") {
		t.Errorf("a closed account's profile:\n%s", s)
	}
	for _, p := range fitProblems(s, 80, 24) {
		t.Error(p)
	}
	ps.update(keyMsg("c"))
	if want := "Cy's account was closed by a moderator: they play no more games"; sh.err != want {
		t.Errorf("c on a closed account's profile: %q, want %q", sh.err, want)
	}
}

// TestMissingProfile: the profile of a name no account holds says so,
// offers only r and esc, and the keys that need a player say there is
// none rather than that the profile is on its way.
func TestMissingProfile(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	c, _ := client.New(ts.URL, "ben")
	sh := &shared{w: 80, h: 24, c: c, ctx: context.Background(), cfg: Config{Session: "a session", Account: "ben"}}
	ps := &profileScreen{shared: sh, name: "zed"}
	ps.update(ps.fetch())
	s := ansi.Strip(ps.view())
	if !strings.Contains(s, "zed has no profile") || !strings.Contains(s, "r refresh · esc back") {
		t.Errorf("a missing profile:\n%s", s)
	}
	for _, k := range []string{"c challenge", "f follow", "b block", "R report", "d save"} {
		if strings.Contains(s, k) {
			t.Errorf("a missing profile offers %q:\n%s", k, s)
		}
	}
	for _, p := range fitProblems(s, 80, 24) {
		t.Error(p)
	}
	for _, k := range []string{"c", "f", "b", "R", "d"} {
		sh.err = ""
		if cmd := ps.update(keyMsg(k)); cmd != nil || ps.report.name != "" {
			t.Errorf("%s on a missing profile acts", k)
		}
		if want := "no player with an account is called zed"; sh.err != want {
			t.Errorf("%s on a missing profile: %q, want %q", k, sh.err, want)
		}
	}
}

// TestProvisionalNote: the note under a profile's ratings gives the
// reason a rating is provisional: too few games for a newcomer, time away
// for a player whose last game had settled it.
func TestProvisionalNote(t *testing.T) {
	t.Parallel()
	const few, away = "too few rated games", "after time away"
	for _, c := range []struct {
		name    string
		games   int
		lastRD  float64
		want    string
		notWant string
	}{
		{"newcomer", 3, 200, few, away},
		{"back after a year", 40, 60, away, few},
	} {
		sh := &shared{w: 80, h: 24, cfg: Config{Session: "a session", Account: "ben"}}
		p := &client.Profile{Name: "Cy", Games: c.games,
			Ratings: map[string]client.PoolRating{"quizl": {Rating: 1600, RD: 120, Games: c.games, Provisional: true}},
			History: map[string][]client.RatingPoint{"quizl": {{Rating: 1600, RD: c.lastRD}}}}
		s := ansi.Strip((&profileScreen{shared: sh, name: "Cy", p: p}).view())
		if !strings.Contains(s, c.want) || strings.Contains(s, c.notWant) {
			t.Errorf("%s: the profile says\n%s\nwant %q, not %q", c.name, s, c.want, c.notWant)
		}
	}
}

// TestProfileForfeits: a profile's game says when the server played for
// its player or an opponent, and why.
func TestProfileForfeits(t *testing.T) {
	t.Parallel()
	var gs []client.PlayedGame
	if err := json.Unmarshal([]byte(`[
		{"table": "t1", "game": "nymphabet", "result": "loss", "forfeited": "timeout", "opponents": [{"name": "Ben", "kind": "account"}]},
		{"table": "t2", "game": "nymphabet", "result": "win", "opponents": [{"name": "Dee", "kind": "guest", "forfeited": "claim"}]},
		{"table": "t3", "game": "nymphabet", "result": "win", "opponents": [{"name": "Eve", "kind": "account"}]}]`), &gs); err != nil {
		t.Fatal(err)
	}
	sh := &shared{w: 80, h: 24, cfg: Config{Session: "a session", Account: "ben"}}
	ps := &profileScreen{shared: sh, name: "Cy", p: &client.Profile{Name: "Cy", Games: 3, Ratings: map[string]client.PoolRating{}}, games: gs}
	for i, want := range []string{" · Cy ran out of time", " · Dee was away, and the game was claimed", ""} {
		line := ps.playedLine(gs[i])
		if (want == "") != !strings.Contains(line, " · ") || !strings.HasSuffix(line, want) {
			t.Errorf("game %d: %q, want it to end %q", i+1, line, want)
		}
	}
	if s := ansi.Strip(ps.view()); !strings.Contains(s, "Cy ran out of time") {
		t.Errorf("the profile:\n%s", s)
	}
}
