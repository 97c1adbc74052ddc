package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"parlour/games/quizl"
	"parlour/lexicon"
)

// runLoadtest drives a running server over loopback with scripted Quizl
// players: an open-loop schedule of moves at a fixed aggregate rate over
// many live tables, measuring each move's acknowledgement from the time it
// was due, then checking that every acknowledged move is in its table's
// record.
//
// Given several nodes of a cluster (--url A,B,C), it spreads the tables
// and the connections over them: each table is made through one node
// (which owns it) and joined through the next, its first seat plays
// through the node it was made on and its second through the next one, so
// that half the moves reach a node that forwards them to the owner; the
// records are read back through yet another node. With --route table,
// every request about a table after its making goes through the node its
// id picks, as behind a balancer that hashes the table's path.
func runLoadtest(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("url", "http://localhost:8080", "the server to drive (loopback only); the nodes of a cluster, comma-separated, to spread the tables and connections over them")
	tables := fs.Int("tables", 1000, "live tables to keep playing")
	rates := fs.String("rate", "5000", "aggregate moves per second; a comma-separated list runs each in turn")
	dur := fs.Duration("duration", 20*time.Second, "how long to run each rate")
	identities := fs.Int("identities", 200, "guest identities the scripted players share")
	conns := fs.Int("conns", 64, "HTTP connections to keep open (it opens up to twice this many; above about 120, start the server with a --conns-per-addr to match)")
	serverPIDs := fs.String("server-pid", "", "the server's process id, to report the CPU it spends per move (Linux); with several nodes, their ids, comma-separated")
	procs := fs.Int("procs", 0, "CPUs the tool's goroutines run on at once (GOMAXPROCS; 0: all). One leaves more to the server but makes the answers that arrive together wait for each other in the tool, which counts in the latency it measures")
	verify := fs.Bool("verify", true, "check every acknowledged move against the records afterwards")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the load tool's runs (not its preparation) to this file")
	stagger := fs.Bool("stagger", true, "before the clock starts, play each table a random part of a game, so that games end at a steady rate rather than all at once")
	timeline := fs.Duration("timeline", 0, "also print the latency of each slice of this length of the run (e.g. 1s), to see when the slow moves came")
	route := fs.String("route", "seats", `with several nodes, how requests are spread: "seats" (each table made through one node and joined through the next, each seat playing through the node it was seated through, as behind a balancer that spreads clients) or "table" (every request about a table through the node its id picks, as behind a balancer that hashes the table's path)`)
	transport := fs.String("transport", "http", `how the moves go: "http" (POST .../moves on kept-alive connections) or "ws" (a WebSocket per seat, each move answered by the server's ack, the updates pushed to both seats read and counted, a finished table's sockets moved on to the next: see --new-sockets); with ws, start the server with --conns-per-addr above 5 times --tables`)
	newSockets := fs.Bool("new-sockets", false, `with --transport ws, open two new sockets for each new table, and close its sockets when its game ends, as a client from before sockets could move on does; by default the sockets of a table whose game ended move on to the table that replaces it (a later hello naming it)`)
	tails := fs.Bool("view-tails", true, `with --transport ws, ask for view tails in each socket's hello as the browser does (after the first update, only the new entries of a view's log); false: every view whole`)
	rated := fs.Bool("rated", false, "the scripted players are accounts (signed up first: slow, argon2id) and every table is rated, so that each game's end updates two ratings in its commit")
	chat := fs.Float64("chat", 0, "also post this many players' chat lines a second, across the tables, by their seated players in turn (0: none); each identity may post one a second, so keep it under --identities, and one address three a second unless the server's --rate-chat-addr is raised")
	idle := fs.Int("idle-sockets", 0, "instead of the runs, open this many idle spectator sockets onto the tables and report the server's memory per socket (heap from /metrics; resident set with --server-pid)")
	idleTables := fs.Int("idle-tables", 0, "instead of the runs, open this many more tables, play each ten moves, and report the heap and goroutines the servers hold per idle table (from /metrics; start them with a low --gogc, e.g. 10, for the heap to be mostly live)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: parlour loadtest [--url URL] [--tables N] [--rate R[,R...]] [--duration D]")
		fmt.Fprintln(stderr, "\nDrives a running parlour serve with scripted players (see docs/performance.md).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(*procs))
	}
	nodes, err := parseNodes(*base)
	if err != nil {
		fmt.Fprintf(stderr, "parlour loadtest: --url %v\n", err)
		return 2
	}
	pids, err := parsePIDs(*serverPIDs)
	if err != nil {
		fmt.Fprintf(stderr, "parlour loadtest: --server-pid %v\n", err)
		return 2
	}
	var rs []float64
	for _, r := range strings.Split(*rates, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(r), 64)
		if err != nil || v <= 0 {
			fmt.Fprintf(stderr, "parlour loadtest: bad --rate %q\n", r)
			return 2
		}
		rs = append(rs, v)
	}
	if *route != "seats" && *route != "table" {
		fmt.Fprintf(stderr, "parlour loadtest: --route must be seats or table, not %q\n", *route)
		return 2
	}
	if *transport != "http" && *transport != "ws" {
		fmt.Fprintf(stderr, "parlour loadtest: --transport must be http or ws, not %q\n", *transport)
		return 2
	}
	if *chat < 0 || *chat > float64(*identities) {
		fmt.Fprintf(stderr, "parlour loadtest: --chat must be from 0 to --identities (%d): each identity may post one line a second\n", *identities)
		return 2
	}
	if *tables < 1 || *identities < 2 || *dur <= 0 {
		fmt.Fprintln(stderr, "parlour loadtest: --tables must be 1 or more, --identities 2 or more, --duration positive")
		return 2
	}
	lt := &loadtest{
		nodes: nodes,
		hc: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			MaxIdleConns: *conns, MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns,
		}},
		out:   stdout,
		conns: max(1, min(*conns, *tables)),

		staggered:  *stagger,
		byTable:    *route == "table",
		ws:         *transport == "ws",
		newSockets: *newSockets,
		tails:      *tails,
		chatRate:   *chat,
		rated:      *rated,
	}
	if err := lt.prepare(ctx, *identities, *tables); err != nil {
		fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
		return 1
	}
	if *idle > 0 {
		if err := lt.idleSockets(ctx, *idle, pids); err != nil {
			fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
			return 1
		}
		return 0
	}
	if *idleTables > 0 {
		if err := lt.idleTables(ctx, *idleTables); err != nil {
			fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
			return 1
		}
		return 0
	}
	stopProfile, err := recordTo(*cpuProfile, pprof.StartCPUProfile, pprof.StopCPUProfile)
	if err != nil {
		fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
		return 1
	}
	defer stopProfile()
	failed := false
	for _, r := range rs {
		load0 := loadAverage()
		var s0 []time.Duration
		var l0 time.Duration
		var m0 map[string]float64
		var each0 []float64
		var p0, o0, f0 int64
		var mach0 machineSample
		var machOK bool
		res, err := lt.run(ctx, r, *dur, func() {
			// Counted from here, after the warm-up: the clock is about
			// to start.
			s0, l0 = cpuTimes(pids), cpuTime(os.Getpid())
			mach0, machOK = sampleMachine()
			e0 := lt.metricsEach(ctx)
			m0, each0 = sumMetrics(e0), acceptedEach(e0)
			p0, o0, f0 = lt.pushes.Load(), lt.opened.Load(), lt.movedOn.Load()
		})
		if err != nil {
			fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
			return 1
		}
		s1, l1 := cpuTimes(pids), cpuTime(os.Getpid())
		mach1, mach1OK := sampleMachine()
		e1 := lt.metricsEach(ctx)
		m1, each1 := sumMetrics(e1), acceptedEach(e1)
		p1 := lt.pushes.Load()
		res.print(stdout)
		if *timeline > 0 {
			res.printTimeline(stdout, *timeline)
		}
		if load0 != "" {
			// Other work on the machine takes CPU from both the server and
			// the tool: say how much there was.
			fmt.Fprintf(stdout, "  load average before %s, after %s\n", load0, loadAverage())
		}
		if machOK && mach1OK {
			printMachine(stdout, mach0, mach1, append(slices.Clone(pids), os.Getpid())...)
		}
		if c, w := m1["parlour_store_commits_total"]-m0["parlour_store_commits_total"], m1["parlour_store_writes_total"]-m0["parlour_store_writes_total"]; c > 0 {
			fmt.Fprintf(stdout, "  store: %.0f commits holding %.0f writes (%.1f a commit)\n", c, w, w/c)
		}
		if lt.ws && res.accepted > 0 {
			fmt.Fprintf(stdout, "  updates pushed to the seats' sockets: %d (%.2f a move)\n", p1-p0, float64(p1-p0)/float64(res.accepted))
			fmt.Fprintf(stdout, "  sockets opened: %d; moved on to the next table: %d\n", lt.opened.Load()-o0, lt.movedOn.Load()-f0)
		}
		if f, ok := m1["parlour_cluster_forwarded_total"]; ok && res.accepted > 0 {
			fwd := f - m0["parlour_cluster_forwarded_total"]
			fmt.Fprintf(stdout, "  cluster: %.0f requests forwarded to their table's owner (%.2f a move), %.0f tables taken over, %.0f handed to the node their requests came from\n",
				fwd, fwd/float64(res.accepted), m1["parlour_cluster_takeovers_total"]-m0["parlour_cluster_takeovers_total"],
				m1["parlour_cluster_handed_total"]-m0["parlour_cluster_handed_total"])
		}
		if res.accepted > 0 && len(pids) > 0 && s0 != nil && s1 != nil {
			printCPU(stdout, pids, s0, s1, l1-l0, res.accepted)
			if len(pids) > 1 && len(pids) == len(each0) && len(each1) == len(each0) {
				printNodeCPU(stdout, pids, s0, s1, each0, each1)
			}
		}
		if r, ok := lt.firstRefusal.Load().(string); ok {
			fmt.Fprintf(stdout, "  first answer that was not an acceptance: %s\n", r)
		}
		failed = failed || res.refused > 0 || res.errors > 0
	}
	if *verify {
		n, err := lt.verify(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "durability: all %d acknowledged moves found in their tables' records\n", n)
	}
	if lt.rated {
		if err := lt.printRatings(ctx, stdout); err != nil {
			fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
			return 1
		}
	}
	if failed {
		return 1
	}
	return 0
}

