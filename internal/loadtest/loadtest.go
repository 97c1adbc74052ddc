// Package loadtest drives running Parlour servers with scripted Quizl
// players and measures how they carry the load.
//
// Run plays an open-loop schedule of moves at a fixed aggregate rate over
// many live tables, measuring each move's acknowledgement from the time it
// was due, then checks that every acknowledged move is in its table's
// record. Given several nodes of a cluster, it spreads the tables and the
// connections over them: each table is made through one node (which owns
// it) and joined through the next, its first seat plays through the node
// it was made on and its second through the next one, so that half the
// moves reach a node that forwards them to the owner; the records are read
// back through yet another node. With RouteTable, every request about a
// table after its making goes through the node its id picks, as behind a
// balancer that hashes the table's path.
package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Route is how requests are spread over several nodes.
type Route string

const (
	// RouteSeats makes each table through one node and joins it through
	// the next, each seat playing through the node it was seated through,
	// as behind a balancer that spreads clients.
	RouteSeats Route = "seats"
	// RouteTable sends every request about a table through the node its
	// id picks, as behind a balancer that hashes the table's path.
	RouteTable Route = "table"
)

// Transport is how the moves go.
type Transport string

const (
	// TransportHTTP posts each move to .../moves on kept-alive
	// connections.
	TransportHTTP Transport = "http"
	// TransportWS sends each move on a WebSocket per seat, answered by
	// the server's ack; the updates pushed to both seats are read and
	// counted.
	TransportWS Transport = "ws"
)

// Config is what one load test does. The zero value of each field is
// refused where it makes no sense; the command's flags say the usual
// values.
type Config struct {
	// Servers are the base URLs (http://host:port) of the server or of
	// the nodes of a cluster: loopback addresses only, none twice.
	Servers []string
	// Tables is how many live tables to keep playing.
	Tables int
	// Rates are the aggregate moves a second, each run in turn.
	Rates []float64
	// Duration is how long each rate runs.
	Duration time.Duration
	// Identities is how many guest identities (or accounts, with Rated)
	// the scripted players share: 2 or more.
	Identities int
	// Conns is how many HTTP connections the moves share.
	Conns int
	// ServerPIDs are the servers' process ids, in the order of Servers,
	// to report the CPU they spend per move (Linux); none, not to.
	ServerPIDs []int
	// Verify checks every acknowledged move against the records after
	// the runs.
	Verify bool
	// CPUProfile, if not nil, receives a CPU profile of the runs (not of
	// the preparation).
	CPUProfile io.Writer
	// Stagger plays each table a random part of a game before the clock
	// starts, so that games end at a steady rate rather than all at once.
	Stagger bool
	// Timeline, if positive, adds the latency of each slice of this
	// length of a run to its report.
	Timeline time.Duration
	// Route is how requests are spread over several nodes (default
	// RouteSeats).
	Route Route
	// Transport is how the moves go (default TransportHTTP).
	Transport Transport
	// NewSockets, over TransportWS, opens two new sockets for each new
	// table and closes them when its game ends, as a client from before
	// sockets could move on does; otherwise the sockets of a table whose
	// game ended move on to the table that replaces it.
	NewSockets bool
	// ViewTails, over TransportWS, asks for view tails in each socket's
	// hello as the browser does.
	ViewTails bool
	// Rated makes the scripted players accounts (signed up first: slow)
	// and every table rated, so that each game's end updates two ratings.
	Rated bool
	// Chat is the players' chat lines a second posted beside the moves
	// (0: none); each identity may post one a second.
	Chat float64
	// IdleSockets, instead of the runs, opens this many idle spectator
	// sockets onto the tables and reports the servers' memory per socket.
	IdleSockets int
	// IdleTables, instead of the runs, opens this many more tables, plays
	// each a few moves, and reports the heap and goroutines the servers
	// hold per idle table (and their resident sets, with ServerPIDs).
	IdleTables int
	// IdleSettle is how long the servers are left quiet before the
	// readings of IdleTables (0: 3 seconds): longer than a server's
	// --park-after, the tables are measured once they have left memory.
	IdleSettle time.Duration
	// IdleCPU, instead of the runs, opens IdleTables tables played a few
	// moves and IdleSockets spectator sockets onto them (onto Tables live
	// tables, without IdleTables), lets the servers settle, and then reads
	// their CPU time (ServerPIDs, required) each second for this long,
	// reporting the median and percentiles of the CPU each second took:
	// what the servers spend while nothing happens.
	IdleCPU time.Duration
	// Progress, if not nil, receives each part of the report as soon as
	// it is known, in the words Report.Print uses: a run of several
	// rates shows each one as it ends.
	Progress io.Writer
}

