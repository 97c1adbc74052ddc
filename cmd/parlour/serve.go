package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"parlour/bus"
	natsbus "parlour/bus/nats"
	"parlour/games"
	"parlour/internal/buildinfo"
	"parlour/internal/giveback"
	"parlour/internal/procs"
	"parlour/lexicon"
	"parlour/server"
	"parlour/server/chat"
	"parlour/server/limit"
	"parlour/server/mail"
	"parlour/server/players"
	"parlour/server/protocol"
	refusal "parlour/server/refuse"
	"parlour/server/table"
	"parlour/server/tournament/calendar"
	"parlour/sshdoor"
	"parlour/store"
	"parlour/store/postgres"
	"parlour/store/sqlite"
	"parlour/web"
)

// defaultDataDir is where parlour serve keeps its database unless told:
// $PARLOUR_DATA, else $XDG_DATA_HOME/parlour, else ~/.local/share/parlour.
func defaultDataDir() string {
	if d := os.Getenv("PARLOUR_DATA"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "parlour")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "share", "parlour")
	}
	return "parlour-data"
}

func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "localhost:8080", "address to listen on")
	data := fs.String("data", defaultDataDir(), "directory of the database and the SSH host key (created if missing)")
	storeAt := fs.String("store", "", "where tables are kept: a postgres:// (or postgresql://) URL for PostgreSQL (docs/deploy.md), or the path of an SQLite database file; empty: parlour.db in --data")
	syncMode := fs.String("sync", "FULL", "SQLite synchronous setting: FULL survives power loss, NORMAL only a crash")
	commitEvery := fs.Duration("commit-interval", sqlite.DefaultCommitInterval, "least time between two commits of the SQLite store; moves that arrive meanwhile share the next (0: none; at most 100ms)")
	logFormat := fs.String("log", "text", "log format: text or json")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	perConn := fs.Float64("rate-conn", limit.Defaults().PerConn, "requests per second allowed on one connection")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	giveBack := fs.Duration("give-back", giveback.DefaultQuiet, "once the server has allocated next to nothing for this long after a burst, collect and give the heap's free memory back to the system (0: never; see docs/performance.md)")
	gcPercent := fs.Int("gogc", 400, "garbage collection target percentage, as GOGC (which it replaces); -1 turns the collector off")
	memProfile := fs.String("memprofile", "", "write a profile of the whole run's allocations to this file at exit")
	maxProcs := fs.Int("procs", 0, "processors Go runs the server's goroutines on (GOMAXPROCS) while it is busy; 0: at least 4, or $GOMAXPROCS when set (see docs/performance.md)")
	quietProcs := fs.Int("quiet-procs", 1, "processors Go runs the server's goroutines on once it has used under 35% of one processor's time for 5 s, until it uses over half (fewer threads woken a move; see docs/performance.md); 0: always --procs")
	oneProcs := fs.Int("one-cpu-procs", procs.DefaultOne, "processors Go runs the server's goroutines on while --one-cpu holds it to one CPU and it is not quiet (more threads than that only take turns on the one CPU; see docs/performance.md); 0: as --procs")
	oneCPU := fs.Bool("one-cpu", true, "hold the server's threads to one CPU once it has used under 80% of one processor's time for 2 s, until it uses over 75% (held, the same work takes less) or its threads queue for that CPU: a thread woken on the CPU it is asked from costs less (see docs/performance.md); Linux only")
	// Read by main before the server starts: the runtime takes
	// schedtrace only at the start of the process.
	fs.Bool("steady-monitor", true, "start the server again at once with GODEBUG=schedtrace set, which keeps Go's monitor thread from sleeping deeply while the server is quiet: it then looks every 10 ms, where from deep sleep each move set it looking every 20 µs (a quiet server's move cost a quarter to two fifths less; see docs/performance.md); the runtime then prints a line of its scheduler's state to standard error every 24.8 days of the machine's uptime; not when GODEBUG sets schedtrace; Linux only")
	traceOut := fs.String("trace", "", "write an execution trace of the whole run to this file (go tool trace; about half a megabyte a second under load)")
	perID := fs.Float64("rate-identity", limit.Defaults().PerIdentity, "requests per second allowed for one identity")
	sshAddr := fs.String("ssh", "", "also serve the terminal client over SSH at this address (e.g. :2222); off when empty")
	metricsAddr := fs.String("metrics-addr", "", "serve GET /metrics at this address alone (127.0.0.1:9100, or one on the servers' own network), and not at --addr, where players come; empty: at --addr")
	sshIdle := fs.Duration("ssh-idle", sshdoor.DefaultIdle, "close an SSH session after this long without a key pressed")
	sshSessions := fs.Int("ssh-sessions", sshdoor.DefaultMaxSessions, "SSH sessions the door holds at once")
	sshPerAddr := fs.Int("ssh-per-addr", sshdoor.DefaultPerAddr, "SSH sessions one remote address may hold at once (raise it for players behind one address: a school, an office)")
	sshNewPerMinute := fs.Int("ssh-new-per-minute", sshdoor.DefaultNewPerMinute, fmt.Sprintf("new SSH connections a minute one remote address may make, after a burst of %d", sshdoor.DefaultBurst))
	sshGrace := fs.Duration("ssh-grace", sshdoor.DefaultGrace, "drop an SSH connection that has not signed in and opened its session this long after connecting (one silent for 5s is dropped sooner)")
	natsURL := fs.String("nats", "", "run as one node of a cluster: the NATS server(s) the nodes talk through (nats://HOST:4222); needs a PostgreSQL --store shared by every node (docs/deploy.md)")
	node := fs.String("node", "", "this node's name in the cluster, unique among the nodes (letters, digits, - and _); default: the host's name and the port")
	lease := fs.Duration("lease", server.DefaultLease, "in a cluster, how long a table's lease lasts unless its owner renews it: how long a dead node's tables stall at most (every node of a cluster should have the same)")
	openExpiry := fs.Duration("open-expiry", table.DefaultOpenExpiry, "cancel a table whose game has not begun after this long without a change (a join, a leave, a setup); 0: never")
	parkAfter := fs.Duration("park-after", table.DefaultParkAfter, "let a game in play leave memory once nobody has used it for this long, with nobody following it, no clock and no computer seat making a move; it is read back from its record when next asked for (0: never; see docs/performance.md)")
	var proxies []netip.Prefix
	fs.Func("trusted-proxy", "a load balancer or proxy in front of the server, as an address or CIDR (repeat the flag for several): its X-Forwarded-For, Forwarded and X-Forwarded-Proto are believed, so per-address limits count each client, and its connections are not capped (docs/deploy.md)", func(v string) error {
		p, err := parseProxy(v)
		if err == nil {
			proxies = append(proxies, p)
		}
		return err
	})
	signInAddr := fs.Float64("rate-sign-in-addr", limit.Defaults().SignIns, "sign-ins, sign-ups and password checks per second one address may make, with bursts of twenty times it (raise it for players who share an address: a school, an office)")
	chatAddr := fs.Float64("rate-chat-addr", limit.Defaults().ChatPerAddr, "chat messages per second one address may write, across its identities (raise it for parlour loadtest --chat)")
	newRated := fs.Int("rate-new-rated", table.NewRatedPerAddr, "rated games accounts younger than a week may start from one address: that many at once, then as many again over a day (raise it for parlour loadtest --rated)")
	perPair := fs.Int("rated-per-pair", table.RatedPerPair, "rated games two players may finish together in a day (raise it for parlour loadtest --rated)")
	streams := fs.Int("streams", limit.DefaultStreams, "event streams and WebSockets held open at once, in all (each a file descriptor; lowered to fit the open-file limit); one address may hold a quarter of --conns-per-addr")
	house := houseLexiconFlag(fs)
	secureCookies := fs.Bool("secure-cookies", false, "the server is only reached over HTTPS: mark the session cookie Secure always, and send Strict-Transport-Security (docs/deploy.md)")
	chatFilter := fs.String("chat-filter", "", "a file of the words chat refuses, one a line (# starts a comment), which replaces the short list Parlour ships (docs/deploy.md)")
	perAddr := fs.Int("conns-per-addr", limit.Defaults().ConnsPerAddr, "connections one remote address may hold open at once (raise it behind a proxy, or for a load test with --conns above half of it)")
	tournaments := fs.String("tournaments", "", `the events the server puts up by itself: a calendar file (docs/tournaments.md, "Scheduled events"); default: an arena of each game every hour and a Swiss every Sunday; "none": only the events players make`)
	var mo mailOptions
	// Read after parsing: the flag package would echo a bad value,
	// password and all.
	smtpURL := fs.String("smtp", "", "send e-mail to the players who ask for it through this SMTP server: smtp://USER:PASSWORD@HOST:587?from=parlour@example.org (STARTTLS when offered) or smtps://... (TLS on connect); off when empty (docs/deploy.md)")
	fs.StringVar(&mo.public, "public-url", "", "the address players reach the server at (https://parlour.example.org), which invite links and the links in e-mail start with; default: http:// and --addr")
	// A bad flag gets the flag package's line naming it and a pointer to
	// the flags, not sixty lines of them under which a unit's log would
	// bury that line; -h prints them.
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "usage: parlour serve [--addr localhost:8080] [--data DIR] [--store postgres://...]")
			fmt.Fprintln(stderr, "\nServes Parlour's tables: the HTTP API and WebSocket (see docs/protocol.md).")
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintln(stderr, "Run 'parlour help serve' for the flags.")
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "parlour serve takes no arguments, not %q: run 'parlour help serve' for the flags\n", strings.Join(fs.Args(), " "))
		return 2
	}
	if *data == "" {
		// An empty variable in a unit file or script; the default is
		// never empty.
		fmt.Fprintln(stderr, "parlour serve: --data is empty: give the directory of the database and the SSH host key")
		return 2
	}
	where, err := parseStore(*storeAt, *data)
	if err != nil {
		fmt.Fprintf(stderr, "parlour serve: --store: %v\n", err)
		return 2
	}
	if *smtpURL != "" {
		if mo.smtp, err = mail.ParseSMTP(*smtpURL); err != nil {
			fmt.Fprintf(stderr, "parlour serve: --smtp: %v\n", err)
			return 2
		}
	}
	if mo.public != "" {
		if u, err := url.Parse(mo.public); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			fmt.Fprintf(stderr, "parlour serve: --public-url %q is not an address players can open: give http:// or https:// and a host, as https://parlour.example.org\n", mo.public)
			return 2
		}
	}
	if s := strings.ToUpper(*syncMode); s != "FULL" && s != "NORMAL" {
		fmt.Fprintf(stderr, "parlour serve: --sync must be FULL or NORMAL, not %q\n", *syncMode)
		return 2
	}
	cl := clusterOptions{nats: *natsURL, node: *node, lease: *lease}
	// A limit of 0 or less would be taken for the default without a
	// word, where an operator who wrote it meant "none" or "off".
	for _, r := range []struct {
		flag, what string
		v          float64
	}{
		{"rate-conn", "requests a second one connection may make", *perConn},
		{"rate-identity", "requests a second one identity may make", *perID},
		{"rate-chat-addr", "chat messages a second one address may write", *chatAddr},
		{"rate-sign-in-addr", "sign-ins a second one address may make", *signInAddr},
		{"rate-new-rated", "rated games new accounts may start from one address", float64(*newRated)},
		{"rated-per-pair", "rated games two players may finish together in a day", float64(*perPair)},
		{"conns-per-addr", "connections one address may hold open", float64(*perAddr)},
		{"ssh-sessions", "SSH sessions the door holds at once", float64(*sshSessions)},
		{"ssh-per-addr", "SSH sessions one address may hold", float64(*sshPerAddr)},
		{"ssh-new-per-minute", "new SSH connections one address may make a minute", float64(*sshNewPerMinute)},
	} {
		if !(r.v > 0) {
			fmt.Fprintf(stderr, "parlour serve: --%s must be above 0, not %v: it is the %s (raise it rather than turn it off)\n", r.flag, r.v, r.what)
			return 2
		}
	}
	for _, d := range []struct {
		flag, what string
		v          time.Duration
	}{
		{"ssh-idle", "how long an SSH session may go without a key pressed", *sshIdle},
		{"ssh-grace", "how long an SSH connection has to sign in", *sshGrace},
	} {
		if d.v <= 0 {
			fmt.Fprintf(stderr, "parlour serve: --%s must be above 0, not %v: it is %s\n", d.flag, d.v, d.what)
			return 2
		}
	}
	for _, p := range []struct {
		flag string
		v    int
	}{{"procs", *maxProcs}, {"quiet-procs", *quietProcs}, {"one-cpu-procs", *oneProcs}} {
		// Go makes as many processors as it is told, each with memory
		// of its own: a mistyped 100000 took gigabytes and the machine.
		if p.v > maxServeProcs {
			fmt.Fprintf(stderr, "parlour serve: --%s must be at most %d, not %d (this machine has %d CPUs)\n", p.flag, maxServeProcs, p.v, runtime.NumCPU())
			return 2
		}
	}
	if *maxProcs < 0 {
		fmt.Fprintf(stderr, "parlour serve: --procs must be 0 (the default) or more, not %d\n", *maxProcs)
		return 2
	}
	if *oneProcs < 0 {
		fmt.Fprintf(stderr, "parlour serve: --one-cpu-procs must be 0 (as --procs) or more, not %d\n", *oneProcs)
		return 2
	}
	if *quietProcs < 0 {
		fmt.Fprintf(stderr, "parlour serve: --quiet-procs must be 0 (always --procs) or more, not %d\n", *quietProcs)
		return 2
	}
	if *commitEvery > maxCommitInterval {
		// Every write waits up to that long for its commit: a
		// mistyped 1h (for 1ms) held every move, sign-in and new
		// table for an hour.
		fmt.Fprintf(stderr, "parlour serve: --commit-interval must be at most %v, not %v: every move waits up to that long to be stored\n", maxCommitInterval, *commitEvery)
		return 2
	}
	if *openExpiry < 0 {
		fmt.Fprintf(stderr, "parlour serve: --open-expiry must be 0 (never) or more, not %v\n", *openExpiry)
		return 2
	}
	if *parkAfter < 0 {
		fmt.Fprintf(stderr, "parlour serve: --park-after must be 0 (never) or more, not %v\n", *parkAfter)
		return 2
	}
	topt := tableOptions{openExpiry: *openExpiry, parkAfter: *parkAfter, ratedPerPair: *perPair}
	for _, d := range []*time.Duration{&topt.openExpiry, &topt.parkAfter} {
		if *d == 0 {
			*d = -1 // server.Config: negative is never
		}
	}
	if *lease < time.Second {
		fmt.Fprintf(stderr, "parlour serve: --lease must be 1s or more, not %v: a node renews its leases every third of it\n", *lease)
		return 2
	}
	if cl.nats != "" && where.postgres == "" {
		fmt.Fprintln(stderr, "parlour serve: --nats needs --store postgres://...: the nodes of a cluster share one PostgreSQL database")
		return 2
	}
	if cl.nats != "" {
		// Checked now: found at the connection, a mistyped address
		// would stop the node only after it had migrated the database.
		if err := natsbus.CheckURL(cl.nats); err != nil {
			fmt.Fprintf(stderr, "parlour serve: --nats: %v\n", err)
			return 2
		}
	}
	if cl.nats == "" && cl.node != "" {
		fmt.Fprintln(stderr, "parlour serve: --node names a node of a cluster: give --nats too")
		return 2
	}
	if cl.nats != "" && cl.node == "" {
		cl.node = defaultNode(*addr)
	}
	if cl.node != "" {
		if err := bus.CheckName("node", cl.node); err != nil {
			fmt.Fprintf(stderr, "parlour serve: --node: %v\n", err)
			return 2
		}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "parlour serve: --log-level must be debug, info, warn or error, not %q\n", *logLevel)
		return 2
	}
	var handler slog.Handler
	switch *logFormat {
	case "text":
		handler = slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})
	case "json":
		handler = slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level})
	default:
		fmt.Fprintf(stderr, "parlour serve: --log must be text or json, not %q\n", *logFormat)
		return 2
	}
	log := slog.New(handler)
	for _, r := range []struct {
		flag, path string
		start      func(io.Writer) error
		stop       func()
	}{{"cpuprofile", *cpuProfile, pprof.StartCPUProfile, pprof.StopCPUProfile}, {"trace", *traceOut, trace.Start, trace.Stop}} {
		stop, err := recordTo(r.path, r.start, r.stop)
		if err != nil {
			fmt.Fprintf(stderr, "parlour serve: --%s: %v\n", r.flag, err)
			return 1
		}
		defer stop()
	}
	if *commitEvery <= 0 {
		*commitEvery = -1 // sqlite.Options: negative means none
	}
	where.sqlite = sqlite.Options{Synchronous: *syncMode, CommitInterval: *commitEvery}
	// A busy server allocates a few kilobytes per move (most of it in
	// net/http) against a live heap of tens of megabytes. At Go's default
	// of 100 the collector ran about once a second at 5,000 moves/s and
	// took some 0.15 s of CPU each time, much of it as assists inside
	// requests; 400 runs it a quarter as often for a few hundred megabytes
	// of heap at most.
	debug.SetGCPercent(*gcPercent)
	busy := serveProcs(*maxProcs, os.Getenv("GOMAXPROCS"), runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(busy)
	if quiet := *quietProcs; (quiet > 0 && quiet < busy) || *oneCPU {
		// A quiet server's moves each wake threads for processors it
		// does not need; on one it wakes fewer, and on one CPU it wakes
		// them where waking costs least (package procs).
		if quiet == 0 {
			quiet = busy
		}
		one := *oneProcs
		if one == 0 {
			one = busy
		}
		g := procs.Start(procs.Config{Busy: busy, One: one, Quiet: quiet, AllCPUs: !*oneCPU, Log: log})
		defer g.Stop()
	}
	if *giveBack > 0 {
		// At --gogc 400 the heap grows to five times what is live before
		// each collection, and keeps it: after a burst an idle server gives
		// it back (package giveback).
		w := giveback.Start(giveback.Config{Quiet: *giveBack, Log: log})
		defer w.Stop()
		// Tables that leave memory free it with nothing allocated: it
		// is given back as after a burst.
		topt.leftMemory = w.Dropped
	}
	if *memProfile != "" {
		f, err := os.Create(*memProfile)
		if err != nil {
			fmt.Fprintf(stderr, "parlour serve: --memprofile: %v\n", err)
			return 1
		}
		defer func() {
			if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
				log.Error("writing the allocation profile", "err", err)
			}
			f.Close()
		}()
	}
	var filter *chat.Filter
	if *chatFilter != "" {
		f, err := readFilter(*chatFilter)
		if err != nil {
			fmt.Fprintf(stderr, "parlour serve: --chat-filter: %v\n", err)
			return 2
		}
		filter = f
		log.Info("chat filter", "file", *chatFilter, "words", f.Len())
	}
	cal, err := readCalendar(*tournaments)
	if err != nil {
		fmt.Fprintf(stderr, "parlour serve: --tournaments: %v\n", err)
		return 2
	}
	if *streams <= 0 {
		fmt.Fprintf(stderr, "parlour serve: --streams must be 1 or more, not %d\n", *streams)
		return 2
	}
	lim := limit.Limits{PerConn: *perConn, PerConnBurst: 2 * *perConn, PerIdentity: *perID, PerIdentityBurst: 2 * *perID, ConnsPerAddr: *perAddr,
		TrustedProxies: proxies, SecureCookies: *secureCookies, Streams: fitStreams(log, *streams, flagSet(fs, "streams"), openFileLimit()),
		ChatPerAddr: *chatAddr, ChatPerAddrBurst: 5 * *chatAddr, NewRatedPerAddr: *newRated,
		// The default burst is 20 sign-ins for 1 a second: a higher rate
		// keeps that proportion.
		SignIns: *signInAddr, SignInsBurst: limit.Defaults().SignInsBurst / limit.Defaults().SignIns * *signInAddr}
	if err := serve(ctx, log, stdout, *addr, *metricsAddr, *data, where, lim, topt, sshOptions{addr: *sshAddr, idle: *sshIdle, grace: *sshGrace, sessions: *sshSessions, perAddr: *sshPerAddr, newPerMinute: *sshNewPerMinute}, cl, filter, *house, mo, cal); err != nil {
		log.Error("parlour serve", "err", err)
		return 1
	}
	return 0
}

