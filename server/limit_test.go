package server

import (
	"testing"
	"time"
)

func TestKeyedLimiter(t *testing.T) {
	k := newKeyedLimiter(1, 3)
	for i := range 3 {
		if !k.allow("ann") {
			t.Fatalf("request %d of a burst of 3 refused", i+1)
		}
	}
	if k.allow("ann") {
		t.Fatal("a fourth request at once was allowed")
	}
	if !k.allow("ben") {
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
	k.allow("ben")
	if _, ok := k.buckets["ann"]; ok {
		t.Error("a refilled bucket was kept")
	}
	if _, ok := k.buckets["ben"]; !ok {
		t.Error("the bucket in use was dropped")
	}
}

func TestBucket(t *testing.T) {
	b := newBucket(10, 2)
	now := time.Now()
	if !b.allow(now) || !b.allow(now) || b.allow(now) {
		t.Fatal("a burst of 2 is not 2")
	}
	if !b.allow(now.Add(100 * time.Millisecond)) {
		t.Fatal("10 a second did not refill one token in 100 ms")
	}
}
