package procs

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// recorder stands for runtime.GOMAXPROCS: it keeps what it was set to.
type recorder struct {
	mu  sync.Mutex
	set []int
}

func (r *recorder) setProcs(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.set = append(r.set, n)
}

func (r *recorder) calls() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]int(nil), r.set...)
}

// clock is a process's CPU time that a test advances.
type clock struct{ ns atomic.Int64 }

func (c *clock) read() (time.Duration, bool) { return time.Duration(c.ns.Load()), true }

// stopped returns a Governor whose ticker never fires, on Busy
// processors, with cfg's defaults filled in: tests feed it readings.
func stopped(t *testing.T, cfg Config) (*Governor, *recorder) {
	t.Helper()
	r := &recorder{}
	cfg.set = r.setProcs
	cfg.cpu = func() (time.Duration, bool) { return 0, true }
	cfg.Every = time.Hour // the ticker never fires within a test
	if cfg.hold == nil {
		cfg.AllCPUs = true
	}
	g := Start(cfg)
	t.Cleanup(g.Stop)
	return g, r
}

func TestObserve(t *testing.T) {
	t.Parallel()
	const s = time.Second
	type reading struct {
		share float64
		wall  time.Duration
		want  int // processors after it
	}
	tests := []struct {
		name     string
		readings []reading
	}{
		{"busy stays busy", []reading{{0.5, s, 4}, {0.34, s, 4}, {0.35, 10 * s, 4}}},
		{"quiet after DownAfter under Down", []reading{
			{0.1, s, 4}, {0.1, s, 4}, {0.34, 2 * s, 4}, {0.1, s, 1}, {0.35, s, 1}, {0.5, s, 1},
		}},
		{"busy over Up", []reading{{0, 5 * s, 1}, {0.51, s, 4}, {0.9, s, 4}}},
		{"at once from nothing", []reading{{0, 5 * s, 1}, {1.5, s, 4}}},
		{"a lull is not quiet", []reading{
			{0.1, 4 * s, 4}, {0.35, s, 4}, {0.1, 4 * s, 4}, {0.1, s, 1},
		}},
		{"between Down and Up stays where it is", []reading{
			{0.35, 10 * s, 4}, {0, 5 * s, 1}, {0.4, 10 * s, 1}, {0.5, 10 * s, 1},
		}},
		{"quiet, busy, quiet again", []reading{
			{0, 5 * s, 1}, {0.51, s, 4}, {0, 4 * s, 4}, {0.34, s, 1}, {2, s, 4},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g, r := stopped(t, Config{Busy: 4})
			if got := g.Procs(); got != 4 {
				t.Fatalf("after Start: %d processors, want 4", got)
			}
			for i, rd := range tt.readings {
				g.observe(rd.share, 0, rd.wall)
				if got := g.Procs(); got != rd.want {
					t.Fatalf("reading %d (%.2f of a processor for %v): %d processors, want %d", i, rd.share, rd.wall, got, rd.want)
				}
			}
			changes(t, "processors", r.calls(), 4, g.Procs())
		})
	}
}

func TestNext(t *testing.T) {
	t.Parallel()
	const ms = time.Millisecond
	g := &Governor{cfg: Config{Every: 500 * ms, IdleEvery: 4000 * ms}}
	tests := []struct {
		every time.Duration
		share float64
		ok    bool
		want  time.Duration
	}{
		{500 * ms, 0, true, 1000 * ms},
		{1000 * ms, 0.009, true, 2000 * ms},
		{2000 * ms, 0, true, 4000 * ms},
		{4000 * ms, 0, true, 4000 * ms},
		{4000 * ms, 0.01, true, 500 * ms},
		{2000 * ms, 1.5, true, 500 * ms},
		{500 * ms, 0.2, true, 500 * ms},
		{2000 * ms, 0, false, 500 * ms},
	}
	for _, tt := range tests {
		if got := g.next(tt.every, tt.share, tt.ok); got != tt.want {
			t.Errorf("next(%v, %.3f, %t) = %v, want %v", tt.every, tt.share, tt.ok, got, tt.want)
		}
	}
}

