package limit

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// TestKeyed: each key has a bucket of its own, and a sweep drops the
// buckets that have refilled.
func TestKeyed(t *testing.T) {
	t.Parallel()
	k := NewKeyed(1, 3)
	for i := range 3 {
		if !k.Allow("ann") {
			t.Fatalf("request %d of a burst of 3 refused", i+1)
		}
	}
	if k.Allow("ann") {
		t.Fatal("a fourth request at once was allowed")
	}
	if !k.Allow("ben") {
		t.Fatal("one key's flood held up another")
	}
	// A minute on, Ann's bucket has refilled and is dropped at the next
	// sweep; Ben's, still in use, stays.
	k.mu.Lock()
	k.swept = time.Now().Add(-2 * time.Minute)
	for _, l := range k.buckets {
		l.SetBurstAt(time.Now().Add(-time.Minute), 3)
	}
	k.mu.Unlock()
	k.Allow("ben")
	if _, ok := k.buckets["ann"]; ok {
		t.Error("a refilled bucket was kept")
	}
	if _, ok := k.buckets["ben"]; !ok {
		t.Error("the bucket in use was dropped")
	}
}

// TestTurns: attempts under one key go one at a time, so that a check
// and the count after it, made in a turn, let through no more than the
// limit however many come at once; other keys are not held up for long.
func TestTurns(t *testing.T) {
	t.Parallel()
	turns, k := NewTurns(), NewKeyed(1.0/3600, 5)
	var wg sync.WaitGroup
	var mu sync.Mutex
	passed := 0
	for range 50 {
		wg.Go(func() {
			done := turns.Take("203.0.113.5")
			defer done()
			if !k.OK("203.0.113.5") {
				return
			}
			time.Sleep(time.Millisecond) // the attempt
			k.Allow("203.0.113.5")
			mu.Lock()
			passed++
			mu.Unlock()
		})
	}
	wg.Wait()
	if passed != 5 {
		t.Errorf("%d attempts at once passed a limit of 5", passed)
	}
	done := turns.Take("198.51.100.9")
	done()
}

// TestBucket: a bucket allows its burst at once, then its rate.
func TestBucket(t *testing.T) {
	t.Parallel()
	b := NewBucket(10, 2)
	now := time.Now()
	if got := []bool{b.Allow(now), b.Allow(now), b.Allow(now)}; !slices.Equal(got, []bool{true, true, false}) {
		t.Fatalf("three asks at once with a burst of 2: %v, want the first two allowed", got)
	}
	if !b.Allow(now.Add(100 * time.Millisecond)) {
		t.Fatal("10 a second did not refill one token in 100 ms")
	}
}

func TestHeld(t *testing.T) {
	t.Parallel()
	var h Held
	type take struct {
		addr string
		want Full
	}
	// Caps: 3 in all, 2 an address.
	var releases []func()
	for i, tk := range []take{{"a", NotFull}, {"a", NotFull}, {"a", AddrFull}, {"b", NotFull}, {"c", AllFull}} {
		release, full := h.Take(tk.addr, 3, 2)
		if full != tk.want {
			t.Fatalf("take %d from %s: full %d, want %d", i+1, tk.addr, full, tk.want)
		}
		if (release != nil) != (full == NotFull) {
			t.Fatalf("take %d: a release is given only with a place", i+1)
		}
		if release != nil {
			releases = append(releases, release)
		}
	}
	releases[0]()
	releases[0]() // a second release gives back nothing more
	if _, full := h.Take("c", 3, 2); full != NotFull {
		t.Fatalf("a released place was not given back: %d", full)
	}
	if _, full := h.Take("d", 3, 2); full != AllFull {
		t.Fatalf("a place released twice was counted twice: %d", full)
	}
}
