package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/game"
	"parlour/games"
	"parlour/glicko"
	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/server/httpapi"
	"parlour/server/internal/servertest"
	"parlour/server/limit"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
	"parlour/store/sqlite"
)

// newGamesFixture is a fixture with the real games, whose rated pools
// the accounts tests play in.
func newGamesFixture(t *testing.T) *fixture { return newGamesFixtureTuned(t, nil) }

// newGamesFixtureTuned is newGamesFixture with tune changing the
// service's Config before it is built.
func newGamesFixtureTuned(t *testing.T, tune func(*Config)) *fixture {
	t.Helper()
	f := &fixture{t: t, dir: t.TempDir()}
	db, err := sqlite.Open(context.Background(), filepath.Join(f.dir, "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, BaseURL: "http://test"}
	if tune != nil {
		tune(&cfg)
	}
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.db, f.s = db, s
	t.Cleanup(f.close)
	return f
}

// generous lets the tests sign in as often as they like; the rate limit
// test sets its own.
var generous = limit.Limits{PerIdentity: 1e6, PerIdentityBurst: 1e6, NewGuests: 1e6, NewGuestsBurst: 1e6, SignIns: 1e6, SignInsBurst: 1e6, SignInsPerName: 1e6, SignInsPerNameBurst: 1e6}

// testPassword is every test account's password: a fine one, since it
// holds none of the tests' names.
const testPassword = "correct horse staple"

// signUp makes an account and returns a client acting for it.
func signUp(t *testing.T, base, name string) *client {
	t.Helper()
	c := &client{t: t, base: base}
	var s players.Session
	if st, body := c.do("POST", "/api/v1/accounts", map[string]string{"name": name, "password": testPassword}, &s); st != 201 {
		t.Fatalf("sign up %s: %d %s", name, st, body)
	}
	c.token = s.Token
	return c
}

// newGuest makes a guest identity called name and returns a client
// acting for it.
func newGuest(t *testing.T, base, name string) *client {
	t.Helper()
	c := &client{t: t, base: base}
	var id table.Identity
	if st, got := c.do("POST", "/api/v1/identity", map[string]string{"name": name}, &id); st != 201 && st != 200 {
		t.Fatalf("a guest identity: %d %s", st, got)
	}
	c.token = id.Token
	return c
}

// playNymphabet has a create and b join a Nymphabet table with body's
// rules, each write a word (a resignation before both have moved would
// abort the game), and loser resign (0: a, 1: b). It returns the table.
func playNymphabet(t *testing.T, a, b *client, create map[string]any, loser int) string {
	t.Helper()
	create["game"], create["seats"] = "nymphabet", []string{"me", "open"}
	var sa, sb table.Seated
	if st, body := a.do("POST", "/api/v1/tables", create, &sa); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	if st, body := b.do("POST", "/api/v1/tables/"+sa.Table+"/join", map[string]any{}, &sb); st != 200 {
		t.Fatalf("join: %d %s", st, body)
	}
	tok := []string{sa.Token, sb.Token}[loser]
	// Seat 0 moves first; a resign is taken in turn or out of it.
	cl := &client{t: t, base: a.base, token: tok}
	for i, w := range []string{"apple", "bed"} {
		if st, body := (&client{t: t, base: a.base, token: []string{sa.Token, sb.Token}[i]}).do("POST", "/api/v1/tables/"+sa.Table+"/moves", map[string]any{"move": w}, nil); st != 200 {
			t.Fatalf("move %s: %d %s", w, st, body)
		}
	}
	if st, body := cl.do("POST", "/api/v1/tables/"+sa.Table+"/moves", map[string]any{"move": "resign"}, nil); st != 200 {
		t.Fatalf("resign: %d %s", st, body)
	}
	return sa.Table
}

func TestAccountsSignUpInOut(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	res, err := http.Post(srv.URL+"/api/v1/accounts", "application/json", strings.NewReader(`{"name": "Ann_1", "password": "a long secret phrase"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Fatalf("sign up: %d", res.StatusCode)
	}
	var cookie, marker *http.Cookie
	for _, c := range res.Cookies() {
		switch c.Name {
		case auth.SessionCookie:
			cookie = c
		case auth.SignedInCookie:
			marker = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Secure || cookie.Path != "/" || cookie.Value == "" {
		t.Fatalf("session cookie %+v: want HttpOnly, SameSite=Lax, not Secure over plain HTTP, Path=/", cookie)
	}
	// Beside it, one the page's scripts may read, which holds no secret.
	if marker == nil || marker.HttpOnly || marker.Value != "1" || marker.Path != "/" || marker.MaxAge != cookie.MaxAge {
		t.Fatalf("signed-in cookie %+v: want readable, 1, Path=/, as long-lived as the session's", marker)
	}
	// The cookie works wherever a bearer token does.
	req, _ := http.NewRequest("GET", srv.URL+"/api/v1/account", nil)
	req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: cookie.Value})
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var who players.Account
	json.NewDecoder(res.Body).Decode(&who)
	res.Body.Close()
	if res.StatusCode != 200 || who.Name != "Ann_1" {
		t.Fatalf("who am I by cookie: %d %+v", res.StatusCode, who)
	}
	req, _ = http.NewRequest("POST", srv.URL+"/api/v1/tables", strings.NewReader(`{"game": "nymphabet", "seats": ["me", "open"]}`))
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: cookie.Value})
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var seated table.Seated
	json.NewDecoder(res.Body).Decode(&seated)
	res.Body.Close()
	if v, err := f.s.View(context.Background(), nil, seated.Table); err != nil || v.Table.Seats[0].Name != "Ann_1" {
		t.Fatalf("a table made with the cookie seats %+v, %v; want Ann_1", v.Table.Seats, err)
	}

	anon := &client{t: t, base: srv.URL}
	var s players.Session
	if st, body := anon.do("POST", "/api/v1/sessions", `{"name": "ANN_1", "password": "a long secret phrase"}`, &s); st != 200 || s.Name != "Ann_1" || s.Token == "" {
		t.Fatalf("sign in, name in another case: %d %s", st, body)
	}
	_, wrong := anon.do("POST", "/api/v1/sessions", `{"name": "Ann_1", "password": "not the password"}`, nil)
	st, missing := anon.do("POST", "/api/v1/sessions", `{"name": "Nobody", "password": "not the password"}`, nil)
	if st != 401 || wrong != missing || !strings.Contains(wrong, "wrong name or password") {
		t.Fatalf("wrong password %q and missing account %q (%d): want one 401 answer", wrong, missing, st)
	}
	me := &client{t: t, base: srv.URL, token: s.Token}
	if st, body := me.do("DELETE", "/api/v1/sessions", nil, nil); st != 204 {
		t.Fatalf("sign out: %d %s", st, body)
	}
	// The token was issued: the player is told it ended, not that the
	// server never gave it.
	if st, body := me.do("GET", "/api/v1/account", nil, nil); st != 401 || !strings.Contains(body, "ended") || strings.Contains(body, "not one this server issued") {
		t.Fatalf("a signed-out token: %d %s, want 401 saying it may have ended", st, body)
	}
	// The other session (the cookie's) is still signed in.
	req, _ = http.NewRequest("GET", srv.URL+"/api/v1/account", nil)
	req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: cookie.Value})
	if res, err = http.DefaultClient.Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("signing out one session ended another: %v %v", res.StatusCode, err)
	}
	res.Body.Close()
	// Signing out with the cookie clears it.
	req, _ = http.NewRequest("DELETE", srv.URL+"/api/v1/sessions", nil)
	req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: cookie.Value})
	res, _ = http.DefaultClient.Do(req)
	res.Body.Close()
	if res.StatusCode != 204 || !cleared(res.Cookies()) {
		t.Fatalf("cookie sign out: %d %+v", res.StatusCode, res.Cookies())
	}
	req, _ = http.NewRequest("GET", srv.URL+"/api/v1/tables/"+seated.Table, nil)
	req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: cookie.Value})
	res, _ = http.DefaultClient.Do(req)
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Fatalf("a dead session cookie: %d, want 401 asking to sign in again", res.StatusCode)
	}
}

func TestSessionCookieSecureOverTLS(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	h := NewHandler(f.s, generous)
	srv := httptest.NewTLSServer(h)
	defer srv.Close()
	res, err := srv.Client().Post(srv.URL+"/api/v1/accounts", "application/json", strings.NewReader(`{"name": "Tess", "password": "a long secret phrase"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if c := res.Cookies(); res.StatusCode != 201 || len(c) != 2 || c[0].Name != auth.SessionCookie || !c[0].Secure || !c[0].HttpOnly || c[0].SameSite != http.SameSiteLaxMode || !c[1].Secure {
		t.Fatalf("over TLS: %d %+v, want a Secure, HttpOnly, SameSite=Lax session cookie and a Secure one beside it", res.StatusCode, c)
	}
}

func TestAccountsBadInput(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := signUp(t, srv.URL, "Ann")
	guest := &client{t: t, base: srv.URL}
	var id table.Identity
	guest.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	guest.token = id.Token
	for _, tc := range []struct {
		name, method, path string
		c                  *client
		body               string
		status             int
		says               string
	}{
		{"taken name", "POST", "/api/v1/accounts", nil, `{"name": "Ann", "password": "another long one"}`, 409, "taken"},
		{"taken name, other case", "POST", "/api/v1/accounts", nil, `{"name": "aNN", "password": "another long one"}`, 409, "taken"},
		{"look-alike name", "POST", "/api/v1/accounts", nil, `{"name": "4nn", "password": "another long one"}`, 409, `looks like \"Ann\"`},
		{"look-alike name, signs", "POST", "/api/v1/accounts", nil, `{"name": "A_nn", "password": "another long one"}`, 409, `looks like \"Ann\"`},
		{"reserved look-alike, guest", "POST", "/api/v1/accounts", nil, `{"name": "Gue5t42", "password": "another long one"}`, 400, "guests"},
		{"reserved look-alike, computer", "POST", "/api/v1/accounts", nil, `{"name": "C0mputer2", "password": "another long one"}`, 400, "computer player"},
		{"reserved name", "POST", "/api/v1/accounts", nil, `{"name": "Computer", "password": "another long one"}`, 400, "reserved"},
		{"reserved level", "POST", "/api/v1/accounts", nil, `{"name": "strong", "password": "another long one"}`, 400, "computer player"},
		{"reserved admin", "POST", "/api/v1/accounts", nil, `{"name": "ADMIN", "password": "another long one"}`, 400, "reserved"},
		{"reserved deleted", "POST", "/api/v1/accounts", nil, `{"name": "deleted", "password": "another long one"}`, 400, "reserved"},
		{"short name", "POST", "/api/v1/accounts", nil, `{"name": "Al", "password": "another long one"}`, 400, "at least 3"},
		{"long name", "POST", "/api/v1/accounts", nil, `{"name": "` + strings.Repeat("a", 21) + `", "password": "another long one"}`, 400, "at most 20"},
		{"name with a space", "POST", "/api/v1/accounts", nil, `{"name": "Al Bo", "password": "another long one"}`, 400, "spaces"},
		{"name with a symbol", "POST", "/api/v1/accounts", nil, `{"name": "Al!x", "password": "another long one"}`, 400, "only letters"},
		{"no name", "POST", "/api/v1/accounts", nil, `{"password": "another long one"}`, 400, "choose a name"},
		{"short password", "POST", "/api/v1/accounts", nil, `{"name": "Bea", "password": "short"}`, 400, "at least 8"},
		{"common password", "POST", "/api/v1/accounts", nil, `{"name": "Bea", "password": "password1"}`, 400, "commonest"},
		{"password is the name", "POST", "/api/v1/accounts", nil, `{"name": "Beatrice", "password": "BEATRICE"}`, 400, "your name"},
		{"password holds the name", "POST", "/api/v1/accounts", nil, `{"name": "Beatrice", "password": "beatrice1984"}`, 400, "may not contain your name"},
		{"new password holds the name", "PUT", "/api/v1/account/password", ann, `{"password": "` + testPassword + `", "new_password": "my own ANN phrase"}`, 400, "may not contain your name"},
		{"unknown field", "POST", "/api/v1/accounts", nil, `{"name": "Bea", "password": "another long one", "admin": true}`, 400, "unknown field"},
		{"account twice", "POST", "/api/v1/accounts", ann, `{"name": "Ann2", "password": "another long one"}`, 409, "already have an account"},
		{"wrong password", "POST", "/api/v1/sessions", nil, `{"name": "Ann", "password": "another long one"}`, 401, "wrong name or password"},
		{"no such account", "POST", "/api/v1/sessions", nil, `{"name": "Zed", "password": "another long one"}`, 401, "wrong name or password"},
		{"sign out, nobody", "DELETE", "/api/v1/sessions", nil, ``, 401, "sign in"},
		{"who am I, guest", "GET", "/api/v1/account", guest, ``, 403, "guest"},
		{"password, nobody", "PUT", "/api/v1/account/password", nil, `{"password": "` + testPassword + `", "new_password": "a fine new phrase"}`, 401, "sign in"},
		{"password, guest", "PUT", "/api/v1/account/password", guest, `{"password": "x", "new_password": "a fine new phrase"}`, 403, "guest"},
		{"password, wrong current", "PUT", "/api/v1/account/password", ann, `{"password": "not it at all", "new_password": "a fine new phrase"}`, 403, "not your current"},
		{"password, weak new", "PUT", "/api/v1/account/password", ann, `{"password": "` + testPassword + `", "new_password": "qwerty123"}`, 400, "commonest"},
		{"password, short new", "PUT", "/api/v1/account/password", ann, `{"password": "` + testPassword + `", "new_password": "abc"}`, 400, "at least 8"},
		{"delete, wrong password", "DELETE", "/api/v1/account", ann, `{"password": "not it at all"}`, 403, "not your current"},
		{"delete, no password", "DELETE", "/api/v1/account", ann, `{}`, 400, "give your current password"},
		{"password, no current", "PUT", "/api/v1/account/password", ann, `{"new_password": "a fine new phrase"}`, 400, "give your current password"},
		{"delete, nobody", "DELETE", "/api/v1/account", nil, `{"password": "x"}`, 401, "sign in"},
		{"profile of nobody", "GET", "/api/v1/players/Zed", nil, ``, 404, "no player"},
		{"profile of a guest", "GET", "/api/v1/players/Gus", nil, ``, 404, "no player"},
		{"history of nobody", "GET", "/api/v1/players/Zed/games", nil, ``, 404, "no player"},
		{"history, bad game", "GET", "/api/v1/players/Ann/games?game=chess", nil, ``, 400, "chess"},
		{"history, bad cursor", "GET", "/api/v1/players/Ann/games?before=yesterday", nil, ``, 400, "before"},
		{"history, bad limit", "GET", "/api/v1/players/Ann/games?limit=1000", nil, ``, 400, "limit"},
		{"archive of nobody", "GET", "/api/v1/players/Zed/games/export", nil, ``, 404, "no player"},
		{"archive of a guest", "GET", "/api/v1/players/Gus/games/export", nil, ``, 404, "no player"},
		{"archive, bad game", "GET", "/api/v1/players/Ann/games/export?game=chess", nil, ``, 400, "chess"},
		{"my tables, nobody", "GET", "/api/v1/identity/tables", nil, ``, 401, "sign in"},
		{"my games, nobody", "GET", "/api/v1/identity/games", nil, ``, 401, "sign in"},
		{"my games, bad game", "GET", "/api/v1/identity/games?game=chess", guest, ``, 400, "chess"},
		{"my games, bad cursor", "GET", "/api/v1/identity/games?before=yesterday", guest, ``, 400, "before"},
		{"my games, bad limit", "GET", "/api/v1/identity/games?limit=0", guest, ``, 400, "limit"},
		{"no such pool", "GET", "/api/v1/leaderboards/chess", nil, ``, 404, "no rating pool"},
	} {
		c := tc.c
		if c == nil {
			c = &client{t: t, base: srv.URL}
		}
		before := countAccounts(t, f)
		st, body := c.do(tc.method, tc.path, nullIfEmpty(tc.body), nil)
		if st != tc.status || !strings.Contains(body, tc.says) {
			t.Errorf("%s: got %d %s, want %d saying %q", tc.name, st, strings.TrimSpace(body), tc.status, tc.says)
		}
		if after := countAccounts(t, f); !maps.Equal(after, before) {
			t.Errorf("%s: accounts went from %v to %v", tc.name, before, after)
		}
	}
	// Ann's password is unchanged after all that.
	if _, err := f.s.SignIn(context.Background(), "ann", testPassword); err != nil {
		t.Fatalf("Ann cannot sign in after the refusals: %v", err)
	}
}

// countAccounts returns the names with accounts among those the tests
// use, and each one's password hash, so that a refusal that changed one
// shows.
func countAccounts(t *testing.T, f *fixture) map[string]string {
	out := map[string]string{}
	for _, n := range []string{"ann", "ann2", "bea", "beatrice", "gus", "zed", "al", "computer", "4nn", "a_nn", "gue5t42", "c0mputer2"} {
		if a, err := f.db.AccountByKey(context.Background(), n); err == nil {
			out[n] = a.Hash
		}
	}
	return out
}

func TestGuestBecomesAccount(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	gus := &client{t: t, base: srv.URL}
	var id table.Identity
	gus.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	gus.token = id.Token
	other := &client{t: t, base: srv.URL}
	other.do("POST", "/api/v1/identity", `{"name": "Olga"}`, &id)
	other.token = id.Token
	tableID := playNymphabet(t, gus, other, map[string]any{}, 1)
	// A guest reads its own finished games (it has no public history),
	// and only its own.
	for _, c := range []struct {
		who    *client
		result string
	}{{gus, "win"}, {other, "loss"}} {
		var h players.History
		if st, body := c.who.do("GET", "/api/v1/identity/games", nil, &h); st != 200 || h.Name != "" || len(h.Games) != 1 ||
			h.Games[0].Table != tableID || h.Games[0].Result != c.result || h.Next != "" {
			t.Fatalf("a guest's own games: %d %s", st, body)
		}
	}
	var s players.Session
	if st, body := gus.do("POST", "/api/v1/accounts", `{"name": "Gus_the_Great", "password": "a long secret phrase"}`, &s); st != 201 {
		t.Fatalf("upgrade: %d %s", st, body)
	}
	var p players.Profile
	if st, body := gus.do("GET", "/api/v1/players/gus_the_great", nil, &p); st != 200 || p.Games != 1 || p.Name != "Gus_the_Great" {
		t.Fatalf("profile after the upgrade: %d %s", st, body)
	}
	var h players.History
	gus.do("GET", "/api/v1/players/Gus_the_Great/games", nil, &h)
	if len(h.Games) != 1 || h.Games[0].Table != tableID || h.Games[0].Result != "win" || h.Games[0].Rated ||
		len(h.Games[0].Opponents) != 1 || h.Games[0].Opponents[0] != (players.Opponent{Name: "Olga", Kind: "guest"}) ||
		h.Games[0].Record != "/api/v1/tables/"+tableID+"/record" {
		t.Fatalf("history after the upgrade: %+v", h)
	}
	// Olga's games name her opponent by the account the guest became,
	// whose profile the name leads to, not by the guest's name, which
	// leads nowhere (or to a stranger who takes it).
	var oh players.History
	if st, body := other.do("GET", "/api/v1/identity/games", nil, &oh); st != 200 || len(oh.Games) != 1 ||
		len(oh.Games[0].Opponents) != 1 || oh.Games[0].Opponents[0] != (players.Opponent{Name: "Gus_the_Great", Kind: "account"}) {
		t.Fatalf("the opponent's games after the upgrade: %d %s", st, body)
	}
	// The sign-up's session is new, and the guest's token ended with it:
	// a guest token planted in a victim's browser before the sign-up
	// must not become a session of the victim's account.
	var who players.Account
	if st, _ := (&client{t: t, base: srv.URL, token: s.Token}).do("GET", "/api/v1/account", nil, &who); st != 200 || who.Name != "Gus_the_Great" || s.Token == gus.token {
		t.Fatalf("the new session: %d %+v", st, who)
	}
	var own players.History
	if st, body := (&client{t: t, base: srv.URL, token: s.Token}).do("GET", "/api/v1/identity/games", nil, &own); st != 200 || own.Name != "Gus_the_Great" || len(own.Games) != 1 {
		t.Fatalf("the account's own games: %d %s", st, body)
	}
	for _, path := range []string{"/api/v1/account", "/api/v1/identity/tables", "/api/v1/identity/games", "/api/v1/tables/" + tableID} {
		if st, body := gus.do("GET", path, nil, nil); st != 401 {
			t.Fatalf("GET %s with the guest's token after the sign-up: %d %s, want 401", path, st, body)
		}
	}
}

// TestPrivateGamesInHistory: a private table's game is in a player's
// history and archive, and its point of the rating chart names its
// table, only for a player who sat at it. To anyone else the game is not
// there, its point keeps its rating and time without the table, and the
// history's pages through the other games come back full.
func TestPrivateGamesInHistory(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, dan, cat := signUp(t, base, "Ann"), signUp(t, base, "Dan"), signUp(t, base, "Cat")
		// Dan's games, a second apart, oldest first: g[1] and g[3] at
		// private tables (the newest among them), g[1] and g[2] rated.
		var g []string
		for _, create := range []map[string]any{{}, {"private": true, "rated": true}, {"rated": true}, {"private": true}} {
			sf.clock.Advance(time.Second)
			g = append(g, playNymphabet(t, ann, dan, create, len(g)%2))
		}
		var own players.Profile
		if st, body := dan.do("GET", "/api/v1/players/Dan", nil, &own); st != 200 || len(own.History["nymphabet-standard"]) != 2 {
			t.Fatalf("Dan's own profile: %d %s", st, body)
		}
		all, public := []string{g[3], g[2], g[1], g[0]}, []string{g[2], g[0]}
		for _, c := range []struct {
			name  string
			who   *client
			games []string // Dan's history as who sees it, newest first
		}{
			{"anyone", &client{t: t, base: base}, public},
			{"a token that leads nowhere", &client{t: t, base: base, token: "nonsense"}, public},
			{"an account that sat at neither", cat, public},
			{"the player", dan, all},
			{"the opponent", ann, all},
		} {
			t.Run(c.name, func(t *testing.T) {
				// One a page: each page full while games remain.
				var paged []string
				before := ""
				for range 10 {
					var page players.History
					if st, body := c.who.do("GET", "/api/v1/players/Dan/games?limit=1&before="+before, nil, &page); st != 200 {
						t.Fatalf("a page of Dan's games: %d %s", st, body)
					}
					if len(paged) < len(c.games) && len(page.Games) != 1 {
						t.Fatalf("the page after %v holds %d games, want 1: %+v", paged, len(page.Games), page)
					}
					for _, pg := range page.Games {
						paged = append(paged, pg.Table)
					}
					if before = page.Next; before == "" {
						break
					}
				}
				if !slices.Equal(paged, c.games) {
					t.Errorf("Dan's games a page at a time: %v; want %v", paged, c.games)
				}
				var h players.History
				if st, body := c.who.do("GET", "/api/v1/players/Dan/games?game=nymphabet", nil, &h); st != 200 || !slices.Equal(tablesIn(h), c.games) || h.Next != "" {
					t.Errorf("Dan's nymphabet games: %d %s; want %v", st, body, c.games)
				}
				// The archive holds those games' records, in that order.
				st, body := c.who.do("GET", "/api/v1/players/Dan/games/export", nil, nil)
				lines := strings.Split(strings.TrimSpace(body), "\n")
				if st != 200 || len(lines) != len(c.games) {
					t.Errorf("Dan's archive: %d, %d lines; want %d: %s", st, len(lines), len(c.games), body)
					lines = nil
				}
				for i, id := range c.games[:len(lines)] {
					var want, got any
					_, rec := ann.do("GET", "/api/v1/tables/"+id+"/record", nil, nil)
					json.Unmarshal([]byte(rec), &want)
					json.Unmarshal([]byte(lines[i]), &got)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("the archive's record %d is\n%s\nbut table %s's is\n%s", i+1, lines[i], id, rec)
					}
				}
				// The chart: every point, with its table when the game
				// is in the history.
				var p players.Profile
				st, body = c.who.do("GET", "/api/v1/players/Dan", nil, &p)
				pts := p.History["nymphabet-standard"]
				if st != 200 || len(pts) != 2 || p.Games != 4 {
					t.Fatalf("Dan's profile: %d %s", st, body)
				}
				for i, pt := range pts {
					want := own.History["nymphabet-standard"][i]
					if !slices.Contains(c.games, want.Table) {
						want.Table = ""
					}
					if !pt.At.Equal(want.At) || pt.Rating != want.Rating || pt.RD != want.RD || pt.Table != want.Table {
						t.Errorf("Dan's rating point %d: %+v; want %+v", i, pt, want)
					}
				}
				for _, id := range g {
					if !slices.Contains(c.games, id) && strings.Contains(body, id) {
						t.Errorf("the profile names table %s: %s", id, body)
					}
				}
			})
		}
	})
}

// tablesIn returns the tables of a page of history, in its order.
func tablesIn(h players.History) []string {
	out := []string{}
	for _, g := range h.Games {
		out = append(out, g.Table)
	}
	return out
}

// expectRatings plays out the games (winner first) from new ratings with
// glicko and returns each player's rating and count of games.
func expectRatings(t *testing.T, winners []int) ([2]glicko.Rating, [2]int) {
	r := [2]glicko.Rating{glicko.New(), glicko.New()}
	var n [2]int
	for _, w := range winners {
		score := 1.0
		if w == 1 {
			score = 0
		}
		a, b, err := glicko.System{}.Game(r[0], r[1], score)
		if err != nil {
			t.Fatal(err)
		}
		r = [2]glicko.Rating{a, b}
		n[0]++
		n[1]++
	}
	return r, n
}

func near(a, b float64) bool { return math.Abs(a-b) < 0.05 }

func TestRatedGames(t *testing.T) {
	t.Parallel()
	// Two players alone reach the leaderboard.
	f := newGamesFixtureTuned(t, func(c *Config) { c.RatedPerPair = -1 })
	srv := startServer(t, f, generous)
	ann, ben := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Ben")
	// An unrated game changes no rating.
	playNymphabet(t, ann, ben, map[string]any{}, 1)
	var p players.Profile
	ann.do("GET", "/api/v1/players/Ann", nil, &p)
	if len(p.Ratings) != 0 || p.Games != 1 {
		t.Fatalf("after an unrated game: %+v", p)
	}
	// One rated game: ratings from new, checked against glicko.
	tableID := playNymphabet(t, ann, ben, map[string]any{"rated": true}, 1)
	want, _ := expectRatings(t, []int{0})
	var pa, pb players.Profile
	ann.do("GET", "/api/v1/players/Ann", nil, &pa)
	ben.do("GET", "/api/v1/players/ben", nil, &pb)
	ra, rb := pa.Ratings["nymphabet-standard"], pb.Ratings["nymphabet-standard"]
	if !near(ra.Rating, want[0].Value) || !near(ra.RD, want[0].RD) || ra.Games != 1 || !ra.Provisional ||
		!near(rb.Rating, want[1].Value) || !near(rb.RD, want[1].RD) || rb.Games != 1 {
		t.Fatalf("after one rated game Ann %+v Ben %+v, want %v and %v", ra, rb, want[0], want[1])
	}
	if len(pa.History["nymphabet-standard"]) != 1 || pa.History["nymphabet-standard"][0].Table != tableID || pa.Games != 2 {
		t.Fatalf("Ann's rating history: %+v", pa)
	}
	var h players.History
	ben.do("GET", "/api/v1/players/Ben/games?game=nymphabet", nil, &h)
	if len(h.Games) != 2 || !h.Games[0].Rated || h.Games[0].Result != "loss" || h.Games[0].Pool != "nymphabet-standard" ||
		h.Games[0].Before != 1500 || !near(h.Games[0].After, want[1].Value) || h.Games[1].Rated {
		t.Fatalf("Ben's history: %+v", h)
	}
	var v table.Update
	ann.do("GET", "/api/v1/tables/"+tableID, nil, &v)
	if !v.Table.Rated || v.Table.Pool != "nymphabet-standard" {
		t.Fatalf("the table does not say it is rated: %+v", v.Table)
	}
	// Other modes are other pools; a clock leaves a table rated.
	playNymphabet(t, ann, ben, map[string]any{"rated": true, "rules": map[string]any{"mode": "cyclic", "no_repeats": true, "clock": 60}}, 0)
	ann.do("GET", "/api/v1/players/Ann", nil, &pa)
	if pa.Ratings["nymphabet-cyclic"].Games != 1 || pa.Ratings["nymphabet-standard"].Games != 1 || pa.Ratings["nymphabet-cyclic"].Rating >= 1500 {
		t.Fatalf("a cyclic game: %+v", pa.Ratings)
	}
	// Enough games for the leaderboard: at least 5 and an RD under 110.
	winners := []int{0}
	var lb players.Leaderboard
	for len(lb.Players) == 0 {
		w := len(winners) % 3 % 2 // Ann wins two of three
		playNymphabet(t, ann, ben, map[string]any{"rated": true}, 1-w)
		winners = append(winners, w)
		if st, body := ann.do("GET", "/api/v1/leaderboards/nymphabet-standard", nil, &lb); st != 200 {
			t.Fatalf("leaderboard: %d %s", st, body)
		}
		if len(winners) > 40 {
			t.Fatal("nobody reached the leaderboard in 40 games")
		}
	}
	want, n := expectRatings(t, winners)
	for i, who := range []string{"Ann", "Ben"} {
		if !glicko.OnLeaderboard(want[i], n[i]) {
			continue
		}
		k := 0
		for k < len(lb.Players) && lb.Players[k].Name != who {
			k++
		}
		if k == len(lb.Players) || !near(lb.Players[k].Rating, want[i].Value) || lb.Players[k].Games != n[i] {
			t.Fatalf("%s is due on the leaderboard at %v after %d games: %+v", who, want[i], n[i], lb)
		}
	}
	if lb.Players[0].Rank != 1 || (len(lb.Players) == 2 && lb.Players[0].Rating < lb.Players[1].Rating) {
		t.Fatalf("leaderboard order: %+v", lb)
	}
	// The pool's name in any case is the same pool.
	var typed players.Leaderboard
	if st, body := ben.do("GET", "/api/v1/leaderboards/Nymphabet-Standard", nil, &typed); st != 200 || typed.Pool != "nymphabet-standard" || len(typed.Players) != len(lb.Players) {
		t.Errorf("the leaderboard asked as Nymphabet-Standard: %d %s", st, body)
	}
	// Paging: two games a page, newest first, every game once.
	var all []string
	before := ""
	for range 100 {
		var page players.History
		ann.do("GET", "/api/v1/players/Ann/games?limit=2&before="+before, nil, &page)
		for _, g := range page.Games {
			all = append(all, g.Table)
		}
		if page.Next == "" {
			break
		}
		before = page.Next
	}
	if want := len(winners) + 2; len(all) != want {
		t.Fatalf("paged history holds %d games, want %d", len(all), want)
	}
	// The archive holds the same games, in the same order, each as its
	// record reads; one game's archive holds that game's alone.
	lines := exportedLines(t, srv.URL, "Ann", "")
	if len(lines) != len(all) {
		t.Fatalf("the archive holds %d records, the history %d games", len(lines), len(all))
	}
	for i, id := range all {
		var want, got any
		_, rec := ann.do("GET", "/api/v1/tables/"+id+"/record", nil, nil)
		if err := json.Unmarshal([]byte(rec), &want); err != nil {
			t.Fatal(err)
		}
		json.Unmarshal([]byte(lines[i]), &got)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("the archive's record %d is\n%s\nbut table %s's is\n%s", i+1, lines[i], id, rec)
		}
	}
	if n := len(exportedLines(t, srv.URL, "ann", "Quizl")); n != 0 {
		t.Errorf("Ann's Quizl archive holds %d records; she played Nymphabet only", n)
	}
	var pools map[string][]string
	ann.do("GET", "/api/v1/leaderboards", nil, &pools)
	if strings.Join(pools["pools"], " ") != "nymphabet-cyclic nymphabet-scoring nymphabet-standard quizl salvo wordfight" {
		t.Fatalf("pools: %v", pools)
	}
}

func TestRatedBadInput(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := signUp(t, srv.URL, "Ann")
	guest := &client{t: t, base: srv.URL}
	var id table.Identity
	guest.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	guest.token = id.Token
	var rated table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"], "rated": true}`, &rated); st != 201 {
		t.Fatalf("rated table: %d %s", st, body)
	}
	for _, tc := range []struct {
		name, body string
		c          *client
		status     int
		says       string
	}{
		{"computer seat", `{"game": "nymphabet", "seats": ["me", "computer:easy"], "rated": true}`, ann, 400, "computer"},
		{"three players", `{"game": "wordfight", "seats": ["me", "open", "open"], "rated": true}`, ann, 400, "exactly two"},
		{"one player", `{"game": "quizl", "seats": ["me"], "rated": true}`, ann, 400, "exactly two"},
		{"salvo placement", `{"game": "salvo", "seats": ["me", "open"], "rated": true, "rules": {"placement": "free"}}`, ann, 400, "placement"},
		{"salvo diagonal, in words", `{"game": "salvo", "seats": ["me", "open"], "rated": true, "rules": {"diagonal_ships": true}}`, ann, 400, `\"Diagonal ships\" changes the game`},
		{"two rules, in words", `{"game": "salvo", "seats": ["me", "open"], "rated": true, "rules": {"diagonal_ships": true, "placement": "free"}}`, ann, 400, `\"Diagonal ships\" and \"Ship placement\" change the game`},
		{"quizl penalty", `{"game": "quizl", "seats": ["me", "open"], "rated": true, "rules": {"penalty": 3}}`, ann, 400, "penalty"},
		{"word fight board", `{"game": "wordfight", "seats": ["me", "open"], "rated": true, "rules": {"width": 10}}`, ann, 400, "width"},
		{"other lexicon", `{"game": "nymphabet", "seats": ["me", "open"], "rated": true, "lexicon": "en-large"}`, ann, 400, "default lexicon"},
		{"guest", `{"game": "nymphabet", "seats": ["me", "open"], "rated": true}`, guest, 403, "accounts"},
		{"nobody", `{"game": "nymphabet", "seats": ["me", "open"], "rated": true}`, &client{t: t, base: srv.URL}, 403, "accounts"},
	} {
		lobby, _ := f.s.Lobby(context.Background(), "", 500)
		st, body := tc.c.do("POST", "/api/v1/tables", tc.body, nil)
		if st != tc.status || !strings.Contains(body, tc.says) {
			t.Errorf("%s: got %d %s, want %d saying %q", tc.name, st, strings.TrimSpace(body), tc.status, tc.says)
		}
		if after, _ := f.s.Lobby(context.Background(), "", 500); len(after) != len(lobby) {
			t.Errorf("%s made a table", tc.name)
		}
	}
	// Allowed: a Quizl set target, Nymphabet's no_repeats.
	for _, body := range []string{
		`{"game": "quizl", "seats": ["me", "open"], "rated": true, "rules": {"set_target": 50}}`,
		`{"game": "nymphabet", "seats": ["open", "me"], "rated": true, "rules": {"no_repeats": true, "mode": "scoring"}}`,
	} {
		if st, res := ann.do("POST", "/api/v1/tables", body, nil); st != 201 {
			t.Errorf("%s: %d %s", body, st, res)
		}
	}
	// A guest may not join a rated table, nor a newcomer without a token.
	for _, c := range []*client{guest, {t: t, base: srv.URL}} {
		if st, body := c.do("POST", "/api/v1/tables/"+rated.Table+"/join", `{}`, nil); st != 403 || !strings.Contains(body, "rated") {
			t.Errorf("a guest joins a rated table: %d %s", st, body)
		}
	}
	if v, _ := f.s.View(context.Background(), nil, rated.Table); v.Table.Seats[1].Kind != "open" {
		t.Fatal("the refused join took the seat")
	}
}

