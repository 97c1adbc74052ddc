package server

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/limit"
	"parlour/server/table"

	"github.com/coder/websocket"
)

// cookieRequest sends method path with body and the session cookie
// token, and the headers hd; it returns the status and the body.
func cookieRequest(t *testing.T, base, method, path, body, token string, hd map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
	if body == "" {
		req.Body = http.NoBody
	}
	req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: token})
	for k, v := range hd {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestCrossSiteRequests: a change made with the session cookie alone
// must come from Parlour's own pages. A page on another port of the same
// host shares the cookie (SameSite counts the host, not the port), so it
// is told apart by its Origin; and its body must be declared JSON, which
// a plain form cannot do. Each refusal changes nothing.
func TestCrossSiteRequests(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := signUp(t, srv.URL, "Ann")
	signUp(t, srv.URL, "Bob")
	self := srv.URL
	other := strings.Replace(srv.URL, "127.0.0.1:", "127.0.0.1:1", 1) // another port
	const challenge = `{"to": "Bob", "game": "nymphabet"}`
	for _, tc := range []struct {
		name   string
		body   string
		hd     map[string]string
		bearer bool
		want   int
	}{
		{"own page", challenge, map[string]string{"Origin": self, "Content-Type": "application/json"}, false, 201},
		{"own page, fetch metadata only", challenge, map[string]string{"Sec-Fetch-Site": "same-origin", "Content-Type": "application/json"}, false, 201},
		{"a program, no browser headers", challenge, map[string]string{"Content-Type": "application/json"}, false, 201},
		{"another port", challenge, map[string]string{"Origin": other, "Content-Type": "application/json"}, false, 403},
		{"another site", challenge, map[string]string{"Origin": "https://evil.example", "Content-Type": "application/json"}, false, 403},
		{"origin null", challenge, map[string]string{"Origin": "null", "Content-Type": "application/json"}, false, 403},
		{"same-site, no origin", challenge, map[string]string{"Sec-Fetch-Site": "same-site", "Content-Type": "application/json"}, false, 403},
		{"cross-site, no origin", challenge, map[string]string{"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, false, 403},
		{"a form's text/plain", challenge, map[string]string{"Origin": self, "Content-Type": "text/plain"}, false, 415},
		{"no content type", challenge, map[string]string{"Origin": self}, false, 415},
		{"a bearer token from anywhere", challenge, map[string]string{"Origin": other, "Content-Type": "text/plain"}, true, 201},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(listChallenges(t, ann))
			var st int
			var body string
			if tc.bearer {
				req, _ := http.NewRequest("POST", srv.URL+"/api/v1/challenges", strings.NewReader(tc.body))
				req.Header.Set("Authorization", "Bearer "+ann.token)
				for k, v := range tc.hd {
					req.Header.Set(k, v)
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				st = res.StatusCode
			} else {
				st, body = cookieRequest(t, srv.URL, "POST", "/api/v1/challenges", tc.body, ann.token, tc.hd)
			}
			if st != tc.want {
				t.Fatalf("status %d (%s), want %d", st, body, tc.want)
			}
			after := listChallenges(t, ann)
			if made := len(after) - before; (st == 201) != (made == 1) || made < 0 || made > 1 {
				t.Fatalf("%d challenges made by a request answered %d", made, st)
			}
			if st >= 400 && !strings.Contains(body, "another site") && !strings.Contains(body, "JSON") {
				t.Fatalf("refusal %q does not say why", body)
			}
			for _, c := range after {
				if st, body := ann.do("DELETE", "/api/v1/challenges/"+c, nil, nil); st != 200 {
					t.Fatalf("withdraw: %d %s", st, body)
				}
			}
		})
	}
	// Behind a proxy that names the node as the request's host (nginx's
	// $host drops the site's port), the page's Origin is the address
	// players open, --public-url: that is Parlour's own.
	f.s.SetBaseURL("https://parlour.example.org:8443")
	for _, tc := range []struct {
		origin string
		want   int
	}{
		{"https://parlour.example.org:8443", 201},
		{"https://parlour.example.org", 403},
		{"http://parlour.example.org:8443", 403},
		{"https://evil.example:8443", 403},
	} {
		st, body := cookieRequest(t, srv.URL, "POST", "/api/v1/challenges", challenge, ann.token, map[string]string{"Origin": tc.origin, "Content-Type": "application/json"})
		if st != tc.want {
			t.Errorf("Origin %s with --public-url https://parlour.example.org:8443: %d (%s), want %d", tc.origin, st, body, tc.want)
		}
		for _, c := range listChallenges(t, ann) {
			ann.do("DELETE", "/api/v1/challenges/"+c, nil, nil)
		}
	}
	f.s.SetBaseURL(srv.URL)
	// Reading with the cookie from anywhere is fine: SameSite and CORS
	// keep the answer from another site's script.
	if st, body := cookieRequest(t, srv.URL, "GET", "/api/v1/account", "", ann.token, map[string]string{"Origin": other}); st != 200 {
		t.Fatalf("GET with a foreign Origin: %d %s", st, body)
	}
}

// TestCrossSiteSignIn: another site's page cannot sign a browser in, or
// up, without its cookie (a form's text/plain body can be read as the
// JSON of a sign-in): the visitor would play on as the attacker's
// account, which would read it all. A program that sends no Origin, and
// Parlour's own pages, sign in as ever.
func TestCrossSiteSignIn(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	signUp(t, srv.URL, "Mallory")
	other := strings.Replace(srv.URL, "127.0.0.1:", "127.0.0.1:1", 1)
	for _, tc := range []struct {
		name, path, body string
		hd               map[string]string
		want             int
	}{
		{"a sign-in from another site's form", "/api/v1/sessions", `{"name": "Mallory", "password": "` + testPassword + `"}`, map[string]string{"Origin": "https://evil.example", "Content-Type": "text/plain"}, 403},
		{"a sign-in from another port", "/api/v1/sessions", `{"name": "Mallory", "password": "` + testPassword + `"}`, map[string]string{"Origin": other, "Content-Type": "application/json"}, 403},
		{"a sign-in, cross-site by fetch metadata", "/api/v1/sessions", `{"name": "Mallory", "password": "` + testPassword + `"}`, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"a sign-up from another site's form", "/api/v1/accounts", `{"name": "Trudy", "password": "` + testPassword + `"}`, map[string]string{"Origin": "https://evil.example", "Content-Type": "text/plain"}, 403},
		{"a sign-in from Parlour's page", "/api/v1/sessions", `{"name": "Mallory", "password": "` + testPassword + `"}`, map[string]string{"Origin": srv.URL, "Content-Type": "application/json"}, 200},
		{"a sign-in by a program", "/api/v1/sessions", `{"name": "Mallory", "password": "` + testPassword + `"}`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", srv.URL+tc.path, strings.NewReader(tc.body))
			for k, v := range tc.hd {
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.want {
				t.Fatalf("status %d (%s), want %d", res.StatusCode, b, tc.want)
			}
			if set := res.Header.Get("Set-Cookie"); tc.want == 403 && set != "" {
				t.Errorf("a refused sign-in set a cookie: %s", set)
			}
		})
	}
	if _, err := f.db.AccountByKey(context.Background(), "trudy"); err == nil {
		t.Error("another site's form made an account")
	}
}

// listChallenges returns the ids of the open challenges c made.
func listChallenges(t *testing.T, c *client) []string {
	t.Helper()
	var out struct {
		Out []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"out"`
	}
	if st, body := c.do("GET", "/api/v1/challenges", nil, &out); st != 200 {
		t.Fatalf("challenges: %d %s", st, body)
	}
	var ids []string
	for _, ch := range out.Out {
		if ch.Status == "open" {
			ids = append(ids, ch.ID)
		}
	}
	return ids
}

// TestLimitsBehindAProxy: behind a trusted proxy each client has its own
// sign-in budget, so one client's wrong passwords lock out no one else;
// and a client that writes X-Forwarded-For itself gains nothing.
func TestLimitsBehindAProxy(t *testing.T) {
	t.Parallel()
	lim := limit.Limits{SignIns: 0.001, SignInsBurst: 2, SignInsPerName: 1e6, SignInsPerNameBurst: 1e6}
	signInFrom := func(t *testing.T, base, addr string) int {
		req, _ := http.NewRequest("POST", base+"/api/v1/sessions", strings.NewReader(`{"name": "Nobody", "password": "guess guess guess"}`))
		req.Header.Set("X-Forwarded-For", addr)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tc := range []struct {
		name    string
		trusted bool
		want    int // the status of one more client's first try
	}{
		{"trusted", true, 401},
		{"not trusted", false, 429},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := lim
			if tc.trusted {
				l.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
			}
			srv := startServer(t, newGamesFixture(t), l)
			for range 3 {
				signInFrom(t, srv.URL, "203.0.113.9")
			}
			if st := signInFrom(t, srv.URL, "203.0.113.9"); st != 429 {
				t.Fatalf("the flooding client: %d, want 429", st)
			}
			if st := signInFrom(t, srv.URL, "198.51.100.20"); st != tc.want {
				t.Fatalf("another client: %d, want %d", st, tc.want)
			}
		})
	}
}

// TestSecureCookies: the session cookie is Secure when the client used
// TLS, which a trusted proxy may say for it, or when the server is set to
// say so always (then with HSTS).
func TestSecureCookies(t *testing.T) {
	t.Parallel()
	local := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	for _, tc := range []struct {
		name       string
		lim        limit.Limits
		hd         map[string]string
		secure     bool
		hsts       bool
		wantOrigin string // an Origin the proxied page has, accepted
	}{
		{"plain", limit.Limits{}, nil, false, false, ""},
		{"untrusted proxy says https", limit.Limits{}, map[string]string{"X-Forwarded-Proto": "https"}, false, false, ""},
		{"trusted proxy says https", limit.Limits{TrustedProxies: local}, map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "parlour.example"}, true, false, "https://parlour.example"},
		{"trusted proxy, Forwarded", limit.Limits{TrustedProxies: local}, map[string]string{"Forwarded": "for=203.0.113.9;proto=https"}, true, false, ""},
		{"trusted proxy says http", limit.Limits{TrustedProxies: local}, map[string]string{"X-Forwarded-Proto": "http"}, false, false, ""},
		{"always", limit.Limits{SecureCookies: true}, nil, true, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := generous
			l.TrustedProxies, l.SecureCookies = tc.lim.TrustedProxies, tc.lim.SecureCookies
			srv := startServer(t, newGamesFixture(t), l)
			req, _ := http.NewRequest("POST", srv.URL+"/api/v1/accounts", strings.NewReader(`{"name": "Tess", "password": "`+testPassword+`"}`))
			for k, v := range tc.hd {
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			var c []*http.Cookie
			for _, k := range res.Cookies() {
				if k.Name == auth.SessionCookie {
					c = append(c, k)
				}
				if k.Secure != tc.secure {
					t.Errorf("cookie %s: Secure %v, want %v", k.Name, k.Secure, tc.secure)
				}
			}
			if res.StatusCode != 201 || len(c) != 1 {
				t.Fatalf("%d %+v: want one session cookie", res.StatusCode, res.Cookies())
			}
			if got := res.Header.Get("Strict-Transport-Security") != ""; got != tc.hsts {
				t.Fatalf("HSTS %q, want it %v", res.Header.Get("Strict-Transport-Security"), tc.hsts)
			}
			if tc.wantOrigin != "" {
				hd := map[string]string{"Origin": tc.wantOrigin, "Content-Type": "application/json"}
				for k, v := range tc.hd {
					hd[k] = v
				}
				if st, body := cookieRequest(t, srv.URL, "PUT", "/api/v1/account/settings", `{}`, c[0].Value, hd); st != 200 {
					t.Fatalf("the proxied page's own origin: %d %s", st, body)
				}
			}
		})
	}
}

// TestSocketOriginBehindAProxy: a table's WebSocket opened from a page
// is taken when the page's Origin is the request's host, or the address
// players open the server at (--public-url) whatever host a proxy named;
// from any other page it is refused before its hello.
func TestSocketOriginBehindAProxy(t *testing.T) {
	t.Parallel()
	f, srv, id := socketTable(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/v1/tables/" + id + "/socket"
	for _, tc := range []struct {
		name, public, origin string
		ok                   bool
	}{
		{"the request's own host", "", srv.URL, true},
		{"the public address, behind a proxy", "https://parlour.example.org:8443", "https://parlour.example.org:8443", true},
		{"the public address on its scheme's port", "https://parlour.example.org:443", "https://parlour.example.org", true},
		{"another port of the public host", "https://parlour.example.org:8443", "https://parlour.example.org", false},
		{"another scheme", "https://parlour.example.org", "http://parlour.example.org", false},
		{"another site", "https://parlour.example.org", "https://evil.example", false},
	} {
		f.s.SetBaseURL(cmp.Or(tc.public, srv.URL))
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c, res, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {tc.origin}}})
		cancel()
		if c != nil {
			c.CloseNow()
		}
		if ok := err == nil; ok != tc.ok {
			status := 0
			if res != nil {
				status = res.StatusCode
			}
			t.Errorf("%s: Origin %s with --public-url %q: opened %v (%d %v), want %v", tc.name, tc.origin, tc.public, ok, status, err, tc.ok)
		}
	}
}

// socketTable starts a server with an open Nymphabet table of Ann's, for
// the tests of a socket's opening request, and returns its id.
func socketTable(t *testing.T) (*fixture, *httptest.Server, string) {
	t.Helper()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	var made table.Seated
	if st, body := signUp(t, srv.URL, "Ann").do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, &made); st != 201 {
		t.Fatalf("a table: %d %s", st, body)
	}
	return f, srv, made.Table
}

// TestSocketHandshakeRefusals: a socket's opening request refused (from
// another site's page, not an upgrade at all, of another WebSocket
// version, without its key) is answered as every refusal is, in JSON in
// a player's words, where the library's plain text named its headers.
func TestSocketHandshakeRefusals(t *testing.T) {
	t.Parallel()
	_, srv, id := socketTable(t)
	upgrade := map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
	with := func(changes map[string]string) map[string]string {
		h := maps.Clone(upgrade)
		for k, v := range changes {
			if v == "" {
				delete(h, k)
			} else {
				h[k] = v
			}
		}
		return h
	}
	for _, tc := range []struct {
		name   string
		header map[string]string
		status int
		says   string
	}{
		{"another site's page", with(map[string]string{"Origin": "https://evil.example"}), 403, "another site"},
		{"a plain GET", nil, 426, "WebSocket connections only"},
		{"no Upgrade header", with(map[string]string{"Upgrade": ""}), 426, "WebSocket connections only"},
		{"another version", with(map[string]string{"Sec-WebSocket-Version": "8"}), 400, "version 13"},
		{"no key", with(map[string]string{"Sec-WebSocket-Key": ""}), 400, "Sec-WebSocket-Key"},
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/api/v1/tables/"+id+"/socket", nil)
		for k, v := range tc.header {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var body struct{ Error string }
		err = json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if res.StatusCode != tc.status || err != nil || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || !strings.Contains(body.Error, tc.says) {
			t.Errorf("%s: %d %s %q (%v); want %d in JSON saying %q", tc.name, res.StatusCode, res.Header.Get("Content-Type"), body.Error, err, tc.status, tc.says)
		}
	}
}
