package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/server/httpapi"
	"parlour/server/internal/servertest"
	"parlour/server/limit"
	"parlour/server/socket"
	"parlour/server/table"
	"parlour/store"
)

// startServer serves f's service on a loopback port.
func startServer(t *testing.T, f *fixture, lim limit.Limits) *httptest.Server {
	t.Helper()
	return startServerOn(t, f, lim, nil)
}

// startServerOn is startServer listening on ln (nil: the test server's
// own listener).
func startServerOn(t *testing.T, f *fixture, lim limit.Limits, ln net.Listener) *httptest.Server {
	t.Helper()
	h := NewHandler(f.s, lim)
	srv := httptest.NewUnstartedServer(h)
	h.Configure(srv.Config)
	if ln != nil {
		srv.Listener.Close()
		srv.Listener = ln
	}
	srv.Listener = h.Listener(srv.Listener)
	srv.Start()
	f.s.SetBaseURL(srv.URL)
	t.Cleanup(func() {
		h.CloseSockets("test over")
		srv.Close()
	})
	return srv
}

// client is one program talking to the HTTP API. It keeps every byte the
// server sent it, for the secrecy checks.
type client struct {
	t     *testing.T
	base  string
	token string
	// hc, when set, is the client's own HTTP client: a test that counts
	// on one keep-alive connection cannot use http.DefaultClient, whose
	// idle connections every parallel test's httptest.Server.Close
	// closes.
	hc  *http.Client
	mu  sync.Mutex
	got bytes.Buffer
}

func (c *client) do(method, path string, body any, out any) (int, string) {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	hc := c.hc
	if hc == nil {
		hc = http.DefaultClient
	}
	res, err := hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	c.mu.Lock()
	c.got.Write(raw)
	c.mu.Unlock()
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			c.t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
	return res.StatusCode, string(raw)
}

func (c *client) received() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.got.String()
}

// stream follows the NDJSON events of a table until it ends, keeping the
// updates.
func (c *client) stream(ctx context.Context, tableID string, from int) <-chan table.Update {
	out := make(chan table.Update, 256)
	url := fmt.Sprintf("%s/api/v1/tables/%s/events", c.base, tableID)
	if from >= 0 {
		url += fmt.Sprintf("?from=%d", from)
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	if res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		c.t.Fatalf("events: status %d: %s", res.StatusCode, b)
	}
	go func() {
		defer close(out)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			c.mu.Lock()
			c.got.Write(sc.Bytes())
			c.mu.Unlock()
			var u table.Update
			if json.Unmarshal(sc.Bytes(), &u) == nil {
				out <- u
			}
		}
	}()
	return out
}

// guessFromView bisects from a view decoded from JSON.
func guessFromView(t *testing.T, view json.RawMessage, maxN int) string {
	var v servertest.GuessView
	if err := json.Unmarshal(view, &v); err != nil {
		t.Fatal(err)
	}
	m, _ := servertest.GuessBot{}.Move(context.Background(), servertest.Config(maxN), 0, v)
	return m
}

type jsonUpdate struct {
	Version int             `json:"version"`
	Seat    int             `json:"seat"`
	Table   table.Info      `json:"table"`
	View    json.RawMessage `json:"view"`
}

