package server

import (
	"bufio"
	"context"
	"maps"
	"math"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"parlour/games"
	"parlour/lexicon"
	"parlour/server/httpapi"
	"parlour/server/internal/servertest"
	"parlour/server/players"
	"parlour/server/social"
	"parlour/server/table"
)

// newGamesFixtureOn is newGamesFixture on a fresh store of kind k, with
// rated games between the same two players unlimited.
func newGamesFixtureOn(t *testing.T, k servertest.StoreKind) *fixture {
	t.Helper()
	f := &fixture{t: t, dir: t.TempDir(), kind: &k, where: k.Fresh(t), tune: func(c *Config) {
		c.Games, c.NewBot, c.Lexicon, c.RatedPerPair = games.Registry(), games.NewBot, nil, -1
	}}
	f.open()
	t.Cleanup(f.close)
	return f
}

// TestLiveGamesAndTV: the lobby's list of games in play gives each its
// spectators (a seated player's own stream is not one) and a rated game
// its players' mean rating, as their profiles have it, and keeps one
// game's tables when asked; GET /api/v1/tv features the highest-rated
// game, and says so when no game is in play; the list of lexicons names
// the default.
func TestLiveGamesAndTV(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		t.Parallel()
		f := newGamesFixtureOn(t, k)
		srv := startServer(t, f, generous)
		ann, ben, cat, dan := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Ben"), signUp(t, srv.URL, "Cat"), signUp(t, srv.URL, "Dan")
		anyone := &client{t: t, base: srv.URL}
		if st, body := anyone.do("GET", "/api/v1/tv", nil, nil); st != 404 || !strings.Contains(body, table.NoLiveGame) {
			t.Fatalf("the featured game with none in play: %d %s", st, body)
		}
		// Ann beats Cat once, so that her rating is no newcomer's; then
		// she plays Ben, new to the pool, at a rated game, and Cat and
		// Dan play a casual one.
		playNymphabet(t, ann, cat, map[string]any{"rated": true}, 1)
		start := func(a, b *client, rated bool) table.Seated {
			t.Helper()
			var s table.Seated
			if st, body := a.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": rated}, &s); st != 201 {
				t.Fatalf("create: %d %s", st, body)
			}
			if st, body := b.do("POST", "/api/v1/tables/"+s.Table+"/join", map[string]any{}, nil); st != 200 {
				t.Fatalf("join: %d %s", st, body)
			}
			return s
		}
		rated, casual := start(ann, ben, true), start(cat, dan, false)
		var pa, pb players.Profile
		anyone.do("GET", "/api/v1/players/Ann", nil, &pa)
		anyone.do("GET", "/api/v1/players/Ben", nil, &pb)
		if len(pb.Ratings) != 0 || pa.Ratings["nymphabet-standard"].Rating <= 1500 {
			t.Fatalf("Ann's ratings %+v, Ben's %+v: want Ann's above a newcomer's, Ben without", pa.Ratings, pb.Ratings)
		}
		// A player new to the pool counts as a newcomer, at 1500.
		mean := math.Round((pa.Ratings["nymphabet-standard"].Rating+1500)/2*10) / 10

		// follow opens a table's event stream, as a spectator without a
		// token, and reads the table as it stands: the server counts it.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		follow := func(id, token string) {
			t.Helper()
			req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v1/tables/"+id+"/events", nil)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { res.Body.Close() })
			if !bufio.NewScanner(res.Body).Scan() {
				t.Fatalf("the stream of %s ended at once: %d", id, res.StatusCode)
			}
		}
		follow(casual.Table, "")
		follow(casual.Table, cat.token) // a player's own: no spectator
		follow(rated.Table, ann.token)

		type row struct {
			ID         string
			Game       string
			Spectators *int
			Rating     *float64
		}
		list := func(query string) map[string]row {
			t.Helper()
			var l struct{ Tables []row }
			if st, body := anyone.do("GET", "/api/v1/tables?status=playing"+query, nil, &l); st != 200 {
				t.Fatalf("the games in play%s: %d %s", query, st, body)
			}
			out := map[string]row{}
			for _, r := range l.Tables {
				out[r.ID] = r
			}
			return out
		}
		live := list("")
		r, c := live[rated.Table], live[casual.Table]
		if len(live) != 2 || r.Spectators == nil || *r.Spectators != 0 || r.Rating == nil || *r.Rating != mean ||
			c.Spectators == nil || *c.Spectators != 1 || c.Rating != nil {
			t.Fatalf("the games in play: %+v; want the rated one with no spectator and rating %v, the casual one with 1 spectator", live, mean)
		}
		if l := list("&game=nymphabet"); len(l) != 2 {
			t.Errorf("the Nymphabet games in play: %+v", l)
		}
		if l := list("&game=quizl"); len(l) != 0 {
			t.Errorf("the Quizl games in play: %+v", l)
		}
		if st, body := anyone.do("GET", "/api/v1/tables?status=playing&game=chess", nil, nil); st != 400 || !strings.Contains(body, "chess") {
			t.Errorf("the games in play of a game the server lacks: %d %s", st, body)
		}

		var tv table.Featured
		if st, body := anyone.do("GET", "/api/v1/tv", nil, &tv); st != 200 || tv.Table.ID != rated.Table || tv.Rating == nil || *tv.Rating != mean {
			t.Fatalf("the featured game: %d %s; want %s at %v", st, body, rated.Table, mean)
		}

		var lex httpapi.Lexicons
		if st, body := anyone.do("GET", "/api/v1/lexicons", nil, &lex); st != 200 || lex.Default != "en" || len(lex.Lexicons) != 3 ||
			lex.Lexicons[1].Name != "en" || lex.Lexicons[1].Words < 100000 {
			t.Errorf("the lexicons: %d %s", st, body)
		}
		// The games say which take a word list.
		var gs []httpapi.GameInfo
		anyone.do("GET", "/api/v1/games", nil, &gs)
		words := map[string]bool{}
		for _, g := range gs {
			words[g.Name] = g.Words
		}
		if want := map[string]bool{"quizl": true, "salvo": false, "wordfight": true, "nymphabet": true}; !maps.Equal(words, want) {
			t.Errorf("the games that take a word list: %v, want %v", words, want)
		}
	})
}