// TestGamesTellRatedOptions: each game's rated_options in GET
// /api/v1/games are exactly the options a rated table may set away from
// their defaults, so that a form can keep the others at theirs: a rated
// table with one of them changed is made, with any other refused as
// changing the game.
func TestGamesTellRatedOptions(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := signUp(t, srv.URL, "Ann")
	var games []httpapi.GameInfo
	if st, body := ann.do("GET", "/api/v1/games", nil, &games); st != 200 {
		t.Fatalf("games: %d %s", st, body)
	}
	tried := 0
	for _, g := range games {
		if g.RatedOptions == nil {
			t.Errorf("%s: no rated_options, though every game here may be rated", g.Name)
			continue
		}
		if g.ModeOption != "" && !slices.Contains(g.RatedOptions, g.ModeOption) {
			t.Errorf("%s: rated_options %v leave out its mode option %s", g.Name, g.RatedOptions, g.ModeOption)
		}
		for _, o := range g.Options {
			// A value away from the default, as a form would set it.
			var v any
			switch o.Kind {
			case game.Bool:
				v = o.Default != true
			case game.Choice:
				for _, c := range o.Choices {
					if c != o.Default {
						v = c
						break
					}
				}
			case game.Int:
				d, _ := o.Default.(float64)
				v = int(d) + 1
				if int(d)+1 > o.Max {
					v = int(d) - 1
				}
			default:
				continue // a text (a board's shape) has no value every game takes
			}
			tried++
			rules, _ := json.Marshal(map[string]any{o.Name: v})
			body := fmt.Sprintf(`{"game": %q, "seats": ["me", "open"], "rated": true, "rules": %s}`, g.Name, rules)
			st, res := ann.do("POST", "/api/v1/tables", body, nil)
			switch allowed := slices.Contains(g.RatedOptions, o.Name); {
			case allowed && st != 201:
				t.Errorf("%s: %s, named in rated_options, is refused at a rated table: %d %s", g.Name, rules, st, res)
			case !allowed && (st != 400 || !strings.Contains(res, "changes the game")):
				t.Errorf("%s: %s, not named in rated_options, is not refused as changing the game: %d %s", g.Name, rules, st, res)
			}
		}
	}
	if tried < 10 {
		t.Errorf("only %d options tried", tried)
	}
}

