// Package procs sets how many processors Go runs a process's goroutines
// on (GOMAXPROCS), and on which CPUs its threads run, from how busy the
// process is.
//
// A process that needs a small part of one processor pays for every
// processor it is allowed: a request that arrives while the process
// sleeps wakes one thread to read it and, as it hands work on, others to
// run it on the idle processors, and each of those looks for more work
// on every processor before it sleeps again; while any runs, the
// runtime's monitor thread wakes every 20 µs. On one processor a lone
// request runs from the socket to the answer on one thread. A thread
// woken on another CPU costs more than one woken on the CPU it is asked
// from, more so on a virtual machine, where waking an idle CPU goes
// through the host: a process that needs less than most of one CPU
// spends less held to one. A busy process needs all it is given, or
// requests wait for each other.
//
// A Governor holds the process to one CPU, on One processors, once it
// has used less than OneDown of a processor for OneAfter, and runs it on
// Quiet processors once it has used less than Down; it gives the process
// more processors as soon as it uses more than Up (One held, Busy where
// it cannot be held), and Busy processors on every CPU as soon as it
// uses more than OneUp, or its threads wait for the one CPU more than
// MaxWait times as long as they run.
package procs

import (
	"log/slog"
	"runtime"
	"sync"
	"time"

	"parlour/internal/cputime"
)

// Defaults of Config.
const (
	// DefaultEvery is how often a Governor reads the process's CPU time
	// while the process works: often enough that a process that grows
	// busy is given its processors within a fraction of a second.
	DefaultEvery = 500 * time.Millisecond
	// DefaultIdleEvery is the longest between two readings while the
	// process is idle (uses under IdleShare of a processor): the wait
	// doubles from Every up to it, so that a server with nothing to do
	// is woken every few seconds, not twice a second, and a sudden
	// burst finds it on one processor for a few seconds at most.
	DefaultIdleEvery = 4 * time.Second
	// IdleShare is the share of a processor under which a process is
	// idle: a server holding a thousand tables with nobody moving uses
	// one to four thousandths of one; ten moves a second take about a
	// hundredth.
	IdleShare = 0.01
	// DefaultUp is the share of one processor over which a quiet process
	// is given more processors. On one processor a server doing
	// Parlour's moves answered about as fast as on four while it needed
	// up to a third of one, and fell behind once it needed over half
	// (its p99 1.3 to 3.2 times four's at 2,000 moves a second).
	DefaultUp = 0.5
	// DefaultDown is the share under which a busy process goes back to
	// Quiet, once it has stayed under it for DefaultDownAfter. It lies
	// enough under DefaultUp that a process near either does not go
	// back and forth, and over what a quiet server's work costs on
	// Busy processors, which is more than on Quiet (250 of Parlour's
	// moves a second took 0.17 to 0.28 of a processor on four).
	DefaultDown = 0.35
	// DefaultOneUp is the share of one processor over which a process
	// held to one CPU is let onto every CPU: past it, requests queue for
	// the one CPU (at 4,000 of Parlour's moves a second, 0.7 to 0.86 of
	// one held, its p99 was up to half as long again as on two CPUs).
	DefaultOneUp = 0.75
	// DefaultOneDown is the share of one processor under which a
	// process on every CPU is held to one, once it has stayed under it
	// for DefaultOneAfter. It lies over DefaultOneUp because held to
	// one the same work takes less (at 1,000 and 2,000 of Parlour's
	// moves a second 0.7 to 0.8 of what it took on two CPUs): a process
	// just under it is under DefaultOneUp once held, and one just over
	// DefaultOneUp is over it once let go.
	DefaultOneDown = 0.8
	// DefaultOne is the number of processors while the process is held
	// to one CPU and not quiet. More threads than that take turns on the
	// one CPU and look for each other's work: on two, a move of
	// Parlour's cost a few percent less than on four (0.84x and 1.00x
	// in two series at 2,000 a second over the socket, 0.88x at 4,000
	// over HTTP). Two, not one, so that a request is served while the
	// store's writer waits for its fsync: on one, a move cost 0.88x over
	// the socket and 0.95x over HTTP at 2,000 a second, but p99 grew
	// from 8-37 ms to between 23 ms and over a second while the thread
	// in fsync held the one processor until Go's monitor handed it on.
	DefaultOne = 2
	// DefaultMaxWait is how many times as long as they run a held
	// process's threads may wait for its CPU before it is let onto
	// every CPU: another process busy on the same CPU shows there, not
	// in the process's own use. At 2,000 of Parlour's moves a second
	// held, they waited about one and a half times as long.
	DefaultMaxWait = 3.0
	// DefaultDownAfter is how long a process must stay under Down before
	// it goes back to Quiet: a lull between bursts is not quiet.
	DefaultDownAfter = 5 * time.Second
	// DefaultOneAfter is how long a process must stay under OneDown
	// before it is held to one CPU. Shorter than DefaultDownAfter: a
	// burst that finds the process held lets it go within a reading,
	// and a server that makes its tables in a burst and then plays
	// spends less of its play on every CPU.
	DefaultOneAfter = 2 * time.Second
)