func TestHTTPGame(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		f := newFixtureOn(t, k)
		srv := startServer(t, f, limit.Limits{})
		ann := &client{t: t, base: srv.URL}
		var created table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", `{"game": "guess", "rules": {"max": 1000}, "seats": ["me", "open"], "name": "Ann"}`, &created); st != 201 {
			t.Fatalf("create: %d %s", st, body)
		}
		ann.token = created.Token
		if !strings.HasPrefix(created.Invite, srv.URL+"/t/") {
			t.Fatalf("invite %q", created.Invite)
		}
		var lobby struct{ Tables []table.Info }
		ann.do("GET", "/api/v1/tables?status=open", nil, &lobby)
		if len(lobby.Tables) != 1 {
			t.Fatalf("lobby %+v", lobby)
		}
		ben := &client{t: t, base: srv.URL}
		var joined table.Seated
		if st, body := ben.do("POST", "/api/v1/tables/"+created.Table+"/join", `{"name": "Ben"}`, &joined); st != 200 || joined.Seat != 1 {
			t.Fatalf("join: %d %s", st, body)
		}
		ben.token = joined.Token
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		annUpdates := ann.stream(ctx, created.Table, 0)
		spectator := &client{t: t, base: srv.URL}
		specUpdates := spectator.stream(ctx, created.Table, -1)

		if st, body := ann.do("POST", "/api/v1/tables/"+created.Table+"/setup", `{"setup": {"number": 777}}`, nil); st != 200 {
			t.Fatalf("setup: %d %s", st, body)
		}
		if st, body := ben.do("POST", "/api/v1/tables/"+created.Table+"/setup", `{"auto": true}`, nil); st != 200 {
			t.Fatalf("auto setup: %d %s", st, body)
		}
		players := []*client{ann, ben}
		for turn := 0; turn < 40; turn++ {
			c := players[turn%2]
			var u jsonUpdate
			c.do("GET", "/api/v1/tables/"+created.Table, nil, &u)
			if u.Table.Status == store.Finished {
				break
			}
			move := guessFromView(t, u.View, 1000)
			var res table.MoveResult
			if st, body := c.do("POST", "/api/v1/tables/"+created.Table+"/moves", map[string]any{"move": move, "version": u.Version}, &res); st != 200 {
				t.Fatalf("move %q: %d %s", move, st, body)
			}
		}
		// The stream from version 0 brings every move exactly once, in order.
		var last table.Update
		var versions []int
		for u := range annUpdates {
			last = u
			for _, m := range u.Moves {
				versions = append(versions, m.Version)
			}
		}
		if last.Table.Status != store.Finished {
			t.Fatalf("Ann's stream ended at %+v", last.Table)
		}
		var rec0 struct{ Moves []any }
		ann.do("GET", "/api/v1/tables/"+created.Table+"/record", nil, &rec0)
		if len(versions) != len(rec0.Moves) {
			t.Fatalf("the stream brought moves %v, the record has %d", versions, len(rec0.Moves))
		}
		for i := 1; i < len(versions); i++ {
			if versions[i] != versions[i-1]+1 {
				t.Fatalf("the stream's moves skip or repeat: %v", versions)
			}
		}
		for range specUpdates {
		}
		var rec struct{ Setup map[string]json.RawMessage }
		ann.do("GET", "/api/v1/tables/"+created.Table+"/record", nil, &rec)
		if len(rec.Setup) != 2 {
			t.Fatalf("finished record setups %v", rec.Setup)
		}
		for i, r := range last.Table.Reveal {
			if !table.VerifyCommitment(last.Table.Commitments[i], r.Salt, r.Setup) {
				t.Fatalf("commitment %d does not verify", i)
			}
		}
		// Ann's secret 777 reached Ben and the spectator only with the end.
		for name, c := range map[string]*client{"Ben": ben, "spectator": spectator} {
			got := c.received()
			end := strings.Index(got, `"status":"finished"`)
			if i := strings.Index(got, "777: right"); i >= 0 && (end < 0 || i < end) {
				end = i // Ben found it: the last move of the game
			}
			if i := indexNumber(got, "777"); i >= 0 && (end < 0 || i < end) {
				t.Errorf("%s received Ann's secret before the end", name)
			}
		}
	})
}

