package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcess checks that work done shows in the count.
func TestProcess(t *testing.T) {
	before, ok := Process()
	if !ok {
		if runtime.GOOS == "linux" {
			t.Fatal("cannot read the process's CPU time")
		}
		t.Skipf("no CPU time on %s", runtime.GOOS)
	}
	// Spin until the process has used a little CPU time.
	for deadline := time.Now().Add(30 * time.Second); ; {
		after, _ := Process()
		if after < before {
			t.Fatalf("the process's CPU time went back from %v to %v", before, after)
		}
		if after > before {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the process's CPU time stayed at %v while it spun", before)
		}
		for range 10000 {
			runtime.Gosched()
		}
	}
}
