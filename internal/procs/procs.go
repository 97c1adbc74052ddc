// Package procs sets how many processors Go runs a process's goroutines
// on (GOMAXPROCS) from how busy the process is.
//
// A process that needs a small part of one processor pays for every
// processor it is allowed: a request that arrives while the process
// sleeps wakes one thread to read it and, as it hands work on, others to
// run it on the idle processors, and each of those looks for more work
// on every processor before it sleeps again; while any runs, the
// runtime's monitor thread wakes every 20 µs. On one processor a lone
// request runs from the socket to the answer on one thread. A busy
// process needs all it is given, or requests wait for each other. A
// Governor runs the process on Quiet processors once it has used less
// than Down of one for DownAfter, and on Busy as soon as it uses more
// than Up.
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
	// is given Busy processors. On one processor a server doing
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
	// DefaultDownAfter is how long a busy process must stay under Down
	// before it goes back to Quiet: a lull between bursts is not quiet.
	DefaultDownAfter = 5 * time.Second
)

// Config says when a Governor changes the processors. Zero fields take
// the defaults.
type Config struct {
	// Busy is the number of processors while busy (at least 1; zero:
	// runtime.GOMAXPROCS(0) when the Governor starts), and Quiet while
	// quiet (zero: 1). With Quiet at Busy or more nothing changes.
	Busy, Quiet int
	// Every is how often the Governor reads the process's CPU time,
	// and IdleEvery the longest it waits between two readings while the
	// process is idle.
	Every, IdleEvery time.Duration
	// Up and Down are shares of one processor's time (0.5: half of
	// one), DownAfter how long the process must stay under Down.
	Up, Down  float64
	DownAfter time.Duration
	Log       *slog.Logger

	// cpu reads the process's CPU time so far; tests set it. Nil:
	// cputime.Process.
	cpu func() (time.Duration, bool)
	// set sets the processors; tests set it. Nil: runtime.GOMAXPROCS.
	set func(int)
}

// Governor changes the processors as the process's CPU use says (see
// the package's doc).
type Governor struct {
	cfg  Config
	stop chan struct{}
	done chan struct{}

	mu   sync.Mutex
	cur  int           // the processors now
	calm time.Duration // how long the process has been under Down while busy
}

// Start watches the process's CPU time; Stop ends it. The process runs
// on cfg.Busy processors until it has been quiet for cfg.DownAfter, so
// that what it does as it starts, and what sizes its work to
// runtime.GOMAXPROCS as it starts, finds them all. Where the process's
// CPU time cannot be read, or Quiet is not fewer than Busy, it changes
// nothing.
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
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.cpu == nil {
		cfg.cpu = cputime.Process
	}
	if cfg.set == nil {
		cfg.set = func(n int) { runtime.GOMAXPROCS(n) }
	}
	g := &Governor{cfg: cfg, cur: cfg.Busy, stop: make(chan struct{}), done: make(chan struct{})}
	used, ok := cfg.cpu()
	if !ok || cfg.Quiet >= cfg.Busy {
		close(g.done)
		return g
	}
	go g.watch(used)
	return g
}

// Stop stops the Governor and leaves the process on Busy processors.
func (g *Governor) Stop() {
	select {
	case <-g.stop:
	default:
		close(g.stop)
	}
	<-g.done
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cur != g.cfg.Busy {
		g.cur = g.cfg.Busy
		g.cfg.set(g.cur)
	}
}

// Procs returns the processors the Governor runs the process on now.
func (g *Governor) Procs() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cur
}

// watch reads the process's CPU time every cfg.Every, or less often
// while the process is idle, from used, the time it had used when the
// Governor started.
func (g *Governor) watch(used time.Duration) {
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
				share, ok = float64(u-used)/float64(now.Sub(last)), true
				g.observe(share, now.Sub(last))
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
// last wall time, and changes the processors if it says to.
func (g *Governor) observe(share float64, wall time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.cur == g.cfg.Quiet && share > g.cfg.Up:
		g.change(g.cfg.Busy, share)
	case g.cur == g.cfg.Busy && share < g.cfg.Down:
		g.calm += wall
		if g.calm >= g.cfg.DownAfter {
			g.change(g.cfg.Quiet, share)
		}
	default:
		g.calm = 0
	}
}

// change sets the processors to n. g.mu must be held.
func (g *Governor) change(n int, share float64) {
	g.cfg.set(n)
	g.cfg.Log.Debug("processors changed", "from", g.cur, "to", n, "cpu", share)
	g.cur = n
	g.calm = 0
}
