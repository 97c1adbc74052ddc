package table

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/refuse"
)

// handClock is a Clock that moves only when Advance moves it, running
// the calls due by then in the advancing goroutine. (tabletest's Clock
// imports this package, so its own tests cannot use it.)
type handClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*handTimer
}

type handTimer struct {
	c    *handClock
	at   time.Time
	f    func()
	done bool
}

func (c *handClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *handClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &handTimer{c: c, at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *handTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

// pending returns how many calls wait for their time.
func (c *handClock) pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.done {
			n++
		}
	}
	return n
}

func (c *handClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*handTimer
	for _, t := range c.timers {
		if !t.done && !t.at.After(c.now) {
			t.done = true
			due = append(due, t)
		}
	}
	c.timers = slices.DeleteFunc(c.timers, func(t *handTimer) bool { return t.done })
	c.mu.Unlock()
	for _, t := range due {
		t.f()
	}
}

// janitorState is what the janitor has armed: when each timer fires
// (zero: not armed) and how many finished tables wait to leave memory.
func (f *fixture) janitorState() (evictAt, expireAt time.Time, queued int) {
	j := &f.s.jan
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.evictAt, j.expireAt, len(j.idle)
}

func (f *fixture) inMemory(id string) bool {
	f.s.mu.RLock()
	defer f.s.mu.RUnlock()
	_, ok := f.s.tables[id]
	return ok
}

// TestOpenTablesExpireOnTheirTimer: a table whose game has not begun is
// cancelled when the service's clock reaches its expiry, with nobody
// asking; the timer is then set to the next open table's expiry, and set
// to nothing once every table in memory has begun.
func TestOpenTablesExpireOnTheirTimer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &handClock{now: time.Now()}
	f := &fixture{t: t, dir: t.TempDir(), clock: clock}
	f.open()
	t.Cleanup(f.close)
	expiry := f.s.cfg.OpenExpiry

	begun, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}})
	if err != nil {
		t.Fatal(err)
	}
	// The one call pending is the server's next note that it runs
	// (runBeat).
	if _, expireAt, _ := f.janitorState(); !expireAt.IsZero() || clock.pending() != 1 {
		t.Fatalf("with only a game under way, the expiry timer is set for %v (%d calls pending, want the run's note alone)", expireAt, clock.pending())
	}
	first, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	made := clock.Now()
	clock.Advance(expiry / 2)
	second, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, expireAt, _ := f.janitorState(); !expireAt.Equal(made.Truncate(time.Microsecond).Add(expiry)) {
		t.Fatalf("expiry timer set for %v, want the first open table's expiry %v", expireAt, made.Add(expiry))
	}

	gone := func(id string) bool {
		_, err := f.s.View(ctx, nil, id)
		return refuse.Status(err) == http.StatusGone
	}
	clock.Advance(expiry/2 + time.Second)
	if !gone(first.Table) || gone(second.Table) || gone(begun.Table) {
		t.Fatalf("after the first table's expiry: first gone %v, second gone %v, begun gone %v; want only the first",
			gone(first.Table), gone(second.Table), gone(begun.Table))
	}
	if _, expireAt, _ := f.janitorState(); !expireAt.After(clock.Now()) {
		t.Fatalf("after the first expiry, the timer is set for %v, want the second table's", expireAt)
	}
	clock.Advance(expiry / 2)
	if !gone(second.Table) || gone(begun.Table) {
		t.Fatalf("after the second table's expiry: second gone %v, begun gone %v", gone(second.Table), gone(begun.Table))
	}
	if _, expireAt, _ := f.janitorState(); !expireAt.IsZero() {
		t.Fatalf("with no open table left, the expiry timer is set for %v", expireAt)
	}
}

// TestJanitorIdleWithoutFinishedTables: live tables that are not parked
// arm no eviction timer; a finished table arms it, leaves memory by
// itself once idle, and the timer is not set again.
func TestJanitorIdleWithoutFinishedTables(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := &fixture{t: t, dir: t.TempDir(), idleEvict: 10 * time.Millisecond, parkAfter: -1}
	f.open()
	t.Cleanup(f.close)
	for range 3 {
		if _, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}}); err != nil {
			t.Fatal(err)
		}
	}
	if evictAt, _, queued := f.janitorState(); !evictAt.IsZero() || queued != 0 {
		t.Fatalf("with only games under way: eviction timer set for %v, %d tables queued", evictAt, queued)
	}
	id, _ := f.soloPlayed(ctx)
	servertest.Eventually(t, 10*time.Second, "the finished table to leave memory", func() bool { return !f.inMemory(id) })
	servertest.Eventually(t, 10*time.Second, "the eviction timer to be let go", func() bool {
		evictAt, _, queued := f.janitorState()
		return evictAt.IsZero() && queued == 0
	})
}