func TestStartChangesNothing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  Config
	}{
		{"cannot read CPU time", Config{Busy: 4, cpu: func() (time.Duration, bool) { return 0, false }}},
		{"cannot read CPU time, held", Config{Busy: 4, hold: failHold, cpu: func() (time.Duration, bool) { return 0, false }}},
		{"quiet is busy", Config{Busy: 2, Quiet: 2, AllCPUs: true}},
		{"quiet over busy", Config{Busy: 2, Quiet: 3, AllCPUs: true}},
		{"one processor", Config{Busy: 1, AllCPUs: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &recorder{}
			cfg := tt.cfg
			cfg.set = r.setProcs
			if cfg.cpu == nil {
				cfg.cpu = func() (time.Duration, bool) { return 0, true }
			}
			g := Start(cfg)
			if got := g.Procs(); got != cfg.Busy {
				t.Errorf("Procs: %d, want %d", got, cfg.Busy)
			}
			g.Stop()
			g.Stop() // twice is harmless
			if g.Held() {
				t.Error("held to one CPU")
			}
			if calls := r.calls(); len(calls) != 0 {
				t.Errorf("the processors were set: %v", calls)
			}
		})
	}
}

func TestStopLeavesBusy(t *testing.T) {
	t.Parallel()
	r := &recorder{}
	g := Start(Config{Busy: 3, AllCPUs: true, set: r.setProcs, cpu: func() (time.Duration, bool) { return 0, true }, Every: time.Hour})
	g.observe(0, 0, time.Minute)
	if got := g.Procs(); got != 1 {
		t.Fatalf("Procs after a quiet minute: %d, want 1", got)
	}
	g.Stop()
	if got, want := r.calls(), []int{1, 3}; !slices.Equal(got, want) {
		t.Errorf("set %v, want %v", got, want)
	}
	if got := g.Procs(); got != 3 {
		t.Errorf("Procs after Stop: %d, want 3", got)
	}
}

// TestWatch runs the Governor on its own ticker over a CPU clock the
// test advances: a process that uses nothing goes to Quiet, is given
// Busy once it uses two processors' worth, and goes back once it stops.
func TestWatch(t *testing.T) {
	t.Parallel()
	r := &recorder{}
	c := &clock{}
	g := Start(Config{Busy: 4, AllCPUs: true, Every: 2 * time.Millisecond, IdleEvery: 8 * time.Millisecond, DownAfter: 10 * time.Millisecond, set: r.setProcs, cpu: c.read})
	defer g.Stop()
	waitFor(t, g, 1)
	busy := make(chan struct{})
	go func() {
		// Twice the wall time that passes: two processors' worth.
		last := time.Now()
		for {
			select {
			case <-busy:
				return
			case <-time.After(time.Millisecond):
				now := time.Now()
				c.ns.Add(int64(2 * now.Sub(last)))
				last = now
			}
		}
	}()
	waitFor(t, g, 4)
	close(busy)
	waitFor(t, g, 1)
	if got := r.calls(); len(got) < 3 || got[0] != 1 || got[1] != 4 || got[2] != 1 {
		t.Errorf("set %v, want 1, 4, 1", got)
	}
}

func waitFor(t *testing.T, g *Governor, n int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); g.Procs() != n; {
		if time.Now().After(deadline) {
			t.Fatalf("still on %d processors, want %d", g.Procs(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// holder stands for the threads' CPU affinity: it keeps what it was
// asked, and fails when told to.
type holder struct {
	mu    sync.Mutex
	calls []bool
	fail  bool
}

func (h *holder) hold(one bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, one)
	if h.fail {
		return errors.New("not allowed")
	}
	return nil
}

func failHold(bool) error { return errors.New("not allowed") }

// asked returns what the holder was asked, in order.
func (h *holder) asked() []bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]bool(nil), h.calls...)
}

// changes checks that each of calls, the settings of what a Governor
// changed from from, differs from the one before it, and that the last
// is now, what the Governor reports.
func changes[T comparable](t *testing.T, what string, calls []T, from, now T) {
	t.Helper()
	prev := from
	for _, v := range calls {
		if v == prev {
			t.Errorf("%s set to %v while %v (%v)", what, v, prev, calls)
		}
		prev = v
	}
	if prev != now {
		t.Errorf("%s last set to %v, but the Governor says %v", what, prev, now)
	}
}