// TestTableShowsLexicon: a table made with a word list names it in its
// information, to its players and spectators alike, and still does after
// a restart; a list the server lacks is refused by name, and so is a
// rated table on another list than the default.
func TestTableShowsLexicon(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		t.Parallel()
		f := newGamesFixtureOn(t, k)
		srv := startServer(t, f, generous)
		ann := signUp(t, srv.URL, "Ann")
		for _, c := range []struct {
			body map[string]any
			want string
		}{
			{map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "lexicon": "en-klingon"}, "there is no lexicon"},
			{map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "lexicon": "en-large", "rated": true}, "default lexicon"},
		} {
			if st, body := ann.do("POST", "/api/v1/tables", c.body, nil); st != 400 || !strings.Contains(body, c.want) {
				t.Errorf("%v: %d %s, want 400 saying %q", c.body, st, body, c.want)
			}
		}
		// A list's name in another case is the list, and the table
		// names it as the list spells it.
		var s table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "lexicon": "EN-Common"}, &s); st != 201 {
			t.Fatalf("create: %d %s", st, body)
		}
		shows := func(who *client) {
			t.Helper()
			var u struct{ Table table.Info }
			if st, body := who.do("GET", "/api/v1/tables/"+s.Table, nil, &u); st != 200 || u.Table.Lexicon != "en-common" {
				t.Errorf("the table shows lexicon %q: %d %s", u.Table.Lexicon, st, body)
			}
		}
		shows(ann)
		shows(&client{t: t, base: srv.URL})
		srv.Close()
		f.restart()
		srv = startServer(t, f, generous)
		ann.base = srv.URL
		shows(ann)
	})
}

// TestChallengeLexicon: a challenge may name a word list, which it shows
// to both players, keeps across a restart and gives the table it opens;
// a list the server lacks, or another than the default for a rated
// challenge, is refused by name and nothing is stored; the same terms on
// another list are another challenge.
func TestChallengeLexicon(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		t.Parallel()
		sf := newSocialOn(t, k)
		ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
		for _, c := range []struct{ body, want string }{
			{`{"to": "bob", "game": "nymphabet", "lexicon": "en-klingon"}`, "there is no lexicon"},
			{`{"to": "bob", "game": "nymphabet", "lexicon": "en-large", "rated": true}`, "default lexicon"},
		} {
			if st, body := ann.do("POST", "/api/v1/challenges", c.body, nil); st != 400 || !strings.Contains(body, c.want) {
				t.Errorf("%s: %d %s, want 400 saying %q", c.body, st, body, c.want)
			}
		}
		var ch, plain social.Challenge
		if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet", "lexicon": "en-common"}`, &ch); st != 201 || ch.Lexicon != "en-common" {
			t.Fatalf("challenge on en-common: %d %s", st, body)
		}
		if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet"}`, &plain); st != 201 || plain.Lexicon != "" {
			t.Fatalf("the same challenge on the default list: %d %s", st, body)
		}
		// The lists named otherwise are the same challenges again.
		for _, lex := range []string{"en", "EN", "EN-Common"} {
			body := `{"to": "bob", "game": "nymphabet", "lexicon": "` + lex + `"}`
			if st, got := ann.do("POST", "/api/v1/challenges", body, nil); st != 409 || !strings.Contains(got, "already") {
				t.Errorf("the same challenge on %s: %d %s, want 409", lex, st, got)
			}
		}
		// The default list named in capitals is the default list, which
		// a rated challenge may take.
		var rated social.Challenge
		if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet", "lexicon": "EN", "rated": true}`, &rated); st != 201 {
			t.Errorf("a rated challenge on EN: %d %s", st, body)
		} else if st, body := ann.do("DELETE", "/api/v1/challenges/"+rated.ID, nil, nil); st != 200 && st != 204 {
			t.Fatalf("withdrawing it: %d %s", st, body)
		}
		sf.restart()
		bob.base = sf.srv.URL
		var open struct{ In []social.Challenge }
		if st, body := bob.do("GET", "/api/v1/challenges", nil, &open); st != 200 || len(open.In) != 2 {
			t.Fatalf("Bob's challenges after a restart: %d %s", st, body)
		}
		for _, c := range open.In {
			if want := map[string]string{ch.ID: "en-common", plain.ID: ""}[c.ID]; c.Lexicon != want {
				t.Errorf("challenge %s after a restart names list %q, want %q", c.ID, c.Lexicon, want)
			}
		}
		var seated table.Seated
		if st, body := bob.do("POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, &seated); st != 201 {
			t.Fatalf("accept: %d %s", st, body)
		}
		var u struct{ Table table.Info }
		if st, body := bob.do("GET", "/api/v1/tables/"+seated.Table, nil, &u); st != 200 || u.Table.Lexicon != "en-common" {
			t.Errorf("the challenge's table names list %q: %d %s", u.Table.Lexicon, st, body)
		}
	})
}