func isLoopback(host string) bool {
	return host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1"
}

// ltNode is one server the tool drives: the server, or one node of a
// cluster.
type ltNode struct {
	base string // http://host:port, no slash at the end
	addr string // host:port the moves are sent to
	host string // the Host header
}

// parseNodes reads --url: one URL, or several comma-separated, each of a
// loopback address and none twice.
func parseNodes(s string) ([]ltNode, error) {
	var nodes []ltNode
	seen := map[string]bool{}
	for _, b := range strings.Split(s, ",") {
		b = strings.TrimRight(strings.TrimSpace(b), "/")
		u, err := url.Parse(b)
		if err != nil || u.Scheme != "http" || !isLoopback(u.Hostname()) {
			return nil, fmt.Errorf("must name loopback addresses (http://localhost, 127.x.x.x, [::1]), not %q", b)
		}
		if seen[u.Host] {
			return nil, fmt.Errorf("names %s twice", u.Host)
		}
		seen[u.Host] = true
		n := ltNode{base: b, addr: u.Host, host: u.Host}
		if u.Port() == "" {
			n.addr = net.JoinHostPort(u.Hostname(), "80")
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

// parsePIDs reads --server-pid: empty, or process ids, comma-separated.
func parsePIDs(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var pids []int
	for _, f := range strings.Split(s, ",") {
		pid, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || pid <= 0 {
			return nil, fmt.Errorf("must be process ids, comma-separated, not %q", f)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}

type loadtest struct {
	nodes  []ltNode // the server, or the nodes of a cluster
	conns  int      // connections the moves share
	hc     *http.Client
	out    io.Writer
	tokens []string          // identity tokens
	grids  []json.RawMessage // setups the scripted players hide
	live   int               // tables played at once

	staggered bool // see stagger
	byTable   bool // every request about a table through one node (--route table)
	ws        bool // moves go over a WebSocket per seat (--transport ws)
	// newSockets opens new sockets for each table, rather than moving the
	// finished table's on to it (--new-sockets).
	newSockets bool
	tails      bool     // the sockets ask for view tails (--view-tails)
	chatRate   float64  // chat lines a second beside the moves (--chat)
	rated      bool     // accounts at rated tables (--rated)
	accounts   []string // their names, with --rated
	pushes     atomic.Int64
	// opened and movedOn count the sockets opened and those moved on
	// to another table.
	opened, movedOn atomic.Int64

	mu    sync.Mutex
	all   []*ltTable // every table played, for the durability check
	spare chan *ltTable
	made  atomic.Int64
	// firstRefusal keeps the first answer that was not an acceptance, to
	// show what went wrong.
	firstRefusal atomic.Value
}

// noteRefusal remembers the first answer to a move that was not 200 OK.
func (lt *loadtest) noteRefusal(status int, body []byte) {
	lt.firstRefusal.CompareAndSwap(nil, fmt.Sprintf("%d %s", status, bytes.TrimSpace(body)))
}

// ltTable is one Quizl table of two scripted players, who call the
// squares of the grid in order.
type ltTable struct {
	id     string
	seats  [2]string // seat tokens
	node   [2]int    // the node each seat plays through (an index of nodes)
	turn   int
	calls  [2]int
	acked  []string // "seat:move" in order
	over   bool
	errors int
	// ws, with --transport ws, is each seat's socket: a spare table has
	// none until it is played, unless --new-sockets.
	ws [2]*wsSeat
}

func (lt *loadtest) post(ctx context.Context, path, token string, body, out any) (int, error) {
	return lt.postAt(ctx, 0, path, token, body, out)
}

// postAt posts through node i.
func (lt *loadtest) postAt(ctx context.Context, i int, path, token string, body, out any) (int, error) {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", lt.nodes[i].base+path, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return lt.do(req, out)
}

func (lt *loadtest) get(ctx context.Context, path, token string, out any) (int, error) {
	return lt.getAt(ctx, 0, path, token, out)
}

// getAt gets through node i.
func (lt *loadtest) getAt(ctx context.Context, i int, path, token string, out any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", lt.nodes[i].base+path, nil)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return lt.do(req, out)
}

func (lt *loadtest) do(req *http.Request, out any) (int, error) {
	res, err := lt.hc.Do(req)
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

// nodeOf returns the node of n that a balancer hashing a table's path
// would send table id's requests to.
func nodeOf(id string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(n))
}

// newTable opens a Quizl table for two of the identities, seated with
// random grids, ready for its first call. With several nodes, the table is
// made through one (its owner) and joined through the next, and each seat
// plays through the node it was seated through.
func (lt *loadtest) newTable(ctx context.Context) (*ltTable, error) {
	n := lt.made.Add(1)
	home := int(n % int64(len(lt.nodes)))
	away := (home + 1) % len(lt.nodes)
	a := lt.tokens[(2*n)%int64(len(lt.tokens))]
	b := lt.tokens[(2*n+1)%int64(len(lt.tokens))]
	var c, j struct {
		Table string `json:"table"`
		Token string `json:"token"`
	}
	create := map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "private": true}
	if lt.rated {
		create["rated"] = true // only then: a server from before ratings refuses the field
	}
	if _, err := lt.postAt(ctx, home, "/api/v1/tables", a, create, &c); err != nil {
		return nil, err
	}
	if lt.byTable {
		home = nodeOf(c.Table, len(lt.nodes))
		away = home
	}
	if _, err := lt.postAt(ctx, away, "/api/v1/tables/"+c.Table+"/join", b, map[string]any{}, &j); err != nil {
		return nil, err
	}
	t := &ltTable{id: c.Table, seats: [2]string{c.Token, j.Token}, node: [2]int{home, away}}
	for i, tok := range t.seats {
		g := lt.grids[(2*int(n)+i)%len(lt.grids)]
		if _, err := lt.postAt(ctx, t.node[i], "/api/v1/tables/"+t.id+"/setup", tok, map[string]any{"setup": g}, nil); err != nil {
			return nil, err
		}
	}
	if lt.ws && lt.newSockets {
		if err := lt.openSeats(ctx, t); err != nil {
			return nil, err
		}
	}
	lt.mu.Lock()
	lt.all = append(lt.all, t)
	lt.mu.Unlock()
	return t, nil
}

// prepare makes the identities, the live tables, and a pool of spares
// that replace tables whose games end.
func (lt *loadtest) prepare(ctx context.Context, identities, tables int) error {
	start := time.Now()
	// The scripted players bring their own grids, made once here, so that
	// the server's time goes to moves rather than to making grids.
	lex, err := lexicon.Load(lexicon.DefaultName)
	if err != nil {
		return err
	}
	for i := uint64(1); i <= 32; i++ {
		g, err := quizl.RandomSetup(lex, i)
		if err != nil {
			return fmt.Errorf("making grids: %w", err)
		}
		lt.grids = append(lt.grids, g.Setup())
	}
	// Accounts' names must be new on a server that kept earlier runs'.
	var tag [3]byte
	crand.Read(tag[:])
	for i := 0; i < identities; i++ {
		var id struct {
			Token string `json:"token"`
		}
		path, body := "/api/v1/identity", map[string]any{"name": fmt.Sprintf("Load %d", i)}
		if lt.rated {
			name := fmt.Sprintf("load_%x_%d", tag, i)
			lt.accounts = append(lt.accounts, name)
			path, body = "/api/v1/accounts", map[string]any{"name": name, "password": fmt.Sprintf("load test %x %d", tag, i)}
		}
		for {
			st, err := lt.post(ctx, path, "", body, &id)
			if st == http.StatusTooManyRequests {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			if err != nil {
				return fmt.Errorf("making identities: %w", err)
			}
			break
		}
		lt.tokens = append(lt.tokens, id.Token)
	}
	lt.live = tables
	lt.spare = make(chan *ltTable, 2*tables+lt.spares())
	if err := lt.fill(ctx, tables+lt.spares()); err != nil {
		return err
	}
	fmt.Fprintf(lt.out, "prepared %d identities and %d tables in %v\n", identities, len(lt.spare), time.Since(start).Round(time.Millisecond))
	return nil
}

// spares is how many tables beyond the live ones are kept ready to
// replace those whose games end: half as many, and at least 8, so that
// a few games ending together find a table each while the next are made.
func (lt *loadtest) spares() int { return max(lt.live/2, 8) }

// fill adds n spare tables, 16 at a time.
func (lt *loadtest) fill(ctx context.Context, n int) error {
	var wg sync.WaitGroup
	var first error
	var mu sync.Mutex
	work := make(chan struct{}, n)
	for i := 0; i < n; i++ {
		work <- struct{}{}
	}
	close(work)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				t, err := lt.newTable(ctx)
				if err != nil {
					mu.Lock()
					first = cmp(first, err)
					mu.Unlock()
					return
				}
				select {
				case lt.spare <- t:
				default:
				}
			}
		}()
	}
	wg.Wait()
	return first
}

func cmp(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// run plays for dur at rate moves a second across the live tables. Each
// table's moves are due on a fixed schedule (open loop): a move's latency
// counts from when it was due, so time spent queueing in the tool counts
// too.
func (lt *loadtest) run(ctx context.Context, rate float64, dur time.Duration, warm func()) (*ltResult, error) {
	n := lt.live
	tables := make([]*ltTable, 0, n)
	for len(tables) < n {
		select {
		case t := <-lt.spare:
			tables = append(tables, t)
		default:
			if err := lt.fill(ctx, n-len(tables)); err != nil {
				return nil, err
			}
		}
	}
	// Spares for the games that end, as many as prepare made: a run
	// before this one may have used them up.
	if short := lt.spares() - len(lt.spare); short > 0 {
		if err := lt.fill(ctx, short); err != nil {
			return nil, err
		}
	}
	// Warm up: open every connection the players will move on, and make
	// one request on it, before the clock starts.
	pools, err := lt.dialPools()
	defer closePools(pools)
	if err != nil {
		return nil, err
	}
	if lt.ws {
		if err := lt.openAll(ctx, tables); err != nil {
			return nil, err
		}
	}
	taken := 0 // spares taken by the stagger
	if lt.staggered {
		if taken, err = lt.stagger(ctx, tables, pools, uint64(rate)); err != nil {
			return nil, err
		}
	}
	warm()
	interval := time.Duration(float64(n) / rate * float64(time.Second))
	start := time.Now().Add(100 * time.Millisecond)
	res := &ltResult{rate: rate, dur: dur, start: start}
	end := start.Add(dur)
	var mu sync.Mutex
	var wg sync.WaitGroup
	refill := make(chan struct{}, n)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for w := 0; w < 16; w++ {
		go func() { // replace finished tables in the background
			for range refill {
				// A table asked for and not made would leave a slot
				// without a table for the rest of the run: try again.
				for rctx.Err() == nil {
					t, err := lt.newTable(rctx)
					if err == nil {
						select {
						case lt.spare <- t:
						default:
						}
						break
					}
					select {
					case <-rctx.Done():
					case <-time.After(50 * time.Millisecond):
					}
				}
			}
		}()
	}
	for range min(taken, n) {
		refill <- struct{}{}
	}
	if lt.chatRate > 0 {
		res.chat = &chatResult{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			lt.chat(rctx, tables, start, end, res.chat)
		}()
	}
	for i, t := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			var samples []ltSample
			// asked is set while a spare asked for this table's slots,
			// none being ready when its game ended, has not come yet.
			asked := false
			due := start.Add(time.Duration(i) * interval / time.Duration(n))
			for ; due.Before(end); due = due.Add(interval) {
				if d := time.Until(due); d > 0 {
					time.Sleep(d)
				} else if -d > time.Millisecond {
					atomic.AddInt64(&res.late, 1)
				}
				if t.over {
					select {
					case t = <-lt.spare:
						if !asked {
							refill <- struct{}{}
						}
						asked = false
					default:
						// No spare ready: this slot is skipped, and one
						// is asked for (once), or none might ever come.
						if !asked {
							refill <- struct{}{}
							asked = true
						}
						atomic.AddInt64(&res.skipped, 1)
						continue
					}
					// No spare was ready when the last game ended
					// (below): the sockets are opened in this slot.
					if lt.ws && lt.seatSockets(rctx, nil, t) != nil {
						t.over = true
						atomic.AddInt64(&res.errors, 1)
						continue
					}
				}
				atomic.AddInt64(&res.sent, 1)
				pool := pools[t.node[t.turn]]
				c := <-pool
				outcome := lt.step(c, t)
				lat = append(lat, time.Since(due))
				samples = append(samples, ltSample{due, lat[len(lat)-1]})
				pool <- c
				if t.over {
					t = lt.moveOn(rctx, t, refill)
				}
				switch outcome {
				case accepted:
					atomic.AddInt64(&res.accepted, 1)
				case refused:
					atomic.AddInt64(&res.refused, 1)
				default:
					atomic.AddInt64(&res.errors, 1)
				}
			}
			mu.Lock()
			res.latencies = append(res.latencies, lat...)
			res.samples = append(res.samples, samples...)
			mu.Unlock()
			if !t.over {
				lt.spare <- t
			}
		}()
	}
	wg.Wait()
	close(refill)
	return res, nil
}

// moveOn replaces t, whose game just ended, by a spare table, and
// returns it: t's sockets, with --transport ws, move on to it
// (seatSockets), once the last move was timed. With no spare ready it
// closes t's sockets and returns t, to be replaced in its next slot.
// The spare taken is made again in the background through refill (nil:
// the caller sees to it).
func (lt *loadtest) moveOn(ctx context.Context, t *ltTable, refill chan<- struct{}) *ltTable {
	if !lt.ws {
		return t // replaced in its next slot, as ever
	}
	select {
	case nt := <-lt.spare:
		if refill != nil {
			refill <- struct{}{}
		}
		if err := lt.seatSockets(ctx, t, nt); err != nil {
			t.closeSeats()
			return t // the next slot takes another spare
		}
		return nt
	default:
		t.closeSeats()
		return t
	}
}

// openAll opens the sockets of the tables that have none, 16 at a time.
func (lt *loadtest) openAll(ctx context.Context, tables []*ltTable) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	work := make(chan *ltTable)
	for range 16 {
		wg.Go(func() {
			for t := range work {
				if err := lt.openSeats(ctx, t); err != nil {
					mu.Lock()
					first = cmp(first, err)
					mu.Unlock()
				}
			}
		})
	}
	for _, t := range tables {
		work <- t
	}
	close(work)
	wg.Wait()
	return first
}

