package loadtest

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestParseMachineTimes(t *testing.T) {
	const tick = 10 * time.Millisecond
	for _, tc := range []struct {
		name, in string
		want     machineTimes
		err      string
	}{
		{
			name: "a kernel of today",
			in:   "cpu  1000 20 300 90000 40 5 6 70 0 0\ncpu0 500 10 150 45000 20 2 3 35 0 0\nintr 1 2 3\n",
			// user+nice+system+irq+softirq; guest is within user already
			want: machineTimes{busy: 1331 * tick, steal: 70 * tick},
		},
		{
			name: "guest time is not counted twice",
			in:   "cpu  1000 0 0 0 0 0 0 0 400 100\n",
			want: machineTimes{busy: 1000 * tick},
		},
		{
			name: "only the first eight counts",
			in:   "cpu 1 2 3 4 5 6 7 8\n",
			want: machineTimes{busy: (1 + 2 + 3 + 6 + 7) * tick, steal: 8 * tick},
		},
		{name: "empty", in: "", err: "no machine line"},
		{name: "a processor's line first", in: "cpu0 1 2 3 4 5 6 7 8\n", err: "no machine line"},
		{name: "too few counts", in: "cpu 1 2 3 4 5 6 7\n", err: "no machine line"},
		{name: "a count not a number", in: "cpu 1 2 x 4 5 6 7 8\n", err: `count 3 of the machine line is "x"`},
		{name: "a negative count", in: "cpu 1 2 3 4 5 6 7 -8\n", err: `count 8 of the machine line is "-8"`},
		{name: "the machine line not first", in: "intr 1\ncpu 1 2 3 4 5 6 7 8\n", err: "no machine line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseMachineTimes([]byte(tc.in))
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one saying %q", err, tc.err)
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case got != tc.want:
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestMachineUse checks the line a run prints: the machine's busy and
// stolen time over the span, and the CPU of every process but ours, a
// process started within the span counted whole.
func TestMachineUse(t *testing.T) {
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	a := machineSample{
		at:    at,
		times: machineTimes{busy: 100 * time.Second, steal: 10 * time.Second},
		procs: map[int]time.Duration{1: time.Second, 2: 5 * time.Second, 3: 2 * time.Second, 9: time.Second},
	}
	b := machineSample{
		at:    at.Add(10 * time.Second),
		times: machineTimes{busy: 115 * time.Second, steal: 12 * time.Second},
		// 1: 1 s more (ours, the server); 2: 9 s more (ours, the tool);
		// 3: 1.5 s more; 4: started meanwhile, 0.5 s; 9 ended meanwhile.
		procs: map[int]time.Duration{1: 2 * time.Second, 2: 14 * time.Second, 3: 3500 * time.Millisecond, 4: 500 * time.Millisecond},
	}
	m, ok := machineUse(a, b, 1, 2)
	if !ok {
		t.Fatal("a span of 10 seconds not measured")
	}
	var out strings.Builder
	m.print(&out)
	want := fmt.Sprintf("  machine: 1.50 of %d processors busy, 0.20 more taken by the host (steal); other processes 0.20\n", runtime.NumCPU())
	if out.String() != want {
		t.Fatalf("printed %q, want %q", out.String(), want)
	}
	if m, ok := machineUse(b, a); ok {
		t.Fatalf("a span of no time measured: %+v", m)
	}
}

// TestSampleMachine reads this machine's /proc: the test's own process is
// among those seen, and the machine's busy time does not go back.
func TestSampleMachine(t *testing.T) {
	a, ok := sampleMachine()
	if !ok {
		if runtime.GOOS == "linux" {
			t.Fatal("cannot read /proc/stat on Linux")
		}
		t.Skip("no /proc/stat here")
	}
	if _, ok := a.procs[os.Getpid()]; !ok {
		t.Fatalf("this process (%d) is not among the %d seen", os.Getpid(), len(a.procs))
	}
	for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); {
		// Some CPU for the counts to move.
	}
	b, ok := sampleMachine()
	if !ok {
		t.Fatal("/proc/stat read once, then not")
	}
	if b.times.busy < a.times.busy || b.times.steal < a.times.steal {
		t.Fatalf("the machine's times went back: %+v, then %+v", a.times, b.times)
	}
}