func TestHTTPBadInput(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{MaxBody: 512})
	c := &client{t: t, base: srv.URL}
	var a table.Seated
	c.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &a)
	var b table.Seated
	(&client{t: t, base: srv.URL}).do("POST", "/api/v1/tables/"+a.Table+"/join", `{}`, &b)
	for _, tok := range []string{a.Token, b.Token} {
		(&client{t: t, base: srv.URL, token: tok}).do("POST", "/api/v1/tables/"+a.Table+"/setup", `{"auto": true}`, nil)
	}
	var other table.Seated
	c.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &other)
	forged := []byte(a.Token)
	forged[5] ^= 2
	tableID := "/api/v1/tables/" + a.Table
	for _, tc := range []struct {
		name, method, path, token, body string
		status                          int
		says                            string
	}{
		{"malformed JSON", "POST", tableID + "/moves", a.Token, `{"move": `, 400, "ends too early"},
		{"not an object", "POST", tableID + "/moves", a.Token, `["guess 5"]`, 400, "JSON object"},
		{"unknown field", "POST", tableID + "/moves", a.Token, `{"move": "guess 5", "cheat": true}`, 400, `unknown field`},
		{"wrong type", "POST", tableID + "/moves", a.Token, `{"move": 5}`, 400, `should be a string`},
		{"trailing data", "POST", tableID + "/moves", a.Token, `{"move": "guess 5"} {}`, 400, "after its JSON"},
		{"oversized", "POST", tableID + "/moves", a.Token, `{"move": "` + strings.Repeat("x", 600) + `"}`, 413, "larger than 512"},
		{"no token", "POST", tableID + "/moves", "", `{"move": "guess 5"}`, 401, "token"},
		{"forged token", "POST", tableID + "/moves", string(forged), `{"move": "guess 5"}`, 401, "issued"},
		{"garbage token", "POST", tableID + "/moves", "hello", `{"move": "guess 5"}`, 401, "not one this server issued"},
		{"out of turn", "POST", tableID + "/moves", b.Token, `{"move": "guess 5"}`, 409, "not your turn"},
		{"not your seat", "POST", tableID + "/moves", other.Token, `{"move": "guess 5"}`, 403, "no seat"},
		{"illegal move", "POST", tableID + "/moves", a.Token, `{"move": "guess 5000"}`, 422, "from 1 to 100"},
		{"empty move", "POST", tableID + "/moves", a.Token, `{"move": "  "}`, 400, "empty"},
		{"stale version", "POST", tableID + "/moves", a.Token, `{"move": "guess 5", "version": 1}`, 409, "version"},
		{"join full", "POST", tableID + "/join", "", `{}`, 409, "full"},
		{"setup after start", "POST", tableID + "/setup", a.Token, `{"setup": {"number": 5}}`, 409, "play has started"},
		{"setup both", "POST", tableID + "/setup", a.Token, `{"setup": {"number": 5}, "auto": true}`, 400, "either"},
		{"bad rules", "POST", "/api/v1/tables", "", `{"game": "guess", "seats": ["me"], "rules": {"max": "lots"}}`, 400, "rule option max"},
		{"no such table", "GET", "/api/v1/tables/zzzzzzzzzzzzzzzz", "", "", 404, "no table"},
		{"bad table id", "GET", "/api/v1/tables/../../etc", "", "", 404, ""},
		{"bad from", "GET", tableID + "/events?from=x", "", "", 400, "version number"},
		{"from ahead", "GET", tableID + "/events?from=99", "", "", 400, "ahead"},
		{"unknown endpoint", "GET", "/api/v1/nothing", "", "", 404, "no such endpoint"},
		{"wrong method", "DELETE", tableID, "", "", 404, "no such endpoint: DELETE"},
		{"bad auth scheme", "GET", tableID, "", "", 200, ""},
	} {
		before, _ := f.s.View(context.Background(), nil, a.Table)
		cl := &client{t: t, base: srv.URL, token: tc.token}
		st, body := cl.do(tc.method, tc.path, nullIfEmpty(tc.body), nil)
		if st != tc.status || !strings.Contains(body, tc.says) {
			t.Errorf("%s: got %d %s, want %d saying %q", tc.name, st, strings.TrimSpace(body), tc.status, tc.says)
		}
		if st >= 400 && strings.HasPrefix(tc.path, "/api/") && st != 405 && !strings.HasPrefix(body, `{"error":`) {
			t.Errorf("%s: error body %q is not {\"error\": ...}", tc.name, body)
		}
		after, _ := f.s.View(context.Background(), nil, a.Table)
		if after.Version != before.Version {
			t.Errorf("%s changed the table from version %d to %d", tc.name, before.Version, after.Version)
		}
	}
	req, _ := http.NewRequest("GET", srv.URL+tableID, nil)
	req.Header.Set("Authorization", "Basic abc")
	res, _ := http.DefaultClient.Do(req)
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Errorf("Basic auth: %d", res.StatusCode)
	}
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func TestRateLimits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// Rates of one a hundred seconds: nothing refills while the test runs,
	// however slow the machine.
	srv := startServer(t, f, limit.Limits{PerConn: 0.01, PerConnBurst: 5, PerIdentity: 0.01, PerIdentityBurst: 3, NewGuests: 0.01, NewGuestsBurst: 2})
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	c := &client{t: t, base: srv.URL, hc: &http.Client{Transport: tr}}
	statuses := func(n int, method, path, body string) []int {
		var out []int
		for i := 0; i < n; i++ {
			st, _ := c.do(method, path, nullIfEmpty(body), nil)
			out = append(out, st)
		}
		return out
	}
	if got, want := statuses(4, "POST", "/api/v1/identity", `{}`), []int{201, 201, 429, 429}; !slices.Equal(got, want) {
		t.Fatalf("new guests: %v, want %v", got, want)
	}
	// The same keep-alive connection: the last of its burst of 5, then
	// refusals.
	if got, want := statuses(4, "GET", "/healthz", ""), []int{200, 429, 429, 429}; !slices.Equal(got, want) {
		t.Fatalf("connection flood: %v, want %v", got, want)
	}
	if _, b := c.do("GET", "/healthz", nil, nil); !strings.Contains(b, "slow down") {
		t.Fatalf("the 429 does not say what is wrong: %s", b)
	}
}

