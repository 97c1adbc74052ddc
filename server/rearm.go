package server

import (
	"sync"
	"time"

	"parlour/server/table"
)

// rearm is one timer on a table.Clock that its function sets again each
// time it runs, until stopped: the root's own recurring work (the
// calendar's events, the sweep of unused sessions) runs on it.
type rearm struct {
	clock table.Clock

	mu     sync.Mutex
	timer  table.Timer
	closed bool
}

// after sets the timer to run f in d, unless stopped.
func (r *rearm) after(d time.Duration, f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.timer = r.clock.AfterFunc(d, f)
	}
}

// stop stops the timer; a run under way meanwhile is the last.
func (r *rearm) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if r.timer != nil {
		r.timer.Stop()
	}
}