// TestDeleteTwiceAtOnce: the same deletion sent several times at once (a
// double click) deletes the account once; the others are told it is gone,
// not that the deletion failed and changed nothing.
func TestDeleteTwiceAtOnce(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := signUp(t, srv.URL, "Ann")
	const n = 3
	status, bodies := make([]int, n), make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			status[i], bodies[i] = ann.do("DELETE", "/api/v1/account", map[string]string{"password": testPassword}, nil)
		})
	}
	wg.Wait()
	deleted := 0
	for i, st := range status {
		switch {
		case st == 204:
			deleted++
		case st >= 500 || !strings.Contains(bodies[i], "deleted") && !strings.Contains(bodies[i], "ended"):
			t.Errorf("deletion %d of %d at once: %d %s, want 204 or word that the account is gone", i, n, st, bodies[i])
		}
	}
	if deleted != 1 {
		t.Errorf("%d of %d deletions at once answered 204 (%v), want 1", deleted, n, status)
	}
}

func TestChangePasswordAndDelete(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann, ben := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Ben")
	tableID := playNymphabet(t, ann, ben, map[string]any{"rated": true}, 1)
	var other players.Session
	(&client{t: t, base: srv.URL}).do("POST", "/api/v1/sessions", `{"name": "ann", "password": "`+testPassword+`"}`, &other)
	if st, body := ann.do("PUT", "/api/v1/account/password", `{"password": "`+testPassword+`", "new_password": "battery staple moon"}`, nil); st != 204 {
		t.Fatalf("change password: %d %s", st, body)
	}
	if st, _ := ann.do("GET", "/api/v1/account", nil, nil); st != 200 {
		t.Fatal("changing the password ended the session that changed it")
	}
	if st, _ := (&client{t: t, base: srv.URL, token: other.Token}).do("GET", "/api/v1/account", nil, nil); st != 401 {
		t.Fatalf("changing the password left another session signed in: %d", st)
	}
	if _, err := f.s.SignIn(context.Background(), "Ann", testPassword); refuse.Status(err) != 401 {
		t.Fatalf("the old password still signs in: %v", err)
	}
	if _, err := f.s.SignIn(context.Background(), "Ann", "battery staple moon"); err != nil {
		t.Fatalf("the new password does not sign in: %v", err)
	}

	// A seat at a game under way keeps an account from being deleted.
	var live table.Seated
	ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &live)
	var mine struct{ Tables []table.SeatedTable }
	if st, body := ann.do("GET", "/api/v1/identity/tables", nil, &mine); st != 200 || len(mine.Tables) != 1 || mine.Tables[0].ID != live.Table || mine.Tables[0].Seat != 0 || mine.Tables[0].Status != store.Open {
		t.Fatalf("Ann's tables under way: %d %s", st, body)
	}
	if st, body := ann.do("DELETE", "/api/v1/account", `{"password": "battery staple moon"}`, nil); st != 409 || !strings.Contains(body, "1 table whose game has not begun ("+live.Table+"): leave it first") || strings.Contains(body, "resign") {
		t.Fatalf("delete while seated at a table not begun: %d %s", st, body)
	}
	(&client{t: t, base: srv.URL, token: live.Token}).do("POST", "/api/v1/tables/"+live.Table+"/join", `{}`, nil)
	var guestSeat table.Seated
	(&client{t: t, base: srv.URL}).do("POST", "/api/v1/tables/"+live.Table+"/join", `{}`, &guestSeat)
	// One game begun and one table waiting: the refusal says what to do
	// about each.
	var waiting table.Seated
	ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &waiting)
	if st, body := ann.do("DELETE", "/api/v1/account", `{"password": "battery staple moon"}`, nil); st != 409 ||
		!strings.Contains(body, "1 table still under way ("+live.Table+"): finish or resign it first") ||
		!strings.Contains(body, "1 table whose game has not begun ("+waiting.Table+"): leave it first") {
		t.Fatalf("delete while seated at a game and a table waiting: %d %s", st, body)
	}
	(&client{t: t, base: srv.URL, token: live.Token}).do("POST", "/api/v1/tables/"+live.Table+"/moves", `{"move": "resign"}`, nil)
	var left table.Left
	if st, body := ann.do("POST", "/api/v1/tables/"+waiting.Table+"/leave", nil, &left); st != 200 || !left.Cancelled || left.Seat != 0 || left.Table != waiting.Table {
		t.Fatalf("leave the table waiting: %d %s", st, body)
	}

	if st, body := ann.do("DELETE", "/api/v1/account", `{"password": "battery staple moon"}`, nil); st != 204 {
		t.Fatalf("delete: %d %s", st, body)
	}
	if st, _ := ann.do("GET", "/api/v1/account", nil, nil); st != 401 {
		t.Fatalf("the deleted account's token still works: %d", st)
	}
	if st, _ := ann.do("GET", "/api/v1/players/Ann", nil, nil); st != 404 {
		t.Fatalf("the deleted account's profile: %d", st)
	}
	var rec game.Record
	if st, body := ben.do("GET", "/api/v1/tables/"+tableID+"/record", nil, &rec); st != 200 || rec.Players[0] != players.DeletedName || rec.Players[1] != "Ben" {
		t.Fatalf("the record after the delete: %d %s", st, body)
	}
	if _, _, _, err := game.Replay(games.Registry(), &rec, lexicon.Default()); err != nil {
		t.Fatalf("the renamed record does not replay: %v", err)
	}
	var h players.History
	ben.do("GET", "/api/v1/players/Ben/games", nil, &h)
	if len(h.Games) != 1 || h.Games[0].Opponents[0] != (players.Opponent{Name: players.DeletedName, Kind: "deleted"}) {
		t.Fatalf("Ben's history after Ann left: %+v", h)
	}
	// No rematch seats a deleted account: it could never move.
	if st, body := ben.do("POST", "/api/v1/tables/"+tableID+"/rematch", `{}`, nil); st != 409 || !strings.Contains(body, "no rematch: a player of this game has deleted their account") {
		t.Fatalf("a rematch with a deleted account: %d %s, want 409", st, body)
	}
	var bens struct{ Tables []table.SeatedTable }
	if st, body := ben.do("GET", "/api/v1/identity/tables", nil, &bens); st != 200 || len(bens.Tables) != 0 {
		t.Fatalf("Ben's tables after the refused rematch: %d %s", st, body)
	}
	// The name is free again.
	signUp(t, srv.URL, "ann")
}