// moveOutcome is how the server answered one move.
type moveOutcome int

const (
	accepted moveOutcome = iota
	refused              // a 4xx: the table is given up
	failed               // no answer, or a 5xx
)

// step makes t's next move on c: the seat to move calls the next square
// of its opponent's grid. A table it leaves over keeps its sockets: the
// caller closes them (ltTable.closeSeats) once it has timed the move,
// which ends at the answer, not at the close handshakes after it.
func (lt *loadtest) step(c *moveConn, t *ltTable) moveOutcome {
	seat := t.turn
	sq := t.calls[seat]
	mv := string([]byte{byte('0' + 5 + sq/5), byte('0' + sq%5)})
	var st int
	var body []byte
	var err error
	if t.ws[seat] != nil {
		st, body, err = t.ws[seat].move(mv)
	} else if st, body, err = c.move(t.id, t.seats[seat], mv); err != nil {
		c.close() // the next move dials again
	}
	var mr moveAnswer
	if err == nil && st == http.StatusOK {
		err = mr.parse(body)
	}
	switch {
	case err == nil && st == http.StatusOK:
		t.acked = append(t.acked, fmt.Sprintf("%d:%s", seat, mv))
		t.calls[seat]++
		if mr.Status == "finished" || len(mr.ToMove) == 0 {
			t.over = true
		} else {
			t.turn = mr.ToMove[0]
		}
		return accepted
	case err == nil && st >= 400 && st < 500:
		lt.noteRefusal(st, body)
		t.over = true
		return refused
	default:
		lt.noteRefusal(st, body)
		t.errors++
		return failed
	}
}

