// Package tabletest holds what the tests of the table service's users
// share: a clock that moves only when told, so that a test of clocks,
// arenas or deadlines runs without sleeping.
package tabletest

import (
	"slices"
	"sync"
	"time"

	"parlour/server/table"
)

// Clock is a table.Clock that moves only when Advance moves it. A call
// AfterFunc schedules runs when Advance reaches its time, in the
// advancing goroutine; one due at once (d <= 0) runs at once in its own
// goroutine, as the interface says.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
}

type timer struct {
	c    *Clock
	at   time.Time
	f    func()
	done bool
}

// NewClock returns a Clock that reads start until it is advanced.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now implements table.Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc implements table.Clock.
func (c *Clock) AfterFunc(d time.Duration, f func()) table.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, at: c.now.Add(d), f: f}
	if d <= 0 {
		t.done = true
		go f()
		return t
	}
	c.timers = append(c.timers, t)
	return t
}

// Stop implements table.Timer.
func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

// Advance moves the clock on by d and runs the calls due by then, the
// earliest first, each once.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due, left []*timer
	for _, t := range c.timers {
		switch {
		case t.done:
		case !t.at.After(c.now):
			t.done = true
			due = append(due, t)
		default:
			left = append(left, t)
		}
	}
	c.timers = left
	c.mu.Unlock()
	slices.SortStableFunc(due, func(a, b *timer) int { return a.at.Compare(b.at) })
	for _, t := range due {
		t.f()
	}
}
