package loadtest

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"parlour/games"
	"parlour/server"
	"parlour/server/limit"
	"parlour/store/sqlite"
)

// testServer starts a server in the test over a new SQLite store, and
// returns its URL.
func testServer(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := server.New(ctx, server.Config{Store: db, Games: games.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h := server.NewHandler(s, limit.Limits{})
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.CloseSockets("test over")
		srv.Close()
	})
	return srv.URL
}

// small is a short, slow load test of srv: 8 tables at 40 moves a
// second for a second, over 4 identities and 4 connections.
func small(srv string) Config {
	return Config{
		Servers: []string{srv}, Tables: 8, Rates: []float64{40}, Duration: time.Second,
		Identities: 4, Conns: 4, Verify: true, Stagger: true, ViewTails: true,
	}
}

// runSmall runs c, printing its progress in the test's log, and checks
// that what it printed as it went is the report it returned.
func runSmall(t *testing.T, c Config) *Report {
	t.Helper()
	var progress bytes.Buffer
	c.Progress = &progress
	rep, err := Run(context.Background(), c)
	t.Logf("%s", progress.String())
	if err != nil {
		t.Fatal(err)
	}
	var printed bytes.Buffer
	rep.Print(&printed)
	if printed.String() != progress.String() {
		t.Fatalf("the report printed\n%s\nbut the progress was\n%s", printed.String(), progress.String())
	}
	return rep
}

// TestRunTransports runs a short, slow load test over each door against
// a server in the test: every move is accepted and found in the records
// afterwards, and over sockets the updates are pushed to both seats
// (about two a move: the mover's and the opponent's).
func TestRunTransports(t *testing.T) {
	srv := testServer(t)
	for _, c := range []struct {
		name       string
		transport  Transport
		tables     int
		rate       float64
		newSockets bool
		// ends is set when games end in the run (two tables at 200 moves
		// a second end a game or two each), and moveOn says what becomes
		// of their sockets: true, they move on to the tables that replace
		// them; false, new ones are opened.
		ends, moveOn bool
	}{
		{"http", TransportHTTP, 8, 40, false, false, false},
		{"ws", TransportWS, 8, 40, false, false, false},
		{"ws games ending", TransportWS, 2, 200, false, true, true},
		{"ws games ending, new sockets", TransportWS, 2, 200, true, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := small(srv)
			cfg.Transport, cfg.Tables, cfg.Rates, cfg.NewSockets = c.transport, c.tables, []float64{c.rate}, c.newSockets
			rep := runSmall(t, cfg)
			r := allAccepted(t, rep)
			if runtime.GOOS == "linux" && r.Machine == nil {
				t.Fatal("no figure of how busy the machine was")
			}
			if c.transport == TransportHTTP {
				if r.Sockets != nil {
					t.Fatalf("sockets counted over HTTP: %+v", r.Sockets)
				}
				return
			}
			if r.Sockets == nil {
				t.Fatal("no count of the updates pushed")
			}
			if n := float64(r.Sockets.Pushed) / float64(r.Accepted); n < 1.5 {
				t.Fatalf("%v updates a move, want about 2 (both seats)", n)
			}
			opened, movedOn := r.Sockets.Opened, r.Sockets.MovedOn
			switch {
			case c.ends && c.moveOn && (opened != 0 || movedOn == 0):
				t.Fatalf("%d sockets opened and %d moved on: want every game's sockets moved on", opened, movedOn)
			case c.ends && !c.moveOn && (opened == 0 || movedOn != 0):
				t.Fatalf("%d sockets opened and %d moved on: want new sockets for every game", opened, movedOn)
			}
		})
	}
}