func wsDial(t *testing.T, srv *httptest.Server, tableID string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/v1/tables/"+tableID+"/socket", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(1 << 20)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func wsSend(t *testing.T, c *websocket.Conn, msg string) {
	t.Helper()
	if err := c.Write(context.Background(), websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
}

func wsRead(t *testing.T, c *websocket.Conn) socket.ServerMessage {
	t.Helper()
	m, err := readMessage(c)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// readMessage reads one server message from c, waiting at most 5 s; it
// is wsRead for a test's own goroutines, which may not call t.Fatal.
func readMessage(c *websocket.Conn) (socket.ServerMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, b, err := c.Read(ctx)
	if err != nil {
		return socket.ServerMessage{}, err
	}
	var m socket.ServerMessage
	err = json.Unmarshal(b, &m)
	return m, err
}

// wsReadType reads until a message of type typ.
func wsReadType(t *testing.T, c *websocket.Conn, typ string) socket.ServerMessage {
	t.Helper()
	for {
		if m := wsRead(t, c); m.Type == typ {
			return m
		}
	}
}

func TestWebSocketGameAgainstComputer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
	hc := &client{t: t, base: srv.URL}
	var a table.Seated
	hc.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "computer:medium"]}`, &a)
	c := wsDial(t, srv, a.Table)
	wsSend(t, c, `{"type": "move", "move": "guess 1"}`)
	if m := wsRead(t, c); m.Type != "error" || !strings.Contains(m.Error, "hello") {
		t.Fatalf("move before hello: %+v", m)
	}
	_, _, err := c.Read(context.Background())
	if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Fatalf("socket not closed after a bad first message: %v", err)
	}

	c = wsDial(t, srv, a.Table)
	wsSend(t, c, fmt.Sprintf(`{"type": "hello", "token": %q}`, a.Token))
	if m := wsRead(t, c); m.Type != "update" || m.Update.Seat != 0 {
		t.Fatalf("first message %+v", m)
	}
	wsSend(t, c, `{"type": "setup", "setup": {"number": 50}, "id": "s1"}`)
	if m := wsReadType(t, c, "ack"); m.ID != "s1" {
		t.Fatalf("setup ack %+v", m)
	}
	for _, bad := range []struct{ msg, says string }{
		{`{"type": "dance"}`, "unknown message type"},
		{`{"type": "move"}`, `needs a "move"`},
		{`not json`, "JSON object"},
		{`{"type": "move", "move": `, "ends too early"},
		{`{"type": "move", "move": "guess 1", "extra": 1}`, "unknown field"},
		{`{"type": "hello"}`, "already"},
	} {
		wsSend(t, c, bad.msg)
		if m := wsReadType(t, c, "error"); !strings.Contains(m.Error, bad.says) {
			t.Errorf("%s: error %q, want %q", bad.msg, m.Error, bad.says)
		}
	}
	// Play to the end, moving whenever the pushed view says it is our turn.
	var now jsonUpdate
	hc.token = a.Token
	hc.do("GET", "/api/v1/tables/"+a.Table, nil, &now)
	if len(now.Table.ToMove) == 1 && now.Table.ToMove[0] == 0 {
		wsSend(t, c, fmt.Sprintf(`{"type": "move", "move": %q, "version": %d}`, guessFromView(t, now.View, 100), now.Version))
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		m := wsRead(t, c)
		if m.Type != "update" {
			continue
		}
		if m.Update.Table.Status == store.Finished {
			return
		}
		if len(m.Update.Table.ToMove) == 1 && m.Update.Table.ToMove[0] == 0 {
			b, _ := json.Marshal(m.Update.View)
			wsSend(t, c, fmt.Sprintf(`{"type": "move", "move": %q, "version": %d}`, guessFromView(t, b, 100), m.Update.Version))
		}
	}
	t.Fatal("the socket game did not end")
}

func TestWebSocketLimits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{MaxMessage: 256})
	hc := &client{t: t, base: srv.URL}
	var a table.Seated
	hc.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &a)
	c := wsDial(t, srv, a.Table)
	wsSend(t, c, `{"type": "hello"}`)
	wsRead(t, c)
	wsSend(t, c, `{"type": "move", "move": "guess 1"}`)
	if m := wsReadType(t, c, "error"); !strings.Contains(m.Error, "spectators cannot move") {
		t.Fatalf("spectator move: %+v", m)
	}
	// A message of exactly the cap is read (and refused for its text);
	// one a byte over closes the socket, saying why in protocol.md's
	// words.
	at := `{"type": "ping", "id": "` + strings.Repeat("x", 256-len(`{"type": "ping", "id": ""}`)) + `"}`
	wsSend(t, c, at)
	if m := wsRead(t, c); m.Type != "error" || !strings.Contains(m.Error, "id may be at most") {
		t.Fatalf("a message of the cap: %+v", m)
	}
	wsSend(t, c, at+" ")
	_, _, err := c.Read(context.Background())
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusMessageTooBig || ce.Reason != "message too big" {
		t.Fatalf("a message a byte over the cap: %v, want 1009 \"message too big\"", err)
	}
	c = wsDial(t, srv, a.Table)
	wsSend(t, c, `{"type": "hello", "token": "forged"}`)
	if m := wsRead(t, c); m.Type != "error" || m.Status != 401 {
		t.Fatalf("forged hello: %+v", m)
	}
}

func TestHealthzAndMetrics(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
	c := &client{t: t, base: srv.URL}
	if st, body := c.do("GET", "/healthz", nil, nil); st != 200 || body != "ok\n" {
		t.Fatalf("healthz %d %q", st, body)
	}
	c.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me"]}`, nil)
	st, body := c.do("GET", "/metrics", nil, nil)
	if st != 200 || !strings.Contains(body, "parlour_tables_created_total 1\n") || !strings.Contains(body, `parlour_move_seconds_bucket{le="+Inf"}`) {
		t.Fatalf("metrics %d:\n%s", st, body)
	}
	var games []httpapi.GameInfo
	c.do("GET", "/api/v1/games", nil, &games)
	if len(games) != 2 || games[0].Name != "guess" || games[1].Name != "tailguess" || len(games[0].Options) != 2 {
		t.Fatalf("games %+v", games)
	}
}