// TestRefusedNewPasswordNotCounted: a new password the rules refuse is
// refused before the current one is checked, so it costs none of the
// sign-in budget and the player can go on to choose one that passes.
func TestRefusedNewPasswordNotCounted(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, limit.Limits{SignIns: 0.001, SignInsBurst: 20, SignInsPerName: 0.001, SignInsPerNameBurst: 2})
	ann := signUp(t, srv.URL, "Ann")
	for _, pw := range []string{"short", "password1", "ann is me 1984", "tab\there ok"} {
		st, body := ann.do("PUT", "/api/v1/account/password", map[string]string{"password": testPassword, "new_password": pw}, nil)
		if st != 400 || !strings.Contains(body, "new password") {
			t.Fatalf("new password %q: %d %s, want 400 about the new password", pw, st, body)
		}
	}
	if st, body := ann.do("PUT", "/api/v1/account/password", map[string]string{"password": testPassword, "new_password": "a brand new phrase"}, nil); st != 204 {
		t.Fatalf("a good new password after four refused: %d %s", st, body)
	}
}

// TestSessionPasswordChecksShareTheNameBudget: a check of the password
// made with a session (a new password, address or key, a deletion)
// counts against the account's name, as a sign-in does, so that a stolen
// session gets no more guesses at the password than the sign-in form.
func TestSessionPasswordChecksShareTheNameBudget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ what, method, path, body string }{
		{"a new password", "PUT", "/api/v1/account/password", `{"password": "guess guess guess", "new_password": "a fine new phrase"}`},
		{"a deletion", "DELETE", "/api/v1/account", `{"password": "guess guess guess"}`},
	} {
		t.Run(tc.what, func(t *testing.T) {
			t.Parallel()
			f := newGamesFixture(t)
			srv := startServer(t, f, limit.Limits{SignIns: 0.001, SignInsBurst: 100, SignInsPerName: 0.001, SignInsPerNameBurst: 3})
			ann := signUp(t, srv.URL, "Ann")
			c := &client{t: t, base: srv.URL}
			for i := range 3 {
				if st, body := c.do("POST", "/api/v1/sessions", `{"name": "Ann", "password": "guess guess guess"}`, nil); st != 401 {
					t.Fatalf("wrong sign-in %d: %d %s", i+1, st, body)
				}
			}
			if st, body := ann.do(tc.method, tc.path, tc.body, nil); st != 429 || !strings.Contains(body, "this name") {
				t.Errorf("%s with a wrong password after the name's budget is spent: %d %s, want 429", tc.what, st, body)
			}
		})
	}
}