// fileReserve is the open files kept back from --streams for what else the
// server holds: the store, the listeners, keep-alive connections.
const fileReserve = 1024

// fitStreams lowers want to fit the open-file limit nofile (0: unknown)
// with fileReserve to spare, saying so: as a warning when the operator
// asked for want (asked), else as information, since the default is set
// high to be lowered on most machines and would warn at every start.
func fitStreams(log *slog.Logger, want int, asked bool, nofile uint64) int {
	if nofile == 0 || uint64(want)+fileReserve <= nofile {
		return want
	}
	fit := int(max(nofile/2, 1))
	if nofile > 2*fileReserve {
		fit = int(nofile - fileReserve)
	}
	if fit >= want {
		return want
	}
	level := slog.LevelInfo
	if asked {
		level = slog.LevelWarn
	}
	log.Log(context.Background(), level, "--streams lowered to fit the open-file limit (raise it with ulimit -n, or LimitNOFILE in a systemd unit)", "streams", want, "open_file_limit", nofile, "now", fit)
	return fit
}

// parseProxy reads --trusted-proxy: an address (a proxy of its own) or a
// CIDR prefix (a subnet of proxies).
func parseProxy(v string) (netip.Prefix, error) {
	v = strings.TrimSpace(v)
	if strings.Contains(v, "/") {
		p, err := netip.ParsePrefix(v)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("%q is not an address or a CIDR prefix such as 10.0.0.0/8", v)
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(v)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("%q is not an address or a CIDR prefix such as 10.0.0.0/8", v)
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// clusterOptions makes the server one node of a cluster: nats is the
// address of the NATS server(s) the nodes talk through, node this one's
// name, lease how long its tables' leases last; nats is empty for a
// server alone.
type clusterOptions struct {
	nats, node string
	lease      time.Duration
}

// defaultNode names a node by its host and the port it serves:
// "web1-8080".
func defaultNode(addr string) string {
	host, _ := os.Hostname()
	name := []byte(host + "-" + portOf(addr))
	for i, c := range name {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			name[i] = '-'
		}
	}
	return string(name[:min(len(name), bus.MaxName)])
}

// sshOptions configure the SSH door; an empty addr keeps it shut.
type sshOptions struct {
	addr  string
	idle  time.Duration
	grace time.Duration
	// sessions, perAddr and newPerMinute limit the door's connections
	// (0: the door's defaults).
	sessions, perAddr, newPerMinute int
}

// storeAt says where parlour serve keeps its tables: a PostgreSQL
// database when postgres is set, else the SQLite file at path.
type storeAt struct {
	postgres string // the connection URL
	path     string
	sqlite   sqlite.Options
	// pgServe is the lock a server takes on PostgreSQL (none for admin).
	pgServe postgres.ServeLock
	// noMigrate leaves the schema as it is, for admin, which runs beside
	// a server that may be of an older build (store.ErrUnmigrated).
	noMigrate bool
}

// String names the store for people, without a password.
func (w storeAt) String() string {
	if w.postgres == "" {
		return w.path
	}
	return "PostgreSQL at " + redacted(w.postgres)
}

// redacted is a connection URL with its passwords masked: the user's,
// and the password and sslpassword parameters, which PostgreSQL's URLs
// take as well (keys compared as pgx reads them, unescaped, and in any
// case).
func redacted(conn string) string {
	u, err := url.Parse(conn)
	if err != nil {
		return "(an unreadable URL)"
	}
	if u.RawQuery != "" {
		params := strings.Split(u.RawQuery, "&")
		for i, p := range params {
			k, _, _ := strings.Cut(p, "=")
			if key, err := url.QueryUnescape(k); err != nil || strings.EqualFold(key, "password") || strings.EqualFold(key, "sslpassword") {
				params[i] = k + "=xxxxx"
			}
		}
		u.RawQuery = strings.Join(params, "&")
	}
	return u.Redacted()
}

// parseStore reads --store: a postgres:// or postgresql:// URL, a path,
// or empty for parlour.db in data. A URL of any other scheme is refused,
// so that a mistyped one is not taken for a file name, and so is a
// directory, which is no database file.
func parseStore(s, data string) (storeAt, error) {
	scheme, _, isURL := strings.Cut(s, "://")
	switch {
	case s == "":
		return storeAt{path: filepath.Join(data, "parlour.db")}, nil
	case !isURL && keywordString(s):
		// Taken as a file's name, it would make a database called
		// "host=db password=…", and print and log the password.
		return storeAt{}, errors.New("--store looks like a PostgreSQL connection string of key=value words: give it as a URL, postgres://USER:PASSWORD@HOST:PORT/DATABASE (the words may follow it: ?sslmode=require)")
	case !isURL:
		// SQLite would say only "unable to open database file", after
		// serve had made a lock file beside the directory.
		if fi, err := os.Stat(s); err == nil && fi.IsDir() {
			return storeAt{}, fmt.Errorf("%s is a directory: give the database file in it (%s), or the directory as --data", s, filepath.Join(s, "parlour.db"))
		}
		// serve makes the file, not the directories above it (a
		// mistyped path would otherwise end in "locking the database:
		// no such file or directory").
		if dir := filepath.Dir(s); !isDir(dir) {
			return storeAt{}, fmt.Errorf("the directory of %s, %s, does not exist: make it first, or give a path in an existing one", s, dir)
		}
		return storeAt{path: s}, nil
	case scheme == "postgres" || scheme == "postgresql":
		if _, err := url.Parse(s); err != nil {
			// url.Error quotes the URL, password and all, and what
			// is wrong may be the password's own characters (a /
			// ends the host early: "invalid port \":pass\""): say
			// what is wrong only of a URL without one.
			if strings.Contains(s, "@") {
				return storeAt{}, errors.New(errUnescaped)
			}
			var uerr *url.Error
			if errors.As(err, &uerr) {
				err = uerr.Err
			}
			return storeAt{}, fmt.Errorf("the PostgreSQL URL is not a URL: %w", err)
		}
		if u, _ := url.Parse(s); u.User == nil && cutShort(u) {
			return storeAt{}, errors.New(errUnescaped)
		}
		return storeAt{postgres: s}, nil
	}
	return storeAt{}, fmt.Errorf("%q is neither a postgres:// URL nor a file path", scheme+"://")
}

// keywordString says whether s reads as libpq's key=value connection
// string ("host=db dbname=parlour password=…"): it starts with one of
// its keywords and an =.
func keywordString(s string) bool {
	key, _, ok := strings.Cut(strings.TrimSpace(s), "=")
	if !ok {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(key)) {
	case "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "sslmode", "service", "connect_timeout", "application_name", "options", "target_session_attrs":
		return true
	}
	return false
}

// errUnescaped is what parseStore says of a URL whose password holds
// a character that ends the user part early.
const errUnescaped = "the PostgreSQL URL does not parse: write it as postgres://USER@HOST:5432/DATABASE, with the password in PGPASSWORD or ~/.pgpass, or escape @, :, /, ? and # in it as %40, %3A, %2F, %3F and %23"

// cutShort reports whether u's user part was cut short by a /, ? or #
// in its password, leaving the @ that ends it in the path, a
// parameter's name or the fragment: a password of digits up to that
// character reads as the host's port, so the URL parses, and would be
// shown as it stands. An @ in a parameter's value (user=ann@example)
// is not one.
func cutShort(u *url.URL) bool {
	if strings.Contains(u.Path, "@") || strings.Contains(u.Fragment, "@") {
		return true
	}
	for _, p := range strings.Split(u.RawQuery, "&") {
		if k, _, _ := strings.Cut(p, "="); strings.Contains(k, "@") {
			return true
		}
	}
	return false
}

// isDir reports whether path is a directory (one that cannot be looked
// at counts: the error that follows names it).
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err != nil && !errors.Is(err, os.ErrNotExist) || err == nil && fi.IsDir()
}

