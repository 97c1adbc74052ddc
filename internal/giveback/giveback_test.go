package giveback

import (
	"runtime"
	"testing"
	"time"
)

// burst allocates about n bytes that become garbage at once.
func burst(n int) {
	var keep [][]byte
	for range n / (64 << 10) {
		keep = append(keep, make([]byte, 64<<10))
	}
	runtime.KeepAlive(keep)
}

// armed reports whether w's timer is set.
func (w *Watcher) isArmed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.armed
}

// waitArmed waits, for up to a minute, until the collector's finalizer
// has set w looking again.
func waitArmed(t *testing.T, w *Watcher) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !w.isArmed(); {
		if time.Now().After(deadline) {
			t.Fatal("waited a minute for a collection to set the Watcher looking")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestGivesBackOnceAfterABurst drives a Watcher's looks by hand (its own
// timer would wait an hour): memory is given back only once the process
// is quiet after allocating more than Worth or dropping WorthDropped, not
// while it allocates, and not again while it stays quiet, however often
// the collector runs; a drop short of WorthDropped goes back once the
// process has stayed quiet through TailQuiet too; a Watcher stopped gives
// nothing back. (Not parallel: it counts the whole
// process's allocations.)
func TestGivesBackOnceAfterABurst(t *testing.T) {
	released := 0
	w := Start(Config{Quiet: time.Hour, QuietBytes: 4 << 20, Worth: 32 << 20, WorthDropped: 8 << 20, TailQuiet: time.Hour, Release: func() { released++ }})
	defer w.Stop()
	steps := []struct {
		name  string
		alloc int    // bytes allocated before the look
		drop  uint64 // bytes the process says it let go of before the look
		gc    bool   // a collection runs first, and must set the Watcher looking
		want  int    // releases after the look
		armed bool   // the Watcher looks again after it
	}{
		{"busy", 64 << 20, 0, false, 0, true},
		{"quiet after the burst", 0, 0, false, 1, false},
		{"quiet, a collection later", 0, 0, true, 1, false},
		{"quiet, another collection later", 0, 0, true, 1, false},
		{"a burst less than Worth", 8 << 20, 0, true, 1, true},
		{"quiet after it", 0, 0, false, 1, false},
		{"a second burst", 64 << 20, 0, true, 1, true},
		{"quiet after the second", 0, 0, false, 2, false},
		{"a drop less than WorthDropped, quiet", 0, 4 << 20, false, 2, true},
		{"drops adding up to WorthDropped, quiet", 0, 4 << 20, false, 3, false},
		{"quiet after the drops", 0, 0, false, 3, false},
		{"a small drop, quiet", 0, 1 << 20, false, 3, true},
		{"busy before the tail is out", 8 << 20, 0, false, 3, true},
		{"quiet again", 0, 0, false, 3, true},
		{"quiet through the tail: the drop goes back", 0, 0, false, 4, false},
		{"quiet after the tail", 0, 0, false, 4, false},
		{"a drop and a burst adding up to Worth", 30 << 20, 4 << 20, false, 4, true},
		{"quiet after them", 0, 0, false, 5, false},
	}
	for _, st := range steps {
		if st.gc {
			runtime.GC()
			waitArmed(t, w)
		}
		if st.drop > 0 {
			w.Dropped(st.drop)
			if !w.isArmed() {
				t.Fatalf("%s: the Watcher does not look for the quiet after a drop", st.name)
			}
		}
		burst(st.alloc)
		w.look()
		if released != st.want || w.isArmed() != st.armed {
			t.Fatalf("%s: given back %d times, looking again %v; want %d, %v", st.name, released, w.isArmed(), st.want, st.armed)
		}
	}
	w.Stop()
	burst(64 << 20)
	w.look()
	w.look()
	if want := steps[len(steps)-1].want; released != want {
		t.Fatalf("given back %d times, want %d: a stopped Watcher gave memory back", released, want)
	}
}

// TestDropWhileGivingBack: what the process drops while memory goes back
// is not lost with what that release took: the Watcher looks for the quiet
// after it and gives it back in its turn. (Not parallel: it counts the
// whole process's allocations.)
func TestDropWhileGivingBack(t *testing.T) {
	released := 0
	var w *Watcher
	w = Start(Config{Quiet: time.Hour, QuietBytes: 4 << 20, Worth: 1 << 40, WorthDropped: 8 << 20, TailQuiet: time.Hour, Release: func() {
		released++
		if released == 1 {
			w.Dropped(8 << 20) // a wave of tables shedding meanwhile
		}
	}})
	defer w.Stop()
	w.Dropped(8 << 20)
	w.look()
	if released != 1 || !w.isArmed() {
		t.Fatalf("after the first drop: given back %d times, looking again %v; want 1, true", released, w.isArmed())
	}
	w.look()
	if released != 2 {
		t.Fatalf("the drop made while memory went back was not given back (%d releases, want 2)", released)
	}
}
