package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"parlour/internal/loadtest"
)

// loadtestFlags are parlour loadtest's flags, as they are given.
type loadtestFlags struct {
	base, rates, serverPIDs, route, transport, cpuProfile string

	tables, identities, conns, procs, idle, idleTables int
	dur, timeline                                      time.Duration
	chat                                               float64
	verify, stagger, newSockets, tails, rated          bool
}

// define defines the flags on fs.
func (f *loadtestFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.base, "url", "http://localhost:8080", "the server to drive (loopback only); the nodes of a cluster, comma-separated, to spread the tables and connections over them")
	fs.IntVar(&f.tables, "tables", 1000, "live tables to keep playing")
	fs.StringVar(&f.rates, "rate", "5000", "aggregate moves per second; a comma-separated list runs each in turn")
	fs.DurationVar(&f.dur, "duration", 20*time.Second, "how long to run each rate")
	fs.IntVar(&f.identities, "identities", 200, "guest identities the scripted players share")
	fs.IntVar(&f.conns, "conns", 64, "HTTP connections to keep open (it opens up to twice this many; above about 120, start the server with a --conns-per-addr to match)")
	fs.StringVar(&f.serverPIDs, "server-pid", "", "the server's process id, to report the CPU it spends per move (Linux); with several nodes, their ids, comma-separated")
	fs.IntVar(&f.procs, "procs", 0, "CPUs the tool's goroutines run on at once (GOMAXPROCS; 0: all). One leaves more to the server but makes the answers that arrive together wait for each other in the tool, which counts in the latency it measures")
	fs.BoolVar(&f.verify, "verify", true, "check every acknowledged move against the records afterwards")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the load tool's runs (not its preparation) to this file")
	fs.BoolVar(&f.stagger, "stagger", true, "before the clock starts, play each table a random part of a game, so that games end at a steady rate rather than all at once")
	fs.DurationVar(&f.timeline, "timeline", 0, "also print the latency of each slice of this length of the run (e.g. 1s), to see when the slow moves came")
	fs.StringVar(&f.route, "route", "seats", `with several nodes, how requests are spread: "seats" (each table made through one node and joined through the next, each seat playing through the node it was seated through, as behind a balancer that spreads clients) or "table" (every request about a table through the node its id picks, as behind a balancer that hashes the table's path)`)
	fs.StringVar(&f.transport, "transport", "http", `how the moves go: "http" (POST .../moves on kept-alive connections) or "ws" (a WebSocket per seat, each move answered by the server's ack, the updates pushed to both seats read and counted, a finished table's sockets moved on to the next: see --new-sockets); with ws, start the server with --conns-per-addr above 5 times --tables`)
	fs.BoolVar(&f.newSockets, "new-sockets", false, `with --transport ws, open two new sockets for each new table, and close its sockets when its game ends, as a client from before sockets could move on does; by default the sockets of a table whose game ended move on to the table that replaces it (a later hello naming it)`)
	fs.BoolVar(&f.tails, "view-tails", true, `with --transport ws, ask for view tails in each socket's hello as the browser does (after the first update, only the new entries of a view's log); false: every view whole`)
	fs.BoolVar(&f.rated, "rated", false, "the scripted players are accounts (signed up first: slow, argon2id) and every table is rated, so that each game's end updates two ratings in its commit")
	fs.Float64Var(&f.chat, "chat", 0, "also post this many players' chat lines a second, across the tables, by their seated players in turn (0: none); each identity may post one a second, so keep it under --identities, and one address three a second unless the server's --rate-chat-addr is raised")
	fs.IntVar(&f.idle, "idle-sockets", 0, "instead of the runs, open this many idle spectator sockets onto the tables and report the server's memory per socket (heap from /metrics; resident set with --server-pid)")
	fs.IntVar(&f.idleTables, "idle-tables", 0, "instead of the runs, open this many more tables, play each ten moves, and report the heap and goroutines the servers hold per idle table (from /metrics; start them with a low --gogc, e.g. 10, for the heap to be mostly live)")
}

// config turns the flags into a load test's configuration, or says
// which flag is wrong.
func (f *loadtestFlags) config() (loadtest.Config, error) {
	c := loadtest.Config{
		Servers: strings.Split(f.base, ","), Tables: f.tables, Duration: f.dur, Identities: f.identities, Conns: f.conns,
		Verify: f.verify, Stagger: f.stagger, Timeline: f.timeline, Route: loadtest.Route(f.route),
		Transport: loadtest.Transport(f.transport), NewSockets: f.newSockets, ViewTails: f.tails, Rated: f.rated,
		Chat: f.chat, IdleSockets: f.idle, IdleTables: f.idleTables,
	}
	var err error
	if c.ServerPIDs, err = parsePIDs(f.serverPIDs); err != nil {
		return c, fmt.Errorf("--server-pid %w", err)
	}
	for _, r := range strings.Split(f.rates, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(r), 64)
		if err != nil || v <= 0 {
			return c, fmt.Errorf("bad --rate %q", r)
		}
		c.Rates = append(c.Rates, v)
	}
	return c, c.Check()
}

// runLoadtest drives running servers with scripted Quizl players and
// prints what it measured (package loadtest).
func runLoadtest(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f loadtestFlags
	f.define(fs)
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
	c, err := f.config()
	if err != nil {
		fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
		return 2
	}
	if f.procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(f.procs))
	}
	if f.cpuProfile != "" {
		pf, err := os.Create(f.cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
			return 1
		}
		defer pf.Close()
		c.CPUProfile = pf
	}
	// Each part of the report is printed as soon as it is known: a run of
	// several rates shows each as it ends.
	c.Progress = stdout
	rep, err := loadtest.Run(ctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
		return 1
	}
	if rep.Failed() {
		return 1
	}
	return 0
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
