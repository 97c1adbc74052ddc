package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"parlour/internal/loadtest"
	"parlour/internal/loadtest/reference"
)

// loadtestFlags are parlour loadtest's flags, as they are given.
type loadtestFlags struct {
	base, rates, serverPIDs, route, transport, cpuProfile string
	target, refAddr, refData                              string
	serveOnly                                             bool
	gogc                                                  int

	tables, identities, conns, procs, idle, idleTables int
	dur, timeline, idleCPU, idleSettle                 time.Duration
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
	fs.BoolVar(&f.rated, "rated", false, "the scripted players are accounts (signed up first: slow, argon2id) and every table is rated, so that each game's end updates two ratings in its commit; the server's caps on rated games (new accounts from one address, two players in a day) stop a long run: start it with --rate-new-rated and --rated-per-pair above the games the run plays")
	fs.Float64Var(&f.chat, "chat", 0, "also post this many players' chat lines a second, across the tables, by their seated players in turn (0: none); each identity may post one a second, so keep it under --identities, and one address three a second unless the server's --rate-chat-addr is raised")
	fs.IntVar(&f.idle, "idle-sockets", 0, "instead of the runs, open this many idle spectator sockets onto the tables and report the server's memory per socket (heap from /metrics; resident set with --server-pid)")
	fs.StringVar(&f.target, "target", "", `"reference": instead of the server at --url, drive the reference server, the smallest Go server doing Parlour's durable job (package internal/loadtest/reference; a measuring tool, never a way to serve games), started as a process of its own on a loopback port, its process id passed as --server-pid`)
	fs.BoolVar(&f.serveOnly, "serve-only", false, "with --target reference: run the reference server in this process, print its address and process id, and serve until interrupted, for a series that drives it and parlour serve in turn (--cpuprofile then profiles the server, --procs and --gogc set its Go runtime as parlour serve's do)")
	fs.StringVar(&f.refAddr, "reference-addr", "127.0.0.1:0", "with --target reference: the loopback address the reference server listens on")
	fs.StringVar(&f.refData, "reference-data", "", "with --target reference: the folder of the reference server's database (default: a new temporary folder, removed when it stops)")
	fs.IntVar(&f.gogc, "gogc", 400, "with --serve-only: the reference server's garbage collection target, as parlour serve's --gogc")
	fs.DurationVar(&f.idleCPU, "idle-cpu", 0, "instead of the runs, open --idle-tables tables (each played ten moves; the only tables made) and --idle-sockets spectator sockets spread over them, let the server settle, then read its CPU time (--server-pid) each second for this long (e.g. 60s) and report the median and percentiles of each second's CPU: what waiting costs")
	fs.DurationVar(&f.idleSettle, "idle-settle", 3*time.Second, "with --idle-tables: how long the servers are left quiet before each reading; longer than the server's --park-after, the tables are measured once they have left memory")
	fs.IntVar(&f.idleTables, "idle-tables", 0, "instead of the runs, open this many more tables, play each ten moves, and report the heap and goroutines the servers hold per idle table (from /metrics; start them with a low --gogc, e.g. 10, for the heap to be mostly live) and, with --server-pid, their resident set per table")
}