// TestObserveHeld feeds readings of CPU use and of waiting for a CPU to
// a Governor that may hold the process to one CPU, and checks the
// processors and whether it is held after each.
func TestObserveHeld(t *testing.T) {
	t.Parallel()
	const s = time.Second
	type reading struct {
		share, wait float64
		wall        time.Duration
		procs       int  // processors after it
		held        bool // held to one CPU after it
	}
	tests := []struct {
		name       string
		quiet, one int
		readings   []reading
	}{
		{"busy stays on every CPU", 1, 0, []reading{{0.9, 0, 10 * s, 4, false}, {0.81, 0, 10 * s, 4, false}}},
		{"held after OneAfter under OneDown", 1, 0, []reading{
			{0.6, 0, s, 4, false}, {0.79, 0, s, 2, true}, {0.74, 0, 10 * s, 2, true},
		}},
		{"a burst over OneDown starts the wait again", 1, 0, []reading{
			{0.6, 0, s, 4, false}, {0.85, 0, s, 4, false}, {0.6, 0, s, 4, false}, {0.6, 0, s, 2, true},
		}},
		{"quiet and held at once", 1, 0, []reading{{0.1, 0, 5 * s, 1, true}}},
		{"held, then quiet", 1, 0, []reading{
			{0.5, 0, 5 * s, 2, true}, {0.3, 0, 4 * s, 2, true}, {0.3, 0, s, 1, true},
		}},
		{"let go over OneUp", 1, 0, []reading{{0.5, 0, 5 * s, 2, true}, {0.76, 0, s, 4, false}}},
		{"quiet to held on One processors over Up", 1, 0, []reading{{0, 0, 5 * s, 1, true}, {0.6, 0, s, 2, true}}},
		{"quiet to every CPU over OneUp", 1, 0, []reading{{0, 0, 5 * s, 1, true}, {1.5, 0, s, 4, false}}},
		{"let go when its threads wait", 1, 0, []reading{
			{0.5, 0, 5 * s, 2, true}, {0.5, 1.4, s, 2, true}, {0.5, 1.6, s, 4, false},
		}},
		{"a quiet process's short waits do not count", 1, 0, []reading{
			{0.01, 0, 5 * s, 1, true}, {0.01, 0.5, s, 1, true}, {0.01, 1.1, s, 4, false},
		}},
		{"back to one CPU after it was let go", 1, 0, []reading{
			{0.5, 0, 5 * s, 2, true}, {0.9, 0, s, 4, false}, {0.5, 0, 5 * s, 2, true},
		}},
		{"One processors held", 1, 3, []reading{
			{0.5, 0, 5 * s, 3, true}, {0.3, 0, 5 * s, 1, true}, {0.6, 0, s, 3, true}, {0.9, 0, s, 4, false},
		}},
		{"One over Busy", 1, 6, []reading{{0.5, 0, 5 * s, 4, true}}},
		{"quiet processors as busy: held only", 4, 0, []reading{
			{0.1, 0, 5 * s, 4, true}, {0.6, 0, 10 * s, 4, true}, {0.85, 0, s, 4, false}, {0.1, 0, 5 * s, 4, true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := &holder{}
			g, r := stopped(t, Config{Busy: 4, Quiet: tt.quiet, One: tt.one, hold: h.hold})
			for i, rd := range tt.readings {
				g.observe(rd.share, rd.wait, rd.wall)
				if got, held := g.Procs(), g.Held(); got != rd.procs || held != rd.held {
					t.Fatalf("reading %d (%.2f of a processor, %.2f waiting, for %v): %d processors, held %t; want %d, %t",
						i, rd.share, rd.wait, rd.wall, got, held, rd.procs, rd.held)
				}
			}
			changes(t, "held to one CPU", h.asked(), false, g.Held())
			g.Stop()
			if g.Held() || g.Procs() != 4 {
				t.Errorf("after Stop: %d processors, held %t; want 4, false", g.Procs(), g.Held())
			}
			if n := len(r.calls()); n > 0 && r.calls()[n-1] != 4 {
				t.Errorf("the processors were last set to %d after Stop, want 4", r.calls()[n-1])
			}
		})
	}
}

// TestHoldFails checks that a Governor whose process cannot be held to
// one CPU goes on changing the processors and stops asking.
func TestHoldFails(t *testing.T) {
	t.Parallel()
	h := &holder{fail: true}
	g, _ := stopped(t, Config{Busy: 4, hold: h.hold})
	g.observe(0.5, 0, 5*time.Second)
	if got := g.Procs(); got != 4 {
		// One's processors are for one CPU: on every CPU, Busy's.
		t.Errorf("%d processors after holding failed, want 4", got)
	}
	g.observe(0.1, 0, 5*time.Second)
	g.observe(0.6, 0, time.Second)
	if got := g.Procs(); got != 4 {
		t.Errorf("%d processors over Up, want 4", got)
	}
	g.observe(0.1, 0, 5*time.Second)
	if g.Held() {
		t.Error("held, though holding failed")
	}
	if got := g.Procs(); got != 1 {
		t.Errorf("%d processors after a quiet spell, want 1", got)
	}
	if got := h.asked(); len(got) != 1 || !got[0] {
		t.Errorf("asked to hold %v, want once: true", got)
	}
}
