package servertest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fatalRecorder is a testing.TB whose Fatalf records its message and
// ends the goroutine, as a test's would.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestEventually: Eventually returns once cond holds, and fails the test,
// saying what it waited for, when cond never holds.
func TestEventually(t *testing.T) {
	t.Parallel()
	calls := 0
	Eventually(t, time.Second, "the third call", func() bool { calls++; return calls == 3 })
	if calls != 3 {
		t.Errorf("cond called %d times, want 3", calls)
	}

	r := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Eventually(r, 20*time.Millisecond, "nothing", func() bool { return false })
	}()
	<-done
	if !strings.Contains(r.msg, "waited 20ms for nothing") {
		t.Errorf("a cond that never holds: %q, want it to fail saying what it waited for", r.msg)
	}
}
