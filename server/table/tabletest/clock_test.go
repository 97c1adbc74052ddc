package tabletest

import (
	"sync"
	"testing"
	"time"
)

// TestClock: calls run when the clock reaches them, the earliest first and
// once; a stopped call never runs; one due at once runs without an
// Advance.
func TestClock(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	c := NewClock(start)
	var mu sync.Mutex
	var ran []string
	note := func(s string) func() {
		return func() { mu.Lock(); ran = append(ran, s); mu.Unlock() }
	}
	c.AfterFunc(3*time.Second, note("three"))
	c.AfterFunc(time.Second, note("one"))
	stopped := c.AfterFunc(2*time.Second, note("stopped"))
	if !stopped.Stop() || stopped.Stop() {
		t.Error("Stop reports a pending call, then none")
	}
	c.Advance(2 * time.Second)
	c.Advance(2 * time.Second)
	c.Advance(time.Hour)
	if !c.Now().Equal(start.Add(time.Hour + 4*time.Second)) {
		t.Errorf("now %s", c.Now())
	}
	done := make(chan struct{})
	c.AfterFunc(0, func() { close(done) })
	<-done
	mu.Lock()
	defer mu.Unlock()
	if len(ran) != 2 || ran[0] != "one" || ran[1] != "three" {
		t.Errorf("ran %q, want one then three", ran)
	}
}