func TestSignInRateLimits(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	// The address's budget: Ann's sign-up, then six sign-ins.
	srv := startServer(t, f, limit.Limits{SignIns: 0.001, SignInsBurst: 7, SignInsPerName: 0.001, SignInsPerNameBurst: 3})
	signUp(t, srv.URL, "Ann")
	c := &client{t: t, base: srv.URL}
	var got []int
	for range 4 {
		st, _ := c.do("POST", "/api/v1/sessions", `{"name": "Ann", "password": "guess guess guess"}`, nil)
		got = append(got, st)
	}
	if got[0] != 401 || got[2] != 401 || got[3] != 429 {
		t.Fatalf("per name: %v, want three 401s and a 429", got)
	}
	// The right password too waits now: the limit is the name's.
	if st, body := c.do("POST", "/api/v1/sessions", `{"name": "ann", "password": "`+testPassword+`"}`, nil); st != 429 || !strings.Contains(body, "this name") {
		t.Fatalf("right password after the limit: %d %s", st, body)
	}
	// Names that do not exist are limited alike, and the address after
	// its burst.
	got = got[:0]
	for _, n := range []string{"Zed", "Yan", "Xia", "Wim"} {
		st, _ := c.do("POST", "/api/v1/sessions", `{"name": "`+n+`", "password": "guess guess guess"}`, nil)
		got = append(got, st)
	}
	if got[0] != 401 || got[len(got)-1] != 429 {
		t.Fatalf("per address: %v", got)
	}
}