// Check says what is wrong with c, if anything, naming the field.
func (c Config) Check() error {
	_, err := c.check()
	return err
}

// check returns the nodes c names, or what is wrong with c.
func (c Config) check() ([]node, error) {
	nodes, err := parseNodes(c.Servers)
	if err != nil {
		return nil, fmt.Errorf("servers %w", err)
	}
	for _, r := range c.Rates {
		if !(r > 0) {
			return nil, fmt.Errorf("rates must be positive, not %v", r)
		}
	}
	for _, pid := range c.ServerPIDs {
		if pid <= 0 {
			return nil, fmt.Errorf("server pids must be process ids, not %d", pid)
		}
	}
	switch {
	case c.Route != "" && c.Route != RouteSeats && c.Route != RouteTable:
		return nil, fmt.Errorf("route must be %s or %s, not %q", RouteSeats, RouteTable, c.Route)
	case c.Transport != "" && c.Transport != TransportHTTP && c.Transport != TransportWS:
		return nil, fmt.Errorf("transport must be %s or %s, not %q", TransportHTTP, TransportWS, c.Transport)
	case c.Chat < 0 || c.Chat > float64(c.Identities):
		return nil, fmt.Errorf("chat must be from 0 to the identities (%d) lines a second: each identity may post one line a second", c.Identities)
	case c.Tables < 1 || c.Identities < 2 || c.Duration <= 0:
		return nil, errors.New("tables must be 1 or more, identities 2 or more, the duration positive")
	case c.Conns < 1:
		return nil, errors.New("connections must be 1 or more")
	case c.IdleCPU < 0 || c.IdleCPU > 0 && c.IdleCPU < 2*time.Second:
		return nil, errors.New("idle CPU must be 2 seconds or more: it is read each second")
	case c.IdleSettle < 0:
		return nil, errors.New("the idle settle must not be negative")
	case c.IdleCPU > 0 && len(c.ServerPIDs) == 0:
		return nil, errors.New("idle CPU needs the servers' process ids")
	}
	return nodes, nil
}

// Run prepares the identities and tables, then plays each of c.Rates for
// c.Duration (or, with c.IdleSockets or c.IdleTables, measures idle
// sockets or tables instead), and returns the report. On an error it
// returns the report so far beside it. A run in which a move was refused
// or failed is no error: Report.Failed says so.
func Run(ctx context.Context, c Config) (*Report, error) {
	nodes, err := c.check()
	if err != nil {
		return nil, err
	}
	t := newTester(c, nodes)
	defer t.close()
	rep := &Report{}
	live := c.Tables
	if c.IdleCPU > 0 && c.IdleTables > 0 {
		live = 0 // the idle tables are all there are
	}
	if rep.Prepared, err = t.prepare(ctx, c.Identities, live); err != nil {
		return rep, err
	}
	t.emit(rep.Prepared)
	switch {
	case c.IdleCPU > 0:
		if rep.IdleCPU, err = t.idleCPU(ctx, c.IdleTables, c.IdleSockets, c.IdleCPU, c.ServerPIDs); err != nil {
			return rep, err
		}
		t.emit(rep.IdleCPU)
		return rep, nil
	case c.IdleSockets > 0:
		if rep.IdleSockets, err = t.idleSockets(ctx, c.IdleSockets, c.ServerPIDs); err != nil {
			return rep, err
		}
		t.emit(rep.IdleSockets)
		return rep, nil
	case c.IdleTables > 0:
		if rep.IdleTables, err = t.idleTables(ctx, c.IdleTables, c.IdleSettle, c.ServerPIDs); err != nil {
			return rep, err
		}
		t.emit(rep.IdleTables)
		return rep, nil
	}
	if err := t.runRates(ctx, rep); err != nil {
		return rep, err
	}
	if c.Verify {
		n, err := t.verify(ctx)
		if err != nil {
			return rep, err
		}
		rep.Durable = &Durability{Moves: n}
		t.emit(rep.Durable)
	}
	if c.Rated {
		if rep.Ratings, err = t.ratings(ctx); err != nil {
			return rep, err
		}
		t.emit(rep.Ratings)
	}
	return rep, nil
}