// Config says when a Governor changes the processors and the CPUs. Zero
// fields take the defaults.
type Config struct {
	// Busy is the number of processors while busy (at least 1; zero:
	// runtime.GOMAXPROCS(0) when the Governor starts), One while held to
	// one CPU and not quiet (zero: DefaultOne; at least Quiet), and Quiet
	// while quiet (zero: 1); none more than Busy. With Quiet at Busy or
	// more they do not change.
	Busy, One, Quiet int
	// Every is how often the Governor reads the process's CPU time,
	// and IdleEvery the longest it waits between two readings while the
	// process is idle.
	Every, IdleEvery time.Duration
	// Up and Down are shares of one processor's time (0.5: half of
	// one), DownAfter how long the process must stay under Down.
	Up, Down  float64
	DownAfter time.Duration
	// OneUp and OneDown are the shares of one processor's time over
	// which a process held to one CPU is let go, and under which a
	// process on every CPU is held (held, the same work takes less).
	// MaxWait is how many times as long as they run its threads may
	// wait for the one CPU, counted as if it used Down at least: a few
	// milliseconds' wait in a second of next to nothing is no crowd.
	// OneAfter is how long the process must stay under OneDown.
	OneUp, OneDown, MaxWait float64
	OneAfter                time.Duration
	// AllCPUs keeps the process on every CPU it may use: only the
	// processors change.
	AllCPUs bool
	Log     *slog.Logger

	// cpu reads the process's CPU time so far; tests set it. Nil:
	// cputime.Process.
	cpu func() (time.Duration, bool)
	// wait reads how long the process's threads have waited for a CPU
	// while they could have run; tests set it. Nil: /proc's schedstat.
	wait func() (time.Duration, bool)
	// set sets the processors; tests set it. Nil: runtime.GOMAXPROCS.
	set func(int)
	// hold holds the process to one CPU (true) or lets it onto every
	// CPU it may use; tests set it. Nil: the threads' CPU affinity,
	// where the system lets a process set it and it may use more than
	// one CPU.
	hold func(one bool) error
}

// level is how a Governor runs the process.
type level int

const (
	quiet level = iota // Quiet processors, one CPU
	one                // One processors, one CPU
	busy               // Busy processors, every CPU
)

func (l level) String() string {
	return [...]string{"quiet", "one CPU", "busy"}[l]
}

// Governor changes the processors and the CPUs as the process's CPU use
// says (see the package's doc).
type Governor struct {
	cfg  Config
	stop chan struct{}
	done chan struct{}

	mu      sync.Mutex
	lvl     level
	held    bool          // the process is held to one CPU
	calm    time.Duration // how long the process has been under Down
	calmOne time.Duration // how long the process has been under OneDown
}

// Start watches the process's CPU time; Stop ends it. The process runs
// busy, on Busy processors and every CPU, until it has used less than
// OneDown for OneAfter, so that what it does as it starts, and what
// sizes its work to runtime.GOMAXPROCS as it starts, finds them all. Where the process's CPU time cannot
// be read, or neither the processors (Quiet not fewer than Busy) nor
// the CPUs (AllCPUs, or one CPU only) can change, it changes nothing.
func Start(cfg Config) *Governor {
	if cfg.Busy <= 0 {
		cfg.Busy = runtime.GOMAXPROCS(0)
	}
	if cfg.Quiet <= 0 {
		cfg.Quiet = 1
	}
	if cfg.Every <= 0 {
		cfg.Every = DefaultEvery
	}
	if cfg.IdleEvery < cfg.Every {
		cfg.IdleEvery = max(DefaultIdleEvery, cfg.Every)
	}
	if cfg.Up <= 0 {
		cfg.Up = DefaultUp
	}
	if cfg.Down <= 0 {
		cfg.Down = DefaultDown
	}
	if cfg.DownAfter <= 0 {
		cfg.DownAfter = DefaultDownAfter
	}
	if cfg.OneUp <= 0 {
		cfg.OneUp = DefaultOneUp
	}
	if cfg.OneDown <= 0 {
		cfg.OneDown = DefaultOneDown
	}
	if cfg.OneAfter <= 0 {
		cfg.OneAfter = DefaultOneAfter
	}
	if cfg.MaxWait <= 0 {
		cfg.MaxWait = DefaultMaxWait
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.cpu == nil {
		cfg.cpu = cputime.Process
	}
	if cfg.wait == nil {
		cfg.wait = waited
	}
	if cfg.set == nil {
		cfg.set = func(n int) { runtime.GOMAXPROCS(n) }
	}
	if cfg.hold == nil && !cfg.AllCPUs {
		if c := newCPUs(); c != nil {
			cfg.hold = c.hold
		}
	}
	if cfg.AllCPUs {
		cfg.hold = nil
	}
	if cfg.One <= 0 {
		cfg.One = DefaultOne
	}
	cfg.Quiet = min(cfg.Quiet, cfg.Busy)
	cfg.One = max(min(cfg.One, cfg.Busy), cfg.Quiet)
	g := &Governor{cfg: cfg, lvl: busy, stop: make(chan struct{}), done: make(chan struct{})}
	used, ok := cfg.cpu()
	if !ok || (cfg.Quiet == cfg.Busy && cfg.hold == nil) {
		close(g.done)
		return g
	}
	waits, _ := cfg.wait()
	go g.watch(used, waits)
	return g
}

// Stop stops the Governor and leaves the process busy: on Busy
// processors and every CPU.
func (g *Governor) Stop() {
	select {
	case <-g.stop:
	default:
		close(g.stop)
	}
	<-g.done
	g.mu.Lock()
	defer g.mu.Unlock()
	g.change(busy, 0)
}

// Procs returns the processors the Governor runs the process on now.
func (g *Governor) Procs() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.procs(g.lvl)
}

