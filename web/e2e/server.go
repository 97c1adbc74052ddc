// Package e2e is the harness of Parlour's browser tests: it drives the
// browser client in real Chromium against a real server on a loopback
// port, where people play whole games against each other from separate
// browser contexts, and lets a test check what each screen shows after
// every move, what each browser received, and how fast a move reaches
// the other screen.
//
// The tests live in seven packages by what they cover, so that each
// test binary stays well inside go test's default timeout on a small
// machine when go test runs two of them at once: web/e2e/games (each
// game's screens), web/e2e/keyboard (playing them by the keyboard alone
// and with a screen reader), web/e2e/tables (what surrounds play at a
// table), web/e2e/accounts (players' accounts), web/e2e/daily (the daily
// puzzles), web/e2e/challenges (how players find each other for a game)
// and web/e2e/tournaments (the events).
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/games"
	"parlour/server"
	"parlour/server/limit"
	"parlour/server/table"
	"parlour/store/sqlite"
	"parlour/web"
)

// TestServer is the table service with its embedded store in a temporary
// directory, its API and the browser client on one loopback port, put
// together as parlour serve does.
type TestServer struct {
	t    testing.TB
	Base string
	addr string
	DB   string
	stop func()
	// conf, if set, changes the service's configuration before it starts.
	conf func(*server.Config)
	// wrap, if set, stands in front of the server's handler: a route the
	// server does not serve yet, answered by the test.
	wrap func(http.Handler) http.Handler
}

// StartServer starts a server for the test and returns its base URL.
func StartServer(t testing.TB) string { return NewTestServer(t).Base }

// NewTestServer starts a server for the test, as parlour serve starts
// one with its defaults, and stops it when the test ends.
func NewTestServer(t testing.TB) *TestServer { return NewConfiguredServer(t, nil) }

// NewConfiguredServer is NewTestServer with conf applied to the
// service's configuration, as an operator's settings would be.
func NewConfiguredServer(t testing.TB, conf func(*server.Config)) *TestServer {
	t.Helper()
	return NewWrappedServer(t, conf, nil)
}

// NewWrappedServer is NewConfiguredServer with wrap in front of the
// server's handler.
func NewWrappedServer(t testing.TB, conf func(*server.Config), wrap func(http.Handler) http.Handler) *TestServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &TestServer{t: t, addr: ln.Addr().String(), DB: filepath.Join(t.TempDir(), "parlour.db"), conf: conf, wrap: wrap}
	s.Base = "http://" + s.addr
	s.start(ln)
	t.Cleanup(func() { s.stop() })
	return s
}

func (s *TestServer) start(ln net.Listener) {
	t := s.t
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, err := sqlite.Open(ctx, s.DB, sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatalf("opening the store: %v", err)
	}
	cfg := server.Config{Store: st, Games: games.Registry(), NewBot: games.NewBot, BaseURL: s.Base}
	if s.conf != nil {
		s.conf(&cfg)
	}
	svc, err := server.New(ctx, cfg)
	if err != nil {
		t.Fatalf("starting the table service: %v", err)
	}
	api := server.NewHandler(svc, limit.Limits{})
	api.ServeStatic(web.Handler())
	var hd http.Handler = api
	if s.wrap != nil {
		hd = s.wrap(api)
	}
	srv := &http.Server{Handler: hd, ConnContext: api.ConnContext}
	go srv.Serve(ln)
	// In the order parlour serve stops: the service closes before the
	// HTTP server, so that the open player streams end and Shutdown does
	// not wait for them.
	s.stop = func() {
		api.CloseSockets("the server is stopping")
		svc.Close()
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		if srv.Shutdown(sctx) != nil {
			// A request still under way after 5 s (one that reached the
			// server as it stopped) is cut off, as the end of the process
			// cuts it off in parlour serve: left open, its page would wait
			// on the stopped server for good instead of trying again.
			srv.Close()
		}
		scancel()
		st.Close()
		cancel()
	}
}

// Restart stops the server and starts it again on the same port and the
// same data, as an operator would after a crash or an upgrade.
// while runs while the server is down.
func (s *TestServer) Restart(while func()) {
	s.t.Helper()
	s.stop()
	while()
	var ln net.Listener
	var err error
	for range 50 {
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		s.t.Fatalf("listening again on %s: %v", s.addr, err)
	}
	s.start(ln)
}

// ServerMetric reads one metric of the server at base from /metrics.
func ServerMetric(t testing.TB, base, name string) float64 {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /metrics", name)
	return 0
}

// API sends one request to the server's HTTP API and answers the status
// and the body.
func API(t *testing.T, base, method, path, token string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, base+"/api/v1"+path, r)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// JumpClock is the system's clock, but one the test can move forward at
// once: the server then sees the time as later by that much, and the
// calls it scheduled that fall due by then run. A minute of a game's
// clock passes without a minute of the test.
type JumpClock struct {
	mu     sync.Mutex
	skew   time.Duration
	timers []*jumpTimer
}

type jumpTimer struct {
	c    *JumpClock
	at   time.Time
	f    func()
	real *time.Timer
	done bool // fired or stopped
}

// Now returns the system's time moved forward by every Jump so far.
func (c *JumpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.skew)
}

// AfterFunc calls f after d, or at the Jump that passes its time.
func (c *JumpClock) AfterFunc(d time.Duration, f func()) table.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	jt := &jumpTimer{c: c, at: time.Now().Add(c.skew + d), f: f}
	jt.real = time.AfterFunc(d, jt.fire)
	c.timers = append(c.timers, jt)
	return jt
}

func (jt *jumpTimer) fire() {
	jt.c.mu.Lock()
	if jt.done {
		jt.c.mu.Unlock()
		return
	}
	jt.done = true
	jt.c.mu.Unlock()
	jt.f()
}

// Stop keeps the call from running and reports whether it had not yet.
func (jt *jumpTimer) Stop() bool {
	jt.c.mu.Lock()
	defer jt.c.mu.Unlock()
	was := !jt.done
	jt.done = true
	jt.real.Stop()
	return was
}

// JumpToTomorrow moves the clock to noon (UTC) of the day after its
// today, where the daily puzzles' day has turned once: a fixed jump of 25
// hours taken in a day's last hour lands two days on.
func (c *JumpClock) JumpToTomorrow() {
	now := c.Now().UTC()
	c.Jump(time.Date(now.Year(), now.Month(), now.Day()+1, 12, 0, 0, 0, time.UTC).Sub(now))
}

// Jump moves the clock forward by d and runs the calls due by then.
func (c *JumpClock) Jump(d time.Duration) {
	c.mu.Lock()
	c.skew += d
	now := time.Now().Add(c.skew)
	var due, kept []*jumpTimer
	for _, jt := range c.timers {
		switch {
		case jt.done:
		case !jt.at.After(now):
			due = append(due, jt)
		default:
			kept = append(kept, jt)
		}
	}
	c.timers = kept
	c.mu.Unlock()
	for _, jt := range due {
		jt.fire()
	}
}