// stagger plays each table a random number of moves, from none to most of
// a game, before the clock starts. Tables that all started together would
// all finish within the same second, and a thousand games ending at once,
// with a thousand new tables opened to replace them, is a burst no steady
// server sees; staggered, the games end and begin at a steady rate, as
// they do on a server whose tables came and went over time. Over
// sockets, a table whose game ends in the stagger is replaced by a spare
// at once (moveOn), as in the run; stagger returns how many spares it
// took, for the caller to have made again.
func (lt *loadtest) stagger(ctx context.Context, tables []*ltTable, pools []chan *moveConn, seed uint64) (taken int, err error) {
	rng := rand.New(rand.NewPCG(seed, 0))
	todo := make([]int, len(tables))
	for i := range todo {
		todo[i] = rng.IntN(staggerMoves)
	}
	var wg sync.WaitGroup
	var bad, spares atomic.Int64
	work := make(chan int)
	for range min(lt.conns, 64) {
		wg.Go(func() {
			for i := range work {
				t := tables[i]
				for k := 0; k < todo[i] && !t.over; k++ {
					pool := pools[t.node[t.turn]]
					c := <-pool
					if lt.step(c, t) != accepted {
						bad.Add(1)
					}
					pool <- c
					if t.over {
						if nt := lt.moveOn(ctx, t, nil); nt != t {
							spares.Add(1)
							t, tables[i] = nt, nt
						}
					}
				}
			}
		})
	}
	for i := range tables {
		work <- i
	}
	close(work)
	wg.Wait()
	if n := bad.Load(); n > 0 {
		return int(spares.Load()), fmt.Errorf("%d moves of the stagger were not accepted", n)
	}
	return int(spares.Load()), nil
}