// readFilter reads the chat filter's words from the file at path.
func readFilter(path string) (*chat.Filter, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return chat.ParseFilter(f)
}

// readCalendar reads the calendar of --tournaments: the default for "",
// none for "none", else the file's, whose every event is checked as a
// POST /api/v1/tournaments body, so that a mistake stops the server at
// once rather than an hour later.
func readCalendar(path string) (*calendar.Calendar, error) {
	switch path {
	case "":
		return calendar.Default(), nil
	case "none":
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cal, err := calendar.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, e := range cal.Entries {
		if _, err := protocol.DecodeTournamentRequest(bytes.NewReader(e.Event), calendar.MaxSize); err != nil {
			return nil, fmt.Errorf("%s: event %d of the calendar: %w", path, i+1, err)
		}
	}
	return cal, nil
}

// openTimeout bounds the first connection to PostgreSQL: a node that
// cannot reach it says so rather than wait.
const openTimeout = 20 * time.Second

// openStore opens the store w names; log hears what PostgreSQL's store
// says of its lock.
func openStore(ctx context.Context, w storeAt, log *slog.Logger) (store.Store, func() error, error) {
	if w.postgres != "" {
		octx, cancel := context.WithTimeout(ctx, openTimeout)
		defer cancel()
		db, err := postgres.Open(octx, w.postgres, postgres.Options{Serve: w.pgServe, NoMigrate: w.noMigrate, Log: log})
		if err != nil {
			return nil, nil, fmt.Errorf("cannot use %s: %w", w, err)
		}
		return db, db.Close, nil
	}
	opt := w.sqlite
	opt.NoMigrate = w.noMigrate
	db, err := sqlite.Open(ctx, w.path, opt)
	if err != nil {
		return nil, nil, err
	}
	return db, db.Close, nil
}

// mailOptions are serve's flags for the players' e-mail.
type mailOptions struct {
	smtp   *mail.SMTP
	public string
}

// tableOptions are the table service's settings as serve's flags give
// them: for the durations negative is never, zero the default.
type tableOptions struct {
	openExpiry, parkAfter time.Duration
	// ratedPerPair is server.Config.RatedPerPair.
	ratedPerPair int
	// leftMemory is told how many bytes tables let go of
	// (server.Config.LeftMemory).
	leftMemory func(bytes uint64)
}

func serve(ctx context.Context, log *slog.Logger, stdout io.Writer, addr, metricsAddr, data string, where storeAt, lim limit.Limits, topt tableOptions, sshOpt sshOptions, cl clusterOptions, filter *chat.Filter, house []*lexicon.Lexicon, mo mailOptions, cal *calendar.Calendar) error {
	// Listen first, on both addresses: an address that is wrong or
	// taken (by this very server, started twice) stops serve before it
	// makes a data directory or opens, let alone migrates, a database.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on --addr %s: %w", addr, err)
	}
	defer ln.Close() // for the returns before the server takes it
	var mln net.Listener
	if metricsAddr != "" {
		mln, err = net.Listen("tcp", metricsAddr)
		if err != nil {
			return fmt.Errorf("listening for /metrics on --metrics-addr %s: %w", metricsAddr, err)
		}
		defer mln.Close() // for the returns before the server takes it
	}
	var sln net.Listener
	if sshOpt.addr != "" {
		sln, err = net.Listen("tcp", sshOpt.addr)
		if err != nil {
			return fmt.Errorf("listening for SSH on --ssh %s: %w", sshOpt.addr, err)
		}
		defer sln.Close() // for the returns before the door takes it
	}
	// The data directory holds the default SQLite database and the SSH
	// door's host key and guests: a server that keeps its tables elsewhere
	// and opens no door leaves it unmade.
	inData := where.postgres == "" && filepath.Dir(where.path) == filepath.Clean(data)
	if inData || sshOpt.addr != "" {
		if err := os.MkdirAll(data, 0o700); err != nil {
			return fmt.Errorf("making the data directory: %w", err)
		}
	}
	// opened says the store opened: a start that fails before then
	// leaves no lock file of its own making behind.
	opened := false
	if where.postgres == "" {
		lock, err := lockStore(where.path)
		if err != nil {
			return err
		}
		defer func() {
			if opened {
				lock.Release()
			} else {
				lock.Drop()
			}
		}()
	}
	// Invite links name the host as given ("localhost"), with the port
	// actually bound.
	base := "http://" + ln.Addr().String()
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		base = "http://" + net.JoinHostPort(host, port)
	}
	// The door reads (or makes) its host key before the store opens: a
	// damaged key stops serve before it migrates the database, puts up
	// events or says it serves. Its sessions reach the service, made
	// below, only once the door serves.
	var (
		svc  *server.Service
		door *sshdoor.Door
		pipe *sshdoor.Pipe
	)
	// public is where players reach the server: the links the server
	// and the door's sessions show start with it.
	public := base
	if mo.public != "" {
		public = strings.TrimRight(mo.public, "/")
	}
	warnNoPublicURL(log, public, mo.public != "", len(lim.TrustedProxies) > 0 || lim.SecureCookies || cl.nats != "")
	if sshOpt.addr != "" {
		// The door's sessions reach the same handler through an
		// in-memory pipe, each under its SSH client's address.
		pipe = sshdoor.NewPipe()
		defer pipe.Close()
		door, err = sshdoor.New(sshOpt.addr, sshdoor.Config{
			API: base, PublicURL: public, DataDir: data, Idle: sshOpt.idle, Grace: sshOpt.grace, Log: log, HTTP: pipe.Client,
			MaxSessions: sshOpt.sessions, PerAddr: sshOpt.perAddr, NewPerMinute: sshOpt.newPerMinute,
			KeySession: func(ctx context.Context, pub gossh.PublicKey) (string, string, error) {
				s, err := svc.KeySession(ctx, pub)
				switch {
				case refusal.Status(err) == http.StatusForbidden:
					// A key whose account was closed: the one refusal
					// KeySession makes with 403.
					err = fmt.Errorf("%w: %v", sshdoor.ErrClosed, err)
				case errors.Is(err, players.ErrKeyUnconfirmed):
					err = fmt.Errorf("%w: %v", sshdoor.ErrUnconfirmed, err)
				}
				return s.Name, s.Token, err
			},
			ProveKey: func(ctx context.Context, token string, pub gossh.PublicKey) error {
				_, err := svc.ProveKey(ctx, token, pub, "added over ssh")
				return err
			},
			// Closures: the service is made after the door, before it
			// serves.
			Guest: func(ctx context.Context, key string) (string, string, error) {
				return svc.GuestToken(ctx, key)
			},
			Remember: func(ctx context.Context, key, name, token string) error {
				return svc.RememberGuest(ctx, key, name, token)
			},
			GuestName: func(ctx context.Context, name string) error {
				_, err := svc.Auth().GuestName(ctx, name)
				return err
			},
		})
		if err != nil {
			return err
		}
	}
	// On PostgreSQL the store takes the lock that keeps a second server
	// off before it migrates, as lockStore does on SQLite.
	where.pgServe = postgres.ServeAlone
	if cl.nats != "" {
		where.pgServe = postgres.ServeNode
	}
	db, closeDB, err := openStore(ctx, where, log)
	if err != nil {
		return servedPostgres(err, cl.nats != "")
	}
	opened = true
	defer closeDB()
	logMigrated(log, db)
	warnNewer(log, db)
	warnSQLiteLeft(log, data, where)
	// Load the default lexicon now: a broken build shows at once, and the
	// first table does not wait for it.
	if _, err := lexicon.Load(lexicon.DefaultName); err != nil {
		return fmt.Errorf("loading the lexicon: %w", err)
	}
	cfg := server.Config{
		Store: db, Games: games.Registry(), NewBot: games.NewBot,
		BaseURL: public, Logger: log, OpenExpiry: topt.openExpiry, ParkAfter: topt.parkAfter, LeftMemory: topt.leftMemory, ChatFilter: filter, RatedPerPair: topt.ratedPerPair,
		HouseLexicons: house, Calendar: cal, DailyAhead: true,
	}
	if mo.smtp != nil {
		cfg.SMTP = mo.smtp
		log.Info("e-mail offered", "smtp", mo.smtp.String())
	}
	if cl.nats != "" {
		// The bus takes its requests' handler before the service
		// exists: the relay passes them on once it starts. Closed after
		// the service (deferred first), which gives its leases back.
		relay := server.NewRelay()
		b, err := natsbus.Connect(ctx, natsbus.Config{URL: cl.nats, Node: cl.node, Handler: relay.Handle, Logger: log})
		if err != nil {
			ln.Close()
			return fmt.Errorf("cannot use NATS: %w", err)
		}
		defer b.Close()
		cfg.Cluster = &server.Cluster{Bus: b, Relay: relay, Lease: cl.lease}
		log.Info("a node of a cluster", "node", cl.node, "lease", cl.lease)
	}
	svc, err = server.New(ctx, cfg)
	if err != nil {
		ln.Close()
		return err
	}
	h := server.NewHandler(svc, lim)
	h.ServeStatic(web.Handler())
	// The handler's limits set the server's timeouts (headers, bodies,
	// idle connections) and cap each address's connections.
	srv := &http.Server{ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	h.Configure(srv)
	served := make(chan error, 4)
	if pg, ok := db.(*postgres.Store); ok {
		// Another server took the database while this one's lock was
		// down with its connection: both would run the same tables.
		go func() {
			select {
			case err := <-pg.Lost():
				served <- err
			case <-ctx.Done():
			}
		}()
	}
	var msrv *http.Server
	if mln != nil {
		// The metrics say how busy the server is and which build it
		// runs: with an address of their own they are not at the
		// players' address.
		msrv = &http.Server{ErrorLog: srv.ErrorLog}
		h.Configure(msrv)
		msrv.Handler = onlyPath("/metrics", h)
		srv.Handler = notPath("/metrics", h)
		go func() { served <- msrv.Serve(mln) }()
		log.Info("serving metrics", "addr", mln.Addr().String())
	}
	go func() { served <- srv.Serve(h.Listener(ln)) }()
	build := buildinfo.Read()
	log.Info("serving", "url", base, "store", where.String(), "version", build.Version, "revision", build.Short())
	if where.path == filepath.Join(data, "parlour.db") {
		fmt.Fprintf(stdout, "Parlour is serving at %s/ (data in %s)\n", base, data)
	} else {
		fmt.Fprintf(stdout, "Parlour is serving at %s/ (tables in %s)\n", base, where)
	}

	if mln != nil {
		fmt.Fprintf(stdout, "and its metrics at http://%s/metrics\n", mln.Addr())
	}
	if door != nil {
		go srv.Serve(h.Listener(pipe))
		go func() {
			if err := door.Serve(sln); err != nil {
				served <- fmt.Errorf("ssh door: %w", err)
			}
		}()
		// The host key's fingerprint, as ssh-keygen -lf and ssh's
		// first-connection question print it: the operator publishes it,
		// and players compare it before answering yes.
		fp := door.HostKeyFingerprint()
		log.Info("serving ssh", "addr", sln.Addr().String(), "host_key", fp, "host_key_file", filepath.Join(data, sshdoor.HostKeyFile))
		fmt.Fprintf(stdout, "and over SSH: ssh -p %s HOST (host key ED25519 %s)\n", portOf(sln.Addr().String()), fp)
	}

	select {
	case err := <-served:
		if door != nil {
			door.Shutdown(context.Background())
		}
		svc.Close()
		return fmt.Errorf("serving: %w", err)
	case <-ctx.Done():
	}
	if door != nil {
		door.Shutdown(context.Background())
	}
	log.Info("shutting down; a second interrupt or SIGTERM stops at once")
	// Stop taking new work, let the moves in flight finish and reach the
	// store, close the sockets with a reason, then close the store.
	h.CloseSockets("the server is shutting down")
	svc.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("shutdown", "err", err)
	}
	if msrv != nil {
		msrv.Shutdown(sctx)
	}
	log.Info("stopped")
	return nil
}

