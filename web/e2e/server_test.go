// Package e2e drives Parlour's browser client in real Chromium against a
// real server on a loopback port: people play whole games against each
// other from separate browser contexts, and the tests check what each
// screen shows after every move, what each browser received, and how
// fast a move reaches the other screen.
package e2e

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"parlour/games"
	"parlour/server"
	"parlour/server/limit"
	"parlour/store/sqlite"
	"parlour/web"
)

// testServer is the table service with its embedded store in a temporary
// directory, its API and the browser client on one loopback port, put
// together as parlour serve does.
type testServer struct {
	t    testing.TB
	base string
	addr string
	db   string
	stop func()
	// conf, if set, changes the service's configuration before it starts.
	conf func(*server.Config)
	// wrap, if set, stands in front of the server's handler: a route the
	// server does not serve yet, answered by the test.
	wrap func(http.Handler) http.Handler
}

// startServer starts a server for the test and returns its base URL.
func startServer(t testing.TB) string { return newTestServer(t).base }

func newTestServer(t testing.TB) *testServer { return newConfiguredServer(t, nil) }

// newConfiguredServer is newTestServer with conf applied to the
// service's configuration, as an operator's settings would be.
func newConfiguredServer(t testing.TB, conf func(*server.Config)) *testServer {
	t.Helper()
	return newWrappedServer(t, conf, nil)
}

// newWrappedServer is newConfiguredServer with wrap in front of the
// server's handler.
func newWrappedServer(t testing.TB, conf func(*server.Config), wrap func(http.Handler) http.Handler) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &testServer{t: t, addr: ln.Addr().String(), db: filepath.Join(t.TempDir(), "parlour.db"), conf: conf, wrap: wrap}
	s.base = "http://" + s.addr
	s.start(ln)
	t.Cleanup(func() { s.stop() })
	return s
}

func (s *testServer) start(ln net.Listener) {
	t := s.t
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, err := sqlite.Open(ctx, s.db, sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatalf("opening the store: %v", err)
	}
	cfg := server.Config{Store: st, Games: games.Registry(), NewBot: games.NewBot, BaseURL: s.base}
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
		srv.Shutdown(sctx)
		scancel()
		st.Close()
		cancel()
	}
}

// restart stops the server and starts it again on the same port and the
// same data, as an operator would after a crash or an upgrade.
// while runs while the server is down.
func (s *testServer) restart(while func()) {
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

// serverMetric reads one metric of the server at base from /metrics.
func serverMetric(t testing.TB, base, name string) float64 {
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