// allAccepted checks that rep has one run, in which every move sent was
// accepted, and all of them were found in the records; it returns the run.
func allAccepted(t *testing.T, rep *Report) *RunReport {
	t.Helper()
	if len(rep.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(rep.Runs))
	}
	r := rep.Runs[0]
	if r.Accepted == 0 || r.Accepted != r.Sent || r.Refused != 0 || r.Errors != 0 || rep.Failed() {
		t.Fatalf("sent %d, accepted %d, refused %d, errors %d: want every move accepted", r.Sent, r.Accepted, r.Refused, r.Errors)
	}
	if int64(len(r.Latencies)) != r.Sent {
		t.Fatalf("%d latencies for %d moves", len(r.Latencies), r.Sent)
	}
	// The store's commits are read from the server's /metrics.
	if r.Store == nil || r.Store.Commits == 0 || r.Store.Writes < r.Store.Commits {
		t.Fatalf("store %+v: want the commits of the run counted", r.Store)
	}
	if rep.Durable == nil || rep.Durable.Moves < int(r.Accepted) {
		t.Fatalf("durability %+v, want at least the %d moves of the run checked", rep.Durable, r.Accepted)
	}
	return r
}

// TestRunChat posts chat lines beside the moves: every line posted is
// accepted, none lost.
func TestRunChat(t *testing.T) {
	cfg := small(testServer(t))
	cfg.Chat = 4
	r := allAccepted(t, runSmall(t, cfg))
	if c := r.Chat; c == nil || c.Sent == 0 || c.Accepted != c.Sent || len(c.Refused) != 0 || c.Errors != 0 {
		t.Fatalf("chat %+v: want every line accepted", c)
	}
}

// TestRunRated plays rated tables between accounts: every move accepted,
// and the games that ended moved their players' ratings.
func TestRunRated(t *testing.T) {
	cfg := small(testServer(t))
	cfg.Tables, cfg.Rates, cfg.Rated = 4, []float64{200}, true
	rep := runSmall(t, cfg)
	allAccepted(t, rep)
	if rep.Ratings == nil || rep.Ratings.Accounts != 4 || rep.Ratings.Games == 0 {
		t.Fatalf("ratings %+v: want rated games finished across 4 accounts", rep.Ratings)
	}
}

// TestRunIdleSockets opens idle spectator sockets instead of the runs:
// their heap is reported, and nothing is played.
func TestRunIdleSockets(t *testing.T) {
	cfg := small(testServer(t))
	cfg.Tables, cfg.IdleSockets = 2, 20
	rep := runSmall(t, cfg)
	if rep.IdleSockets == nil || rep.IdleSockets.Sockets != 20 || rep.IdleSockets.Tables != 2 || len(rep.Runs) != 0 {
		t.Fatalf("idle sockets %+v and %d runs, want 20 sockets on 2 tables and no run", rep.IdleSockets, len(rep.Runs))
	}
	var out strings.Builder
	rep.Print(&out)
	if !regexp.MustCompile(`20 idle sockets .*heap [-+]\d+ bytes a socket`).MatchString(out.String()) {
		t.Fatalf("printed %s", out.String())
	}
}

// TestRunIdleCPU reads the server's CPU each second with idle tables
// and sockets open: the tables are the idle ones alone, and the sockets
// are spread over them.
func TestRunIdleCPU(t *testing.T) {
	cfg := small(testServer(t))
	// The server runs in the test's own process.
	cfg.IdleTables, cfg.IdleSockets, cfg.IdleCPU, cfg.ServerPIDs = 3, 6, 2*time.Second, []int{os.Getpid()}
	rep := runSmall(t, cfg)
	ic := rep.IdleCPU
	if ic == nil || ic.Tables != 3 || ic.Sockets != 6 || len(ic.Seconds) != 2 || len(rep.Runs) != 0 || rep.Prepared.Tables != 0 {
		t.Fatalf("idle CPU %+v, prepared %+v and %d runs; want 2 seconds of 3 tables and 6 sockets, no other table, no run", ic, rep.Prepared, len(rep.Runs))
	}
	var out strings.Builder
	rep.Print(&out)
	if !regexp.MustCompile(`idle CPU over 2 s, 3 tables, 6 sockets, no moves: median \d+\.\d\d% of a processor`).MatchString(out.String()) {
		t.Fatalf("printed %s", out.String())
	}
}

