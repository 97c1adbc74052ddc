package procs

import (
	"runtime"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// TestHoldThreads holds the test's own process to one CPU and lets it
// go, and checks every thread's CPUs each time, those of a thread
// started while held among them.
func TestHoldThreads(t *testing.T) {
	c := newCPUs()
	if c == nil {
		var all unix.CPUSet
		if err := unix.SchedGetaffinity(0, &all); err != nil {
			t.Fatalf("reading the process's CPUs: %v", err)
		}
		t.Skipf("the process may use %d CPU: nothing to hold it to", all.Count())
	}
	defer func() {
		if err := c.hold(false); err != nil {
			t.Errorf("letting go: %v", err)
		}
	}()
	check := func(want int) {
		t.Helper()
		tids, err := threads()
		if err != nil {
			t.Fatal(err)
		}
		for _, tid := range tids {
			var set unix.CPUSet
			if err := unix.SchedGetaffinity(tid, &set); err != nil {
				continue // the thread has ended
			}
			if got := set.Count(); got != want {
				t.Errorf("thread %d may run on %d CPUs, want %d", tid, got, want)
			}
		}
	}
	if err := c.hold(true); err != nil {
		t.Fatalf("holding to one CPU: %v", err)
	}
	check(1)
	// Goroutines locked to their threads while others wait make the
	// runtime start threads, which take the CPUs of the one they are
	// started from.
	var wg sync.WaitGroup
	release := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			<-release
		})
	}
	check(1)
	close(release)
	wg.Wait()
	if err := c.hold(false); err != nil {
		t.Fatalf("letting go: %v", err)
	}
	check(c.all.Count())
}

// TestWaited checks that the threads' waits for a CPU can be read and
// do not go back while goroutines crowd the CPUs (Go's threads live on).
func TestWaited(t *testing.T) {
	a, ok := waited()
	if !ok {
		t.Skip("this kernel keeps no schedstat")
	}
	var wg sync.WaitGroup
	for range 2 * runtime.NumCPU() {
		wg.Go(func() {
			for range 200_000 {
				runtime.Gosched()
			}
		})
	}
	wg.Wait()
	b, ok := waited()
	if !ok {
		t.Fatal("schedstat could be read once and then not")
	}
	if a < 0 || b < a {
		t.Errorf("the threads had waited %v, then %v", a, b)
	}
}
