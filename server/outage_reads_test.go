package server

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parlour/games"
	"parlour/server/internal/servertest"
	"parlour/store/postgres/pgtest"
)

// TestStoreOutageReads stops PostgreSQL under a running service and asks
// for everything a player reads: profiles, game histories, leaderboards,
// keys, invites, daily puzzles, the lobby, tables and their records and
// chat. What needs the store is answered 503, saying in a player's words
// that it could not be read and to try again (never 500, never a signed
// out 401); what does not (a live table's view) is answered as ever.
// Once PostgreSQL is back, the same service answers everything again by
// itself.
func TestStoreOutageReads(t *testing.T) {
	// Not parallel: it stops the test run's PostgreSQL, which the other tests share.
	if servertest.PG() == nil {
		pgtest.Missing(t) // skips, or fails under CI
	}
	k, _ := servertest.StoreKindNamed("postgres")
	ctx := context.Background()
	f := &fixture{t: t, dir: t.TempDir(), kind: &k, where: k.Fresh(t)}
	st, err := k.Open(ctx, f.where, false)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(ctx, Config{Store: st, Games: games.Registry(), NewBot: games.NewBot, BaseURL: "http://test"})
	if err != nil {
		t.Fatal(err)
	}
	f.st, f.s = st, s
	t.Cleanup(f.close)
	srv := startServer(t, f, generous)

	ann, ben := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Ben")
	finished := playNymphabet(t, ann, ben, map[string]any{"rated": true}, 1)
	_, text := newKey(t, "ann@laptop")
	if st, body := ann.do("POST", "/api/v1/keys", map[string]string{"key": text}, nil); st != 201 {
		t.Fatalf("add a key: %d %s", st, body)
	}
	var live Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, &live); st != 201 {
		t.Fatalf("a live table: %d %s", st, body)
	}
	if st, body := ann.do("POST", "/api/v1/tables/"+live.Table+"/chat", map[string]any{"channel": "players", "text": "hello"}, nil); st != 200 && st != 201 {
		t.Fatalf("chat: %d %s", st, body)
	}
	var d Daily
	if st, body := ann.do("GET", "/api/v1/daily/quizl", nil, &d); st != 200 {
		t.Fatalf("the daily puzzle: %d %s", st, body)
	}
	// The finished table leaves memory, so that reading it needs the store.
	f.s.drop(finished)

	// A session cookie whose token the service has not seen since it
	// started: checking it needs the store.
	var cookie Session
	if st, body := (&client{t: t, base: srv.URL}).do("POST", "/api/v1/sessions", map[string]string{"name": "Ben", "password": testPassword}, &cookie); st != 200 && st != 201 {
		t.Fatalf("sign in: %d %s", st, body)
	}
	withCookie := func(path string) (int, string) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: cookie.Token})
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}

	reads := []struct {
		what, path string
		c          *client
		live       bool // answered from memory: 200 even while the store is away
	}{
		{"a profile", "/api/v1/players/Ann", ann, false},
		{"a player's games", "/api/v1/players/Ann/games", ann, false},
		{"a player's daily puzzles", "/api/v1/players/Ann/daily", ann, false},
		{"a leaderboard", "/api/v1/leaderboards/nymphabet-standard", ann, false},
		{"one's keys", "/api/v1/keys", ann, false},
		{"an invite code", "/api/v1/invites/" + url.PathEscape(live.Code), ben, false},
		{"the daily puzzle", "/api/v1/daily/quizl", ben, false},
		{"the daily leaderboard", "/api/v1/daily/quizl/" + d.Day + "/leaderboard", ben, false},
		{"the finished tables", "/api/v1/tables?status=finished", ben, false},
		{"one's account", "/api/v1/account", ann, false},
		{"one's settings", "/api/v1/account/settings", ann, false},
		{"the challenges", "/api/v1/challenges", ann, false},
		{"a player's stream", "/api/v1/stream", ann, false},
		{"who is online", "/api/v1/online", ann, false},
		{"a finished table", "/api/v1/tables/" + finished, ben, false},
		{"a finished table's record", "/api/v1/tables/" + finished + "/record", ben, false},
		{"a finished table's chat", "/api/v1/tables/" + finished + "/chat", ben, false},
		{"a finished table's invite link", "/t/" + finished, ben, false},
		{"the leaderboards", "/api/v1/leaderboards", ann, true},
		{"the open tables", "/api/v1/tables", ben, true},
		{"one's tables", "/api/v1/identity/tables", ann, true},
		{"a live table", "/api/v1/tables/" + live.Table, ann, true},
		{"a live table's record", "/api/v1/tables/" + live.Table + "/record", ann, true},
		{"a live table's chat", "/api/v1/tables/" + live.Table + "/chat", ann, true},
	}
	get := func(path string, c *client) (int, string) {
		if path == "/api/v1/stream" {
			// A stream that opens follows for ever: its first lines do.
			return streamOpening(t, srv.URL+path, c.token)
		}
		return c.do("GET", path, nil, nil)
	}
	for _, r := range reads {
		if st, body := get(r.path, r.c); st != 200 {
			t.Fatalf("%s before the outage: %d %s", r.what, st, body)
		}
	}
	if st, body := withCookie("/api/v1/account"); st != 200 {
		t.Fatalf("the account by its cookie: %d %s", st, body)
	}
	// The finished table leaves memory, so that reading it needs the
	// store; the cookie's token is forgotten, as by a restart.
	f.s.drop(finished)
	sum := hashToken(cookie.Token)
	f.s.creds.drop(sum[:])

	servertest.PG().Stop()
	t.Cleanup(func() { servertest.PG().Restart(context.Background()) }) // should the test stop half way
	start := time.Now()
	for _, r := range reads {
		st, body := get(r.path, r.c)
		switch {
		case r.live && st != 200:
			t.Errorf("%s while PostgreSQL is away: %d %s, want 200 (from memory)", r.what, st, body)
		case !r.live && st != 503:
			t.Errorf("%s while PostgreSQL is away: %d %s, want 503", r.what, st, body)
		case !r.live && (!strings.Contains(body, "could not be read just now") || !strings.Contains(body, "try again")):
			t.Errorf("%s while PostgreSQL is away: %s, want it to say it could not be read and to try again", r.what, body)
		}
	}
	if st, body := withCookie("/api/v1/account"); st != 503 || !strings.Contains(body, "try again") {
		t.Errorf("a session cookie while PostgreSQL is away: %d %s, want 503 (the session has not ended)", st, body)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the answers while PostgreSQL was away took %v", d)
	}

	if err := servertest.PG().Restart(ctx); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	for _, r := range reads {
		for {
			st, body := get(r.path, r.c)
			if st == 200 {
				break
			}
			if time.Since(back) > 30*time.Second {
				t.Fatalf("%s after PostgreSQL is back: %d %s", r.what, st, body)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if st, body := withCookie("/api/v1/account"); st != 200 || !strings.Contains(body, `"Ben"`) {
		t.Errorf("the account by its cookie after the outage: %d %s", st, body)
	}
	var p Profile
	if st, body := ann.do("GET", "/api/v1/players/Ann", nil, &p); st != 200 || p.Games != 1 || p.Ratings["nymphabet-standard"].Games != 1 {
		t.Errorf("Ann's profile after the outage: %d %s", st, body)
	}
	t.Logf("every read answered again %v after PostgreSQL's restart", time.Since(back).Round(time.Millisecond))
}

// streamOpening opens the player stream at url with token and returns its
// status and, when it opens, its first line.
func streamOpening(t *testing.T, url, token string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	return 200, ""
}