// runRates plays each rate in turn, each run's report added to rep as it
// ends, under the CPU profile if one was asked for.
func (t *tester) runRates(ctx context.Context, rep *Report) error {
	if t.cfg.CPUProfile != nil {
		if err := pprof.StartCPUProfile(t.cfg.CPUProfile); err != nil {
			return fmt.Errorf("starting the CPU profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	for _, r := range t.cfg.Rates {
		rr, err := t.measure(ctx, r)
		if err != nil {
			return err
		}
		rep.Runs = append(rep.Runs, rr)
		t.emit(rr)
	}
	return nil
}

// part is one part of a report, printed in its place.
type part interface{ print(w io.Writer) }

// emit writes p to the progress writer, if there is one.
func (t *tester) emit(p part) {
	if t.cfg.Progress != nil {
		p.print(t.cfg.Progress)
	}
}

func isLoopback(host string) bool {
	return host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1"
}

// node is one server the tool drives: the server, or one node of a
// cluster.
type node struct {
	base string // http://host:port, no slash at the end
	addr string // host:port the moves are sent to
	host string // the Host header
}

// parseNodes reads the servers' URLs: one or several, each of a loopback
// address and none twice.
func parseNodes(urls []string) ([]node, error) {
	if len(urls) == 0 {
		urls = []string{""}
	}
	var nodes []node
	seen := map[string]bool{}
	for _, b := range urls {
		b = strings.TrimRight(strings.TrimSpace(b), "/")
		u, err := url.Parse(b)
		if err != nil || u.Scheme != "http" || !isLoopback(u.Hostname()) {
			return nil, fmt.Errorf("must name loopback addresses (http://localhost, 127.x.x.x, [::1]), not %q", b)
		}
		if seen[u.Host] {
			return nil, fmt.Errorf("names %s twice", u.Host)
		}
		seen[u.Host] = true
		n := node{base: b, addr: u.Host, host: u.Host}
		if u.Port() == "" {
			n.addr = net.JoinHostPort(u.Hostname(), "80")
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

// tester is one load test's state: the nodes, the identities, and the
// tables played.
type tester struct {
	cfg    Config
	nodes  []node // the server, or the nodes of a cluster
	conns  int    // connections the moves share
	hc     *http.Client
	tokens []string          // identity tokens
	grids  []json.RawMessage // setups the scripted players hide
	live   int               // tables played at once

	byTable  bool     // every request about a table through one node
	ws       bool     // moves go over a WebSocket per seat
	accounts []string // the scripted accounts' names, with Rated
	pushes   atomic.Int64
	// opened and movedOn count the sockets opened and those moved on
	// to another table.
	opened, movedOn atomic.Int64

	mu    sync.Mutex
	all   []*table // every table played, for the durability check
	spare chan *table
	made  atomic.Int64
	// firstRefusal keeps the first answer that was not an acceptance, to
	// show what went wrong.
	firstRefusal atomic.Value
}

func newTester(c Config, nodes []node) *tester {
	return &tester{
		cfg:   c,
		nodes: nodes,
		hc: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			MaxIdleConns: c.Conns, MaxIdleConnsPerHost: c.Conns, MaxConnsPerHost: c.Conns,
		}},
		conns:   max(1, min(c.Conns, c.Tables)),
		byTable: c.Route == RouteTable,
		ws:      c.Transport == TransportWS,
	}
}

// close closes the sockets of every table played, and the idle
// connections of the client that made them.
func (t *tester) close() {
	t.mu.Lock()
	for _, tb := range t.all {
		tb.closeSeats()
	}
	t.mu.Unlock()
	t.hc.CloseIdleConnections()
}

// noteRefusal remembers the first answer to a move that was not 200 OK.
func (t *tester) noteRefusal(status int, body []byte) {
	t.firstRefusal.CompareAndSwap(nil, fmt.Sprintf("%d %s", status, bytes.TrimSpace(body)))
}

// refusal returns the first answer that was not an acceptance, or "".
func (t *tester) refusal() string {
	s, _ := t.firstRefusal.Load().(string)
	return s
}

func (t *tester) post(ctx context.Context, path, token string, body, out any) (int, error) {
	return t.postAt(ctx, 0, path, token, body, out)
}

// postAt posts through node i.
func (t *tester) postAt(ctx context.Context, i int, path, token string, body, out any) (int, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", t.nodes[i].base+path, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return t.do(req, out)
}

func (t *tester) get(ctx context.Context, path, token string, out any) (int, error) {
	return t.getAt(ctx, 0, path, token, out)
}

// getAt gets through node i.
func (t *tester) getAt(ctx context.Context, i int, path, token string, out any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", t.nodes[i].base+path, nil)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return t.do(req, out)
}

func (t *tester) do(req *http.Request, out any) (int, error) {
	res, err := t.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, err
	}
	if res.StatusCode >= 300 {
		return res.StatusCode, fmt.Errorf("%s %s: %d %s", req.Method, req.URL.Path, res.StatusCode, bytes.TrimSpace(b))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return res.StatusCode, err
		}
	}
	return res.StatusCode, nil
}

// sleep waits for d or until ctx is done, and says which.
func sleep(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