// indexNumber finds n as a JSON number (after ':', '[' or ','), so that
// digits inside tokens and digests do not count.
func indexNumber(s, n string) int {
	best := -1
	for _, pre := range []string{":", "[", ","} {
		if i := strings.Index(s, pre+n); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

func TestWebSocketFlood(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{PerConn: 1, PerConnBurst: 3})
	hc := &client{t: t, base: srv.URL}
	var a table.Seated
	hc.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &a)
	c := wsDial(t, srv, a.Table)
	wsSend(t, c, `{"type": "hello"}`)
	wsRead(t, c)
	for i := 0; i < 6; i++ {
		wsSend(t, c, `{"type": "ping"}`)
	}
	pongs, limited := 0, 0
	for pongs+limited < 6 {
		switch m := wsRead(t, c); m.Type {
		case "pong":
			pongs++
		case "error":
			if m.Status != http.StatusTooManyRequests || !strings.Contains(m.Error, "slow down") {
				t.Fatalf("flood error %+v", m)
			}
			limited++
		}
	}
	if pongs > 4 || limited < 2 {
		t.Fatalf("%d pongs and %d refusals for 6 pings with a burst of 3", pongs, limited)
	}
}

func TestServeStatic(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	plain := NewHandler(f.s, limit.Limits{})
	withWeb := NewHandler(f.s, limit.Limits{})
	withWeb.ServeStatic(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "page ", r.URL.Path) }))
	a, _ := f.s.Create(context.Background(), nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	for _, tc := range []struct {
		h      *Handler
		path   string
		accept string
		status int
		says   string
	}{
		{plain, "/t/" + a.Table, "", 200, "To take an open seat"},
		{plain, "/lobby", "", 404, ""},
		{withWeb, "/t/" + a.Table, "text/html", 200, "page /t/" + a.Table},
		{withWeb, "/t/" + a.Table, "", 200, "To take an open seat"},
		{withWeb, "/lobby", "text/html", 200, "page /lobby"},
		{withWeb, "/api/v1/nothing", "", 404, "no such endpoint"},
		{withWeb, "/healthz", "", 200, "ok"},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", tc.path, nil)
		if tc.accept != "" {
			req.Header.Set("Accept", tc.accept)
		}
		tc.h.ServeHTTP(rec, req)
		if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.says) {
			t.Errorf("GET %s (Accept %q, web %v): %d %q", tc.path, tc.accept, tc.h == withWeb, rec.Code, rec.Body.String())
		}
	}
}