// TestHouseLexicon: a house word list the operator adds is listed beside
// the embedded lexicons with its count of words, a table may take it (its
// words judged against it) and still does after a restart, and the
// editors' helpers judge by it; a name that is neither is refused by name,
// and never read as a file.
func TestHouseLexicon(t *testing.T) {
	t.Parallel()
	club, err := lexicon.Parse("club", strings.NewReader("crane\nslate\npsalm\nquart\nacorn\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, dir: t.TempDir(), tune: func(c *Config) {
		c.Games, c.NewBot, c.Lexicon, c.HouseLexicons = games.Registry(), games.NewBot, nil, []*lexicon.Lexicon{club}
	}}
	f.open()
	t.Cleanup(f.close)
	srv := startServer(t, f, generous)
	anyone := &client{t: t, base: srv.URL}
	var lex httpapi.Lexicons
	if st, body := anyone.do("GET", "/api/v1/lexicons", nil, &lex); st != 200 || len(lex.Lexicons) != 4 ||
		lex.Lexicons[3] != (lexicon.About{Name: "club", Title: "club (house list)", Words: 5}) {
		t.Fatalf("the lexicons with a house list: %d %s", st, body)
	}
	var s table.Seated
	if st, body := anyone.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "lexicon": "club"}, &s); st != 201 {
		t.Fatalf("a table on the house list: %d %s", st, body)
	}
	ann := &client{t: t, base: srv.URL, token: s.Token}
	if st, body := anyone.do("POST", "/api/v1/tables/"+s.Table+"/join", map[string]any{}, nil); st != 200 {
		t.Fatalf("join: %d %s", st, body)
	}
	// "apple" is a word of en, not of the club's list.
	if st, body := ann.do("POST", "/api/v1/tables/"+s.Table+"/moves", map[string]any{"move": "apple"}, nil); st < 400 || !strings.Contains(body, "APPLE") {
		t.Errorf("a word the house list lacks: %d %s", st, body)
	}
	if st, body := ann.do("POST", "/api/v1/tables/"+s.Table+"/moves", map[string]any{"move": "acorn"}, nil); st != 200 {
		t.Errorf("a word of the house list: %d %s", st, body)
	}
	srv.Close()
	f.restart()
	srv = startServer(t, f, generous)
	anyone.base = srv.URL
	var u struct{ Table table.Info }
	if st, body := anyone.do("GET", "/api/v1/tables/"+s.Table, nil, &u); st != 200 || u.Table.Lexicon != "club" {
		t.Errorf("the table after a restart: %d %s", st, body)
	}
	check := func(name string) (int, string) {
		return anyone.do("POST", "/api/v1/tools/random-setup", map[string]any{"game": "quizl", "lexicon": name, "seed": 1}, nil)
	}
	if st, body := check("club"); st != 200 || !strings.Contains(body, `"password":"`) {
		t.Errorf("a random Quizl setup on the house list: %d %s", st, body)
	} else if pw := body[strings.Index(body, `"password":"`)+12:][:5]; !club.HasFold(pw) {
		t.Errorf("the random password %s is not on the house list", pw)
	}
	for _, name := range []string{"pub", filepath.Join(f.dir, "parlour.db")} {
		if st, body := anyone.do("POST", "/api/v1/tables", map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "lexicon": name}, nil); st != 400 || !strings.Contains(body, "club") {
			t.Errorf("a table on lexicon %q: %d %s", name, st, body)
		}
		if st, body := check(name); st < 400 || !strings.Contains(body, "there is no lexicon") {
			t.Errorf("the helpers on lexicon %q: %d %s", name, st, body)
		}
	}
}