// staggerMoves bounds the moves stagger plays at one table: most of a
// game of the scripted players, who call squares in order and so finish
// in about 40 to 50 moves.
const staggerMoves = 40

// verify reads back every table that was played and checks that its
// record holds every acknowledged move, in order.
func (lt *loadtest) verify(ctx context.Context) (int, error) {
	lt.mu.Lock()
	all := slices.Clone(lt.all)
	lt.mu.Unlock()
	total := 0
	for k, t := range all {
		if len(t.acked) == 0 {
			continue
		}
		// Read back through the nodes in turn: with three or more, also
		// through one the table's players did not use.
		at := (t.node[1] + 1 + k) % len(lt.nodes)
		var rec struct {
			Players []string `json:"players"`
			Moves   []struct {
				By   string `json:"by"`
				Move string `json:"move"`
			} `json:"moves"`
		}
		for {
			st, err := lt.getAt(ctx, at, "/api/v1/tables/"+t.id+"/record", t.seats[0], &rec)
			if st == http.StatusTooManyRequests {
				// The server's rate limits apply to this read-back too.
				time.Sleep(100 * time.Millisecond)
				continue
			}
			if err != nil {
				return total, fmt.Errorf("reading the record of %s: %w", t.id, err)
			}
			break
		}
		if len(rec.Moves) < len(t.acked) {
			return total, fmt.Errorf("table %s: %d moves acknowledged, %d in the record", t.id, len(t.acked), len(rec.Moves))
		}
		for i, a := range t.acked {
			seat, mv, _ := strings.Cut(a, ":")
			s, _ := strconv.Atoi(seat)
			if rec.Moves[i].Move != mv || rec.Moves[i].By != rec.Players[s] {
				return total, fmt.Errorf("table %s move %d: acknowledged %s, record has %+v", t.id, i+1, a, rec.Moves[i])
			}
		}
		total += len(t.acked)
	}
	return total, nil
}
