// Package giveback returns the heap's free memory to the operating
// system once a process has gone quiet.
//
// A Go program's collector lets the heap grow to its goal before it runs,
// and keeps what it freed for the next burst: with GOGC at 400, the goal
// is five times the live heap, so a server that made ten thousand tables
// in a minute and then waits holds three or four times the memory those
// tables need, for as long as it waits. A Watcher notices the quiet after
// such a burst and gives that memory back, once: it collects and returns
// every free page (debug.FreeOSMemory). Memory the process lets go of
// without allocating (Dropped: a cache emptied, records it held dropped)
// is given back the same way, and a little of it once the quiet has
// lasted longer (Config.TailQuiet). A busy process is left alone, and a
// process that stays quiet is hardly woken: the Watcher looks only
// after the collector has run, while allocations go on, and after a
// drop, and a quiet process's collector runs only when the runtime
// forces it to, every two minutes (the Watcher then looks once, a second
// later, and finds nothing to do).
package giveback

import (
	"log/slog"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Defaults of Config.
const (
	// DefaultQuiet is how long a process must allocate next to nothing.
	DefaultQuiet = time.Second
	// DefaultQuietBytes is "next to nothing": a few moves a second.
	DefaultQuietBytes = 256 << 10
	// DefaultWorth is how much the process must have allocated since it
	// last gave memory back for a collection to be worth running again.
	DefaultWorth = 16 << 20
	// DefaultWorthDropped is how much the process must have dropped
	// (Dropped) for the same. What is dropped is freed whole by the next
	// collection, while most of what was allocated is garbage some
	// collection took already. A quarter megabyte is a dozen of
	// Parlour's tables leaving memory, or some 128 shedding what they
	// keep only to answer sooner, about 2 KB each: they shed in waves
	// after a burst, and a larger figure left a wave's last few hundred
	// tables' garbage, and the spans it kept half empty, in the resident
	// set until the next burst. Collecting a heap of tens of megabytes
	// to give it back costs a few milliseconds.
	DefaultWorthDropped = 256 << 10
)

// Config says when a Watcher gives memory back. Zero fields take the
// defaults.
type Config struct {
	// Quiet is how long the process must allocate fewer than QuietBytes.
	Quiet      time.Duration
	QuietBytes uint64
	// Worth is the least the process must have allocated since memory
	// was last given back, and WorthDropped the least it must have
	// dropped: either is enough.
	Worth        uint64
	WorthDropped uint64
	// TailQuiet is how much longer the process must stay quiet before
	// what it dropped short of WorthDropped is given back all the same
	// (zero: five times Quiet).
	TailQuiet time.Duration
	// Release gives the memory back (debug.FreeOSMemory; tests count).
	Release func()
	Log     *slog.Logger
}

// Watcher gives memory back after bursts (see the package's doc).
type Watcher struct {
	cfg     Config
	mu      sync.Mutex
	stopped bool
	armed   bool // the timer is set
	// tail is set while the timer waits out TailQuiet for a remainder
	// dropped short of WorthDropped.
	tail  bool
	timer *time.Timer
	seen  uint64 // bytes allocated when the timer was set
	gave  uint64 // bytes allocated when memory was last given back
	// dropped is what the process said it let go of since then
	// (Dropped).
	dropped uint64
	sample  []metrics.Sample
	// releases counts the times memory was given back.
	releases int
}

// Start starts watching the process's allocations; Stop ends it.
func Start(cfg Config) *Watcher {
	if cfg.Quiet <= 0 {
		cfg.Quiet = DefaultQuiet
	}
	if cfg.QuietBytes == 0 {
		cfg.QuietBytes = DefaultQuietBytes
	}
	if cfg.Worth == 0 {
		cfg.Worth = DefaultWorth
	}
	if cfg.WorthDropped == 0 {
		cfg.WorthDropped = DefaultWorthDropped
	}
	if cfg.TailQuiet <= 0 {
		cfg.TailQuiet = 5 * cfg.Quiet
	}
	if cfg.Release == nil {
		cfg.Release = debug.FreeOSMemory
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	w := &Watcher{cfg: cfg, sample: []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}}
	w.mu.Lock()
	w.gave = w.allocated()
	w.arm()
	w.mu.Unlock()
	watchCollections(w)
	return w
}

// Stop stops the Watcher; it gives nothing back from then on.
func (w *Watcher) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	if w.timer != nil {
		w.timer.Stop()
	}
}

// Releases returns how many times the Watcher has given memory back.
func (w *Watcher) Releases() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.releases
}

// Dropped tells w that the process let go of about n bytes it held (a
// cache emptied, records it kept dropped): memory the next collection
// frees although the process allocated nothing. What is dropped counts
// with what is allocated towards Worth, and w looks for the quiet after
// it as after a burst; WorthDropped dropped is enough.
func (w *Watcher) Dropped(n uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.dropped += n
	if !w.armed {
		w.arm()
	}
}

// sentinel is an object made to be collected: its finalizer tells the
// Watcher that the collector ran, and makes the next one. (It holds a
// pointer so that it is not one of the tiny objects whose finalizers
// may never run.)
type sentinel struct{ w *Watcher }

// watchCollections has w.collected called after the next collection.
func watchCollections(w *Watcher) {
	runtime.SetFinalizer(&sentinel{w}, func(s *sentinel) { s.w.collected() })
}

// collected runs after each collection, on the finalizers' goroutine:
// the process allocated enough to need one, so it may go quiet next.
func (w *Watcher) collected() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	watchCollections(w)
	if !w.armed {
		w.arm()
	}
}

// arm sets the timer to look after Quiet. w.mu must be held.
func (w *Watcher) arm() {
	w.armed = true
	w.seen = w.allocated()
	if w.timer == nil {
		w.timer = time.AfterFunc(w.cfg.Quiet, w.look)
		return
	}
	w.timer.Reset(w.cfg.Quiet)
}

// look runs Quiet after the timer was set: while the process allocates
// it looks again later; once it is quiet it gives memory back if it
// allocated or dropped enough since it last did, and waits for the next
// collection. What was dropped short of that is given back once the
// process has stayed quiet for TailQuiet more: tables shed in waves
// after a burst, and the last waves' few hundred kilobytes of garbage
// keep megabytes of spans, which their other objects left, from going
// back until the next burst.
func (w *Watcher) look() {
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return
	}
	now := w.allocated()
	if now-w.seen >= w.cfg.QuietBytes {
		w.seen = now
		w.tail = false
		w.timer.Reset(w.cfg.Quiet)
		w.mu.Unlock()
		return
	}
	grown := now - w.gave + w.dropped
	give := grown >= w.cfg.Worth || w.dropped >= w.cfg.WorthDropped
	if !give && w.dropped > 0 {
		if !w.tail {
			w.tail = true
			w.seen = now
			w.timer.Reset(w.cfg.TailQuiet)
			w.mu.Unlock()
			return
		}
		give = true
	}
	w.armed, w.tail = false, false
	dropped := w.dropped
	w.mu.Unlock()
	if !give {
		return
	}
	start := time.Now()
	w.cfg.Release()
	w.mu.Lock()
	// What was dropped while the memory went back is left for the next
	// look, which Dropped has set.
	w.gave, w.dropped = w.allocated(), w.dropped-dropped
	w.releases++
	w.mu.Unlock()
	w.cfg.Log.Debug("gave the heap's free memory back to the system", "allocated and dropped since the last time", grown, "took", time.Since(start))
}

// allocated returns the bytes the process has allocated on the heap.
func (w *Watcher) allocated() uint64 {
	metrics.Read(w.sample)
	return w.sample[0].Value.Uint64()
}