// onlyPath serves path through h, and answers every other path 404.
func onlyPath(path string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// notPath serves every path but path through h, and answers path 404.
func notPath(path string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == path {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// portOf returns the port of a host:port address.
func portOf(addr string) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return port
}

// maxCommitInterval is the longest --commit-interval: already ten times
// what a move's answer takes on a quiet server.
const maxCommitInterval = 100 * time.Millisecond

// maxServeProcs is the most processors --procs and its kin may ask
// for: more than any machine Parlour runs on has.
const maxServeProcs = 1024

// minProcs is the fewest processors serve runs its goroutines on by
// default. On a machine of one or two cores the store's writer, which
// every move waits for, queues behind the requests' work whenever it
// comes back from an fsync or is preempted and no processor is free, and
// a collection's marking holds one of two processors for stretches of
// milliseconds; with four, the writer finds one free and the operating
// system shares the cores out. On 2 cores at 5,000 moves/s over HTTP and
// 2,000/s over sockets it cut p99 by a fifth to two fifths in each of
// four pairs of runs, for the same CPU a move; with two it was no
// better in later pairs either (docs/performance.md).
const minProcs = 4

// serveProcs returns the GOMAXPROCS serve runs with: flag when it is
// set, else what the GOMAXPROCS environment variable (env) asked for,
// else at least minProcs (cur is Go's own choice).
func serveProcs(flag int, env string, cur int) int {
	switch {
	case flag > 0:
		return flag
	case env != "":
		return cur
	}
	return max(cur, minProcs)
}

// recordTo starts writing a profile or trace to path with start, and
// returns what ends it (stop, then the file closed). An empty path
// records nothing.
func recordTo(path string, start func(io.Writer) error, stop func()) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := start(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		stop()
		f.Close()
	}, nil
}

// flagSet reports whether the command line set the flag called name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// logMigrated names the migrations opening the database db applied:
// after an upgrade, the operator sees what changed in the database (and
// what an older build rolled back to would not know); a start that
// changed nothing says nothing.
func logMigrated(log *slog.Logger, db store.Store) {
	m, ok := db.(interface{ Migrated() []string })
	if !ok {
		return
	}
	if done := m.Migrated(); len(done) > 0 {
		log.Info("database migrated", "applied", len(done), "migrations", strings.Join(done, ", "))
	}
}

// warnNewer says so when a newer build has migrated the database db: this
// one serves it, as builds side by side are meant to, but what the newer
// one stored may be beyond it, and an operator rolling back should know.
func warnNewer(log *slog.Logger, db store.Store) {
	n, ok := db.(interface{ NewerMigrations() []string })
	if !ok {
		return
	}
	if newer := n.NewerMigrations(); len(newer) > 0 {
		log.Warn("a newer parlour has migrated this database: this build does not know its migrations, and may not read all it stored", "migrations", strings.Join(newer, ", "))
	}
}

// warnNoPublicURL warns when a server that players reach through a proxy
// or a balancer (behind: --trusted-proxy, --secure-cookies or --nats
// given) has no --public-url: its invite links, and the links in mail and
// in SSH sessions, would start with public, the address it listens at,
// which is not the one players open.
func warnNoPublicURL(log *slog.Logger, public string, set, behind bool) {
	if set || !behind {
		return
	}
	log.Warn("the links players are given (invites, mail, SSH sessions) start with the address this server listens at, not the one they open through the proxy or balancer: give --public-url", "links_start_with", public)
}

// warnSQLiteLeft warns when a server on PostgreSQL finds an SQLite
// database in its data directory that to-postgres has not copied there
// (moved): most likely the one it served before its operator gave it
// --store, whose games, accounts and ratings PostgreSQL does not hold,
// and which a server without --store would serve again.
func warnSQLiteLeft(log *slog.Logger, data string, w storeAt) {
	if w.postgres == "" {
		return
	}
	path := filepath.Join(data, "parlour.db")
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && !moved(path) {
		log.Warn("the data directory holds an SQLite database this server does not serve: its games, accounts and ratings are not in PostgreSQL unless parlour admin to-postgres copies them there (docs/deploy.md); serve it again without --store to reach them", "sqlite", path, "store", w.String())
	}
}