// TestWebSocketResume reconnects with the last version seen and gets every
// move since, once, then live updates. It is six moves behind, more than
// a table keeps at hand, so the moves come from replaying the record.
func TestWebSocketResume(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
	ctx := context.Background()
	a, _ := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me"}})
	pa := f.principal(a.Token)
	u, _ := f.s.View(ctx, pa, a.Table)
	seen := u.Version
	behind := []string{"guess 10", "guess 20", "guess 30", "guess 10", "guess 20", "guess 30"}
	if len(behind) <= table.RecentSteps {
		t.Fatalf("resume from %d moves back does not reach past the %d kept", len(behind), table.RecentSteps)
	}
	for _, m := range behind {
		if _, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: m}); err != nil {
			t.Fatal(err)
		}
	}
	c := wsDial(t, srv, a.Table)
	wsSend(t, c, fmt.Sprintf(`{"type": "hello", "token": %q, "version": %d}`, a.Token, seen))
	m := wsReadType(t, c, "update")
	n := len(behind)
	if len(m.Update.Moves) != n || m.Update.Moves[0].Version != seen+1 || m.Update.Moves[n-1].Move != "guess 30" || m.Update.Version != seen+n {
		t.Fatalf("resumed update: version %d, moves %+v", m.Update.Version, m.Update.Moves)
	}
	if _, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: "guess 40"}); err != nil {
		t.Fatal(err)
	}
	m = wsReadType(t, c, "update")
	if len(m.Update.Moves) != 1 || m.Update.Moves[0].Version != seen+n+1 {
		t.Fatalf("live update after the resume: %+v", m.Update.Moves)
	}
}