// Held reports whether the Governor holds the process to one CPU now.
func (g *Governor) Held() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.held
}

// procs returns the processors at l.
func (g *Governor) procs(l level) int {
	switch l {
	case quiet:
		return g.cfg.Quiet
	case one:
		return g.cfg.One
	}
	return g.cfg.Busy
}

// watch reads the process's CPU time every cfg.Every, or less often
// while the process is idle, from used, the time it had used when the
// Governor started, and waits, how long its threads had waited for a
// CPU.
func (g *Governor) watch(used, waits time.Duration) {
	defer close(g.done)
	every := g.cfg.Every
	t := time.NewTimer(every)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-g.stop:
			return
		case now := <-t.C:
			share, ok := 0.0, false
			if u, read := g.cfg.cpu(); read && now.After(last) {
				wall := now.Sub(last)
				share, ok = float64(u-used)/float64(wall), true
				// Only a held process's waits count, and a thread that
				// ended takes its own with it: a sum that fell says
				// nothing.
				wait := 0.0
				if w, read := g.cfg.wait(); read {
					if w > waits {
						wait = float64(w-waits) / float64(wall)
					}
					waits = w
				}
				g.observe(share, wait, wall)
				used, last = u, now
			}
			every = g.next(every, share, ok)
			t.Reset(every)
		}
	}
}

// next returns how long to wait for the next reading after one that
// found the process using share of a processor (ok: it was read) over
// the last wait, every.
func (g *Governor) next(every time.Duration, share float64, ok bool) time.Duration {
	if !ok || share >= IdleShare {
		return g.cfg.Every
	}
	return min(2*every, g.cfg.IdleEvery)
}

// observe takes the share of one processor the process used over the
// last wall time and the share its threads waited for a CPU, and
// changes the level if they say to.
func (g *Governor) observe(share, wait float64, wall time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calm = calmer(g.calm, share < g.cfg.Down, wall)
	g.calmOne = calmer(g.calmOne, share < g.cfg.OneDown, wall)
	canHold := g.cfg.hold != nil
	switch {
	case g.held && (share > g.cfg.OneUp || wait > g.cfg.MaxWait*max(share, g.cfg.Down)):
		g.change(busy, share)
	case g.lvl == quiet && share > g.cfg.Up:
		if canHold {
			g.change(one, share)
		} else {
			g.change(busy, share)
		}
	case g.lvl != quiet && g.calm >= g.cfg.DownAfter && g.cfg.Quiet < g.cfg.Busy:
		g.change(quiet, share)
	case g.lvl == busy && canHold && g.calmOne >= g.cfg.OneAfter:
		g.change(one, share)
	}
}

// calmer returns how long a process has been under a share after a
// reading over wall: calm and wall if the reading was under it, else
// none.
func calmer(calm time.Duration, under bool, wall time.Duration) time.Duration {
	if under {
		return calm + wall
	}
	return 0
}

// change runs the process at l; share is the reading that asked for it.
// g.mu must be held. Where the process cannot be held to one CPU it
// stays on every CPU.
func (g *Governor) change(l level, share float64) {
	from, wasHeld := g.lvl, g.held
	if hold := l != busy; hold != g.held && g.cfg.hold != nil {
		if err := g.cfg.hold(hold); err != nil {
			g.cfg.Log.Warn("could not change the CPUs the process runs on", "one", hold, "err", err)
			if hold {
				// Leave the CPUs alone from now on: what failed once
				// will fail again.
				g.cfg.hold = nil
			}
		} else {
			g.held = hold
		}
	}
	if l == one && !g.held {
		// One's processors fit one CPU; on every CPU it is busy.
		l = busy
	}
	if n := g.procs(l); n != g.procs(from) {
		g.cfg.set(n)
	}
	g.lvl = l
	if l == from && g.held == wasHeld {
		return
	}
	g.cfg.Log.Debug("processors changed", "from", from, "to", l, "procs", g.procs(l), "one_cpu", g.held, "cpu", share)
	if l > from {
		g.calm, g.calmOne = 0, 0
	}
}