// TestRunIdleTables opens idle tables instead of the runs: their heap
// and, given the server's process (this test's: the server runs in it),
// its resident set are reported per table, and nothing else is played.
func TestRunIdleTables(t *testing.T) {
	cfg := small(testServer(t))
	cfg.Tables, cfg.IdleTables, cfg.ServerPIDs = 1, 6, []int{os.Getpid()}
	rep := runSmall(t, cfg)
	it := rep.IdleTables
	if it == nil || it.Tables != 6 || len(rep.Runs) != 0 {
		t.Fatalf("idle tables %+v and %d runs, want 6 tables and no run", it, len(rep.Runs))
	}
	if runtime.GOOS == "linux" && !it.ResidentKnown {
		t.Fatal("the resident set of the server's process was not read")
	}
	var out strings.Builder
	rep.Print(&out)
	want := `6 idle tables \(10 moves in\) over 1 node\(s\): heap [-+]\d+ bytes a table, [-+][\d.]+ goroutines a table`
	if it.ResidentKnown {
		want += `, resident set [-+]\d+ bytes a table`
	}
	if it.ResidentKnown && it.SpansKnown {
		want += `.*\n  of the resident set, a table: the heap's spans [-+]\d+ bytes, stacks [-+]\d+, the rest \(the store's caches, the runtime\) [-+]\d+\n`
	}
	if !regexp.MustCompile(want).MatchString(out.String()) {
		t.Fatalf("printed %s", out.String())
	}
}

// TestRunRefusesConfig: a configuration that makes no sense is refused
// before anything is sent, with a word of what is wrong.
func TestRunRefusesConfig(t *testing.T) {
	t.Parallel()
	good := small("http://127.0.0.1:1")
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no server", func(c *Config) { c.Servers = nil }, "loopback"},
		{"a server elsewhere", func(c *Config) { c.Servers = []string{"http://10.0.0.1:8080"} }, "loopback"},
		{"a rate of nothing", func(c *Config) { c.Rates = []float64{0} }, "rates must be positive"},
		{"a route unknown", func(c *Config) { c.Route = "nodes" }, `route must be seats or table, not "nodes"`},
		{"a transport unknown", func(c *Config) { c.Transport = "udp" }, `transport must be http or ws`},
		{"chat beyond the identities", func(c *Config) { c.Chat = 5 }, "chat must be from 0 to the identities (4)"},
		{"chat below nothing", func(c *Config) { c.Chat = -1 }, "chat must be from 0"},
		{"no table", func(c *Config) { c.Tables = 0 }, "tables must be 1 or more"},
		{"one identity", func(c *Config) { c.Identities = 1 }, "identities 2 or more"},
		{"no time", func(c *Config) { c.Duration = 0 }, "duration positive"},
		{"no connection", func(c *Config) { c.Conns = 0 }, "connections must be 1 or more"},
		{"a pid of nothing", func(c *Config) { c.ServerPIDs = []int{0} }, "server pids must be process ids"},
		{"idle CPU without pids", func(c *Config) { c.IdleCPU = time.Minute }, "idle CPU needs the servers' process ids"},
		{"idle CPU of a second", func(c *Config) { c.IdleCPU, c.ServerPIDs = time.Second, []int{1} }, "2 seconds or more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := good
			tc.edit(&c)
			rep, err := Run(context.Background(), c)
			if err == nil || !strings.Contains(err.Error(), tc.want) || rep != nil {
				t.Fatalf("Run: %v, %v; want no report and an error saying %q", rep, err, tc.want)
			}
		})
	}
	if err := good.Check(); err != nil {
		t.Fatalf("the good config refused: %v", err)
	}
}