func TestSessionCookieOnWebSocket(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := signUp(t, srv.URL, "Ann")
	var s table.Seated
	ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &s)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h := http.Header{}
	h.Add("Cookie", (&http.Cookie{Name: auth.SessionCookie, Value: ann.token}).String())
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/v1/tables/"+s.Table+"/socket", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	wsSend(t, c, `{"type": "hello"}`)
	m := wsReadType(t, c, "update")
	if m.Update == nil || m.Update.Seat != 0 {
		t.Fatalf("a hello without a token over a signed-in socket: %+v, want seat 0", m)
	}
}

func TestGameEndIsIndexed(t *testing.T) {
	t.Parallel()
	// An unrated game between a person and a computer: a line of history
	// for the person only.
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := signUp(t, srv.URL, "Ann")
	var s table.Seated
	ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "computer:easy"]}`, &s)
	// Both move first: a resignation before then would abort the game.
	seat := &client{t: t, base: srv.URL, token: s.Token}
	if st, body := seat.do("POST", "/api/v1/tables/"+s.Table+"/moves", `{"move": "apple", "wait": true}`, nil); st != 200 {
		t.Fatalf("move: %d %s", st, body)
	}
	seat.do("POST", "/api/v1/tables/"+s.Table+"/moves", `{"move": "resign"}`, nil)
	var h players.History
	ann.do("GET", "/api/v1/players/Ann/games", nil, &h)
	if len(h.Games) != 1 || h.Games[0].Result != "loss" || h.Games[0].Opponents[0].Kind != "computer" || h.Games[0].Opponents[0].Level != "easy" {
		t.Fatalf("history: %+v", h)
	}
	rs, _ := f.db.Ratings(context.Background(), f.principal(ann.token).Identity)
	if len(rs) != 0 {
		t.Fatalf("an unrated game rated: %+v", rs)
	}
	var _ store.Players = f.db
}

func TestDeadCookieSignOutClearsIt(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := signUp(t, srv.URL, "Ann")
	ann.do("DELETE", "/api/v1/sessions", nil, nil)
	req, _ := http.NewRequest("DELETE", srv.URL+"/api/v1/sessions", nil)
	req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: ann.token})
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 || !cleared(res.Cookies()) {
		t.Fatalf("signing out with a dead cookie: %d %+v, want 401 and the cookies cleared", res.StatusCode, res.Cookies())
	}
	// Asking who is signed in with it clears them too, so that the page
	// need not ask again; a bearer token that has ended clears nothing.
	req, _ = http.NewRequest("GET", srv.URL+"/api/v1/account", nil)
	req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: ann.token})
	if res, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 || !cleared(res.Cookies()) {
		t.Fatalf("who am I with a dead cookie: %d %+v, want 401 and the cookies cleared", res.StatusCode, res.Cookies())
	}
	req, _ = http.NewRequest("GET", srv.URL+"/api/v1/account", nil)
	req.Header.Set("Authorization", "Bearer "+ann.token)
	if res, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 || len(res.Cookies()) != 0 {
		t.Fatalf("who am I with a dead token: %d %+v, want 401 and no cookies", res.StatusCode, res.Cookies())
	}
}

// cleared reports whether cs clears both the session cookie and the
// signed-in cookie beside it, and sets nothing else.
func cleared(cs []*http.Cookie) bool {
	names := map[string]bool{}
	for _, c := range cs {
		if c.MaxAge >= 0 {
			return false
		}
		names[c.Name] = true
	}
	return len(cs) == 2 && names[auth.SessionCookie] && names[auth.SignedInCookie]
}

// TestSignInMissingNameDoesTheWork checks that a sign-in for a name with
// no account verifies the password against the dummy hash rather than
// answering at once: it takes about as long as one with a wrong password.
// (The bound is loose: the machine may be busy; an answer without the
// argon2id work would be a thousand times faster.)
func TestSignInMissingNameDoesTheWork(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	ctx := context.Background()
	if _, err := f.s.SignUp(ctx, nil, "Ann", "a long secret phrase"); err != nil {
		t.Fatal(err)
	}
	took := func(name string) time.Duration {
		start := time.Now()
		for range 3 {
			if _, err := f.s.SignIn(ctx, name, "not the phrase"); refuse.Status(err) != 401 || err.Error() != "wrong name or password" {
				t.Fatalf("sign in as %s: %v", name, err)
			}
		}
		return time.Since(start)
	}
	missing, wrong := took("Nobody"), took("Ann")
	if missing < wrong/4 {
		t.Fatalf("3 sign-ins with a wrong password took %v, 3 for a missing name %v: the missing name skips the work", wrong, missing)
	}
	t.Logf("3 wrong passwords %v, 3 missing names %v", wrong, missing)
}

func TestSolitaireResultIsNoDraw(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := signUp(t, srv.URL, "Ann")
	var s table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", `{"game": "quizl", "seats": ["me"], "maker": "easy"}`, &s); st != 201 {
		t.Fatalf("solitaire: %d %s", st, body)
	}
	// A lone seat has nobody to abort against: resigning at once loses.
	(&client{t: t, base: srv.URL, token: s.Token}).do("POST", "/api/v1/tables/"+s.Table+"/moves", `{"move": "resign"}`, nil)
	var h players.History
	ann.do("GET", "/api/v1/players/Ann/games", nil, &h)
	if len(h.Games) != 1 || h.Games[0].Result != "loss" || len(h.Games[0].Opponents) != 0 {
		t.Fatalf("a resigned solitaire game: %+v", h)
	}
}

func TestSameNameAtOnce(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	names := []string{"Ann", "ann", "ANN", "aNn"}
	got := make(chan int, len(names))
	for _, n := range names {
		go func() {
			res, err := http.Post(srv.URL+"/api/v1/accounts", "application/json", strings.NewReader(`{"name": "`+n+`", "password": "a long secret phrase"}`))
			if err != nil {
				got <- 0
				return
			}
			res.Body.Close()
			got <- res.StatusCode
		}()
	}
	count := map[int]int{}
	for range names {
		count[<-got]++
	}
	if count[201] != 1 || count[409] != len(names)-1 {
		t.Fatalf("four sign-ups of one name at once: %v, want one 201 and three 409", count)
	}
}

// TestSignUpsShareTheSignInBudget: a sign-up costs a password hash as a
// sign-in does, so it counts against the same budget of its address; a
// flood of sign-ups cannot be the cheap way to keep the hashing busy.
func TestSignUpsShareTheSignInBudget(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, limit.Limits{SignIns: 0.001, SignInsBurst: 3, NewGuests: 1e6, NewGuestsBurst: 1e6})
	c := &client{t: t, base: srv.URL}
	var got []int
	for _, n := range []string{"Ann", "Bob", "Cat", "Dan"} {
		st, _ := c.do("POST", "/api/v1/accounts", `{"name": "`+n+`", "password": "`+testPassword+`"}`, nil)
		got = append(got, st)
	}
	if got[0] != 201 || got[2] != 201 || got[3] != 429 {
		t.Fatalf("sign-ups: %v, want three 201s and a 429", got)
	}
	if _, err := f.s.SignIn(context.Background(), "Dan", testPassword); err == nil {
		t.Fatal("the refused sign-up made an account")
	}
	if st, body := c.do("POST", "/api/v1/sessions", `{"name": "Ann", "password": "`+testPassword+`"}`, nil); st != 429 {
		t.Fatalf("a sign-in after the address's budget went on sign-ups: %d %s", st, body)
	}
}

// BenchmarkSignInDuringSignUpFlood reports sign-in's latency, quiet and
// while sign-ups from many addresses keep every sign-up place busy (the
// per-address budget does not stop a flood from many addresses). Run:
//
//	go test ./server -run '^$' -bench SignInDuringSignUpFlood -benchtime 40x
//
// p99-flood/p99-quiet is the figure to watch: a sign-in waits behind one
// sign-up's hash at most, so it stays near 2 or under.
func BenchmarkSignInDuringSignUpFlood(b *testing.B) {
	db, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s, err := New(context.Background(), Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, BaseURL: "http://test"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if _, err := s.SignUp(ctx, nil, "Ann", testPassword); err != nil {
		b.Fatal(err)
	}
	measure := func(n int) time.Duration {
		lat := make([]time.Duration, 0, n)
		for range n {
			start := time.Now()
			if _, err := s.SignIn(ctx, "Ann", testPassword); err != nil && refuse.Status(err) != http.StatusServiceUnavailable {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(start))
		}
		slices.Sort(lat)
		return lat[(len(lat)*99)/100]
	}
	b.ResetTimer()
	quiet := measure(b.N)
	fctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; fctx.Err() == nil; j++ {
				s.SignUp(fctx, nil, fmt.Sprintf("flood%d_%d", i, j), testPassword)
			}
		}()
	}
	flood := measure(b.N)
	stop()
	wg.Wait()
	b.ReportMetric(float64(quiet.Microseconds())/1000, "p99-quiet-ms")
	b.ReportMetric(float64(flood.Microseconds())/1000, "p99-flood-ms")
	b.ReportMetric(float64(flood)/float64(quiet), "p99-flood/p99-quiet")
}

// exportedLines reads the archive of name's games (of gameName, if not
// ""): NDJSON, kept from caches (it may hold the reader's private games),
// every line a record that decodes, none an error.
func exportedLines(t *testing.T, base, name, gameName string) []string {
	t.Helper()
	u := base + "/api/v1/players/" + name + "/games/export"
	if gameName != "" {
		u += "?game=" + gameName
	}
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/x-ndjson" || !strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment") || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("the archive of %s: %d %s %s, Cache-Control %q", name, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"), res.Header.Get("Cache-Control"))
	}
	var out []string
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if _, err := game.DecodeBytes(sc.Bytes()); err != nil {
			t.Fatalf("the archive of %s, line %d: %v: %s", name, len(out)+1, err, sc.Text())
		}
		out = append(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPasswordChangesAtOnce: password changes sent side by side with one
// current password, and a moderator's close beside them: at most one
// change is taken, the password that signs in is the one it set, and a
// close stays a close. Each change read the account, checked the
// password for a while and stored its own hash over whatever was there:
// all four were told their change was made, three of them lost, and a
// change stored after a close opened the account again.
func TestPasswordChangesAtOnce(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann, moe := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Moe")
	grant(t, f.db, "Moe", true)
	const n = 4
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			codes[i], _ = ann.do("PUT", "/api/v1/account/password", map[string]string{"password": testPassword, "new_password": fmt.Sprintf("new pass phrase %d", i)}, nil)
		})
	}
	wg.Wait()
	nobody := &client{t: t, base: srv.URL}
	taken := -1
	for i, code := range codes {
		switch {
		case code == 204 && taken >= 0:
			t.Errorf("changes %d and %d were both taken from one current password: %v", taken, i, codes)
		case code == 204:
			taken = i
		case code != 403 && code != 429:
			t.Errorf("change %d: %d, want 204, or 403 for a password changed meanwhile", i, code)
		}
	}
	now := testPassword
	if taken >= 0 {
		now = fmt.Sprintf("new pass phrase %d", taken)
	}
	if st, body := nobody.do("POST", "/api/v1/sessions", map[string]string{"name": "Ann", "password": now}, nil); st != 200 {
		t.Fatalf("signing in with the password the answers left (%q): %d %s", now, st, body)
	}

	// A change and a close side by side: the account ends closed.
	ben := signUp(t, srv.URL, "Ben")
	wg.Go(func() {
		ben.do("PUT", "/api/v1/account/password", map[string]string{"password": testPassword, "new_password": "a way back in"}, nil)
	})
	expect(t, moe, "POST", "/api/v1/moderation/close", `{"name": "Ben", "reason": "abuse"}`, 200, `"name":"Ben"`)
	wg.Wait()
	var p struct{ Closed bool }
	if st, body := nobody.do("GET", "/api/v1/players/Ben", nil, &p); st != 200 || !p.Closed {
		t.Errorf("Ben after a password change beside his close: %d %s, want closed", st, body)
	}
	for _, pw := range []string{testPassword, "a way back in"} {
		if st, _ := nobody.do("POST", "/api/v1/sessions", map[string]string{"name": "Ben", "password": pw}, nil); st == 200 {
			t.Errorf("the closed account signs in with %q", pw)
		}
	}
}