// config turns the flags into a load test's configuration, or says
// which flag is wrong.
func (f *loadtestFlags) config() (loadtest.Config, error) {
	c := loadtest.Config{
		Servers: strings.Split(f.base, ","), Tables: f.tables, Duration: f.dur, Identities: f.identities, Conns: f.conns,
		Verify: f.verify, Stagger: f.stagger, Timeline: f.timeline, Route: loadtest.Route(f.route),
		Transport: loadtest.Transport(f.transport), NewSockets: f.newSockets, ViewTails: f.tails, Rated: f.rated,
		Chat: f.chat, IdleSockets: f.idle, IdleTables: f.idleTables, IdleSettle: f.idleSettle, IdleCPU: f.idleCPU,
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

// runLoadtest drives running servers, or the reference server it starts,
// with scripted Quizl players and prints what it measured (package
// loadtest); with --serve-only it is the reference server.
func runLoadtest(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f loadtestFlags
	f.define(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: parlour loadtest [--url URL] [--tables N] [--rate R[,R...]] [--duration D]")
		fmt.Fprintln(stderr, "\nDrives a running parlour serve with scripted players, or with --target reference the reference server it starts (see docs/performance.md).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if err := f.checkTarget(fs); err != nil {
		fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
		return 2
	}
	if f.serveOnly {
		return serveReference(ctx, &f, stdout, stderr)
	}
	c, err := f.config()
	if err != nil {
		fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
		return 2
	}
	if f.target == targetReference {
		ref, err := startReference(&f, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
			return 1
		}
		defer ref.stop()
		c.Servers, c.ServerPIDs = []string{ref.url}, []int{ref.pid}
		fmt.Fprintf(stdout, "reference server at %s, process %d\n", ref.url, ref.pid)
	}
	if f.procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(f.procs))
	}
	if f.cpuProfile != "" {
		pf, err := os.Create(f.cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "parlour loadtest: --cpuprofile: %v\n", err)
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

// targetReference is --target's one value: the reference server.
const targetReference = "reference"

// checkTarget says what is wrong with --target and the flags that go
// with it, if anything.
func (f *loadtestFlags) checkTarget(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case f.target != "" && f.target != targetReference:
		return fmt.Errorf("--target must be %s, not %q", targetReference, f.target)
	case f.target == "" && (f.serveOnly || set["reference-addr"] || set["reference-data"] || set["gogc"]):
		return errors.New("--serve-only, --reference-addr, --reference-data and --gogc go with --target reference")
	case f.target != "" && (set["url"] || set["server-pid"]):
		return errors.New("--target reference starts its own server: leave out --url and --server-pid")
	case !f.serveOnly && set["gogc"]:
		return errors.New("--gogc goes with --serve-only")
	}
	host, _, err := net.SplitHostPort(f.refAddr)
	if err != nil || !(host == "localhost" || host == "::1" || strings.HasPrefix(host, "127.")) {
		return fmt.Errorf("--reference-addr must be a loopback address and port, not %q", f.refAddr)
	}
	return nil
}

// serveReference runs the reference server in this process until ctx
// ends, its address and process id printed on the first line of stdout.
func serveReference(ctx context.Context, f *loadtestFlags, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "parlour loadtest: reference server: %v\n", err)
		return 1
	}
	// The Go runtime as parlour serve sets it, so that a measure of both
	// compares the servers rather than the collectors' targets.
	debug.SetGCPercent(f.gogc)
	runtime.GOMAXPROCS(serveProcs(f.procs, os.Getenv("GOMAXPROCS"), runtime.GOMAXPROCS(0)))
	dir := f.refData
	if dir == "" {
		tmp, err := os.MkdirTemp("", "parlour-reference-")
		if err != nil {
			return fail(err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	s, err := reference.New(ctx, reference.Options{Path: filepath.Join(dir, "reference.db")})
	if err != nil {
		return fail(err)
	}
	defer s.Close()
	ln, err := net.Listen("tcp", f.refAddr)
	if err != nil {
		return fail(err)
	}
	stop, err := recordTo(f.cpuProfile, pprof.StartCPUProfile, pprof.StopCPUProfile)
	if err != nil {
		ln.Close()
		return fail(err)
	}
	defer stop()
	fmt.Fprintf(stdout, "reference server at http://%s, process %d\n", ln.Addr(), os.Getpid())
	if err := reference.Serve(ctx, s, ln); err != nil {
		return fail(err)
	}
	return 0
}

// childReference is a reference server running as a process of its own.
type childReference struct {
	cmd *exec.Cmd
	url string
	pid int
}

// startReference starts this program as a reference server
// (--serve-only), in a process of its own so that its CPU is counted
// apart from the load tool's, and waits for its address.
func startReference(f *loadtestFlags, stderr io.Writer) (*childReference, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program to start the reference server: %w", err)
	}
	args := []string{"loadtest", "--target", targetReference, "--serve-only", "--reference-addr", f.refAddr}
	if f.refData != "" {
		args = append(args, "--reference-data", f.refData)
	}
	cmd := exec.Command(exe, args...)
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the reference server: %w", err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	var addr string
	var pid int
	if err == nil {
		_, err = fmt.Sscanf(line, "reference server at %s process %d", &addr, &pid)
	}
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("the reference server did not say where it listens (%q): %w", line, err)
	}
	go io.Copy(io.Discard, out)
	return &childReference{cmd: cmd, url: strings.TrimSuffix(addr, ","), pid: pid}, nil
}

// stop interrupts the reference server and waits for it to end.
func (r *childReference) stop() {
	r.cmd.Process.Signal(os.Interrupt)
	r.cmd.Wait()
}
