package servertest

import (
	"testing"
	"time"
)

// Eventually calls cond until it reports true, every few milliseconds,
// and fails t, saying it waited for what, when it has not within d: for
// what another goroutine does in its own time, where a test would
// otherwise sleep and hope. d bounds a hang, not a speed: make it
// generous.
func Eventually(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for wait := time.Millisecond; !cond(); wait = min(2*wait, 50*time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(wait)
	}
}