// TestEventsFromCurrentVersion: a stream asked from the version the table
// is already at answers at once with the table as it stands and no moves,
// then goes on with the next change (a client that saw version N and
// reconnects must not hang until somebody moves).
func TestEventsFromCurrentVersion(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
	ann := &client{t: t, base: srv.URL}
	var created table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", `{"game": "guess", "rules": {"max": 1000}, "seats": ["me", "open"], "name": "Ann"}`, &created); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	ann.token = created.Token
	var u jsonUpdate
	ann.do("GET", "/api/v1/tables/"+created.Table, nil, &u)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	updates := ann.stream(ctx, created.Table, u.Version)
	select {
	case first := <-updates:
		if first.Version != u.Version || len(first.Moves) != 0 {
			t.Fatalf("first update from version %d: version %d with %d moves", u.Version, first.Version, len(first.Moves))
		}
	case <-time.After(3 * time.Second):
		t.Fatalf("no first update from the current version %d within 3 s", u.Version)
	}
	ben := &client{t: t, base: srv.URL}
	if st, body := ben.do("POST", "/api/v1/tables/"+created.Table+"/join", `{"name": "Ben"}`, nil); st != 200 {
		t.Fatalf("join: %d %s", st, body)
	}
	select {
	case next := <-updates:
		if len(next.Table.Seats) != 2 || next.Table.Seats[1].Name != "Ben" {
			t.Fatalf("the update after the join: %+v", next.Table.Seats)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("no update after Ben joined")
	}
}

// BenchmarkRequestOverhead measures what the handler adds to every
// request, a move's included: the connection's and the identity's rate
// limits, the status count, and a move's counters and latency histogram,
// around a request that does nothing else (GET /healthz).
func BenchmarkRequestOverhead(b *testing.B) {
	f := &fixture{t: &testing.T{}, dir: b.TempDir()}
	f.open()
	defer f.close()
	lim := limit.Limits{PerConn: 1e9, PerConnBurst: 1e9, PerIdentity: 1e9, PerIdentityBurst: 1e9}
	h := NewHandler(f.s, lim)
	// The identity's limit, as a request that signs in counts it.
	byID := limit.NewKeyed(lim.PerIdentity, lim.PerIdentityBurst)
	r := httptest.NewRequest("GET", "/healthz", nil)
	r = r.WithContext(h.ConnContext(context.Background(), nil))
	w := discard{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, r)
		byID.Allow("some-identity")
		f.s.RateLimited()
	}
}

type discard struct{ h http.Header }

func (d discard) Header() http.Header         { return d.h }
func (d discard) Write(b []byte) (int, error) { return len(b), nil }
func (d discard) WriteHeader(int)             {}

// TestInviteTextSeatsTaken: a program that follows the invite link of a
// table with no open seat (a game under way, or over) is told so and how
// to follow the game or read its record, not how to take a seat it
// cannot have.
func TestInviteTextSeatsTaken(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	h := NewHandler(f.s, limit.Limits{})
	ctx := context.Background()
	open, _ := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	full, _ := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me"}})
	over, _ := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me"}})
	if _, err := f.s.Move(ctx, f.principal(over.Token), over.Table, table.MoveRequest{Move: "resign"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, id  string
		says, not string
	}{
		{"an open seat", open.Table, "/join", "/events"},
		{"every seat taken", full.Table, "/events", "/join"},
		{"the game over", over.Table, "/record", "/join"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/t/"+tc.id, nil))
		body := rec.Body.String()
		if rec.Code != http.StatusOK || !strings.Contains(body, tc.says) || strings.Contains(body, tc.not) {
			t.Errorf("%s: %d %q, want it to hold %q and not %q", tc.name, rec.Code, body, tc.says, tc.not)
		}
	}
}

// TestReadyz: a node answers GET /readyz "ready" while its store answers,
// and 503 naming the store, without its error, once the store takes no
// more writes; /healthz still says the process serves.
func TestReadyz(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
	c := &client{t: t, base: srv.URL}
	if st, body := c.do("GET", "/readyz", nil, nil); st != 200 || body != "ready\n" {
		t.Fatalf("readyz: %d %q", st, body)
	}
	if err := f.db.Close(); err != nil {
		t.Fatal(err)
	}
	if st, body := c.do("GET", "/readyz", nil, nil); st != 503 || body != "not ready: the store does not answer\n" {
		t.Errorf("readyz with the store closed: %d %q", st, body)
	}
	if st, body := c.do("GET", "/healthz", nil, nil); st != 200 || body != "ok\n" {
		t.Errorf("healthz with the store closed: %d %q", st, body)
	}
}
