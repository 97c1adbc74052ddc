package loadtest

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestIdleTablesPrint: where a table's resident set goes is printed only
// with both the resident set and the servers' spans known, and the rest
// is what the spans and stacks leave.
func TestIdleTablesPrint(t *testing.T) {
	t.Parallel()
	head := "1000 idle tables (10 moves in) over 1 node(s): heap +3000 bytes a table, +0.01 goroutines a table"
	tail := "; 0 of them out of memory (parked) after 25s quiet\n"
	for _, c := range []struct {
		name          string
		resident, spn bool
		want          string
	}{
		{"all known", true, true, head + ", resident set +9000 bytes a table" + tail +
			"  of the resident set, a table: the heap's spans +4500 bytes, stacks +300, the rest (the store's caches, the runtime) +4200\n"},
		{"no spans", true, false, head + ", resident set +9000 bytes a table" + tail},
		{"no resident set", false, true, head + tail},
	} {
		r := &IdleTables{Tables: 1000, Heap: 3000, Goroutines: 0.01, Resident: 9000, ResidentKnown: c.resident,
			Spans: 4500, Stacks: 300, SpansKnown: c.spn, Settle: 25 * time.Second, Nodes: []IdleNode{{}}}
		var b bytes.Buffer
		r.print(&b)
		if b.String() != c.want {
			t.Errorf("%s: printed\n%q, want\n%q", c.name, b.String(), c.want)
		}
	}
}

func TestIdleCPUQuantiles(t *testing.T) {
	t.Parallel()
	r := &IdleCPU{Tables: 1000, Sockets: 2000, Seconds: []float64{0.02, 0, 0.01, 0, 0, 0.05, 0, 0.01, 0, 0}, Mean: 0.009, LoadAverage: "1.50"}
	for _, c := range []struct {
		p, want float64
	}{
		{0, 0}, {0.5, 0}, {0.7, 0.01}, {0.8, 0.01}, {0.9, 0.02}, {0.99, 0.05}, {1, 0.05},
	} {
		if got := r.Quantile(c.p); got != c.want {
			t.Errorf("quantile %v = %v, want %v", c.p, got, c.want)
		}
	}
	if got := (&IdleCPU{}).Quantile(0.5); got != 0 {
		t.Errorf("quantile of no seconds = %v, want 0", got)
	}
	var b bytes.Buffer
	r.print(&b)
	want := "idle CPU over 10 s, 1000 tables, 2000 sockets, no moves: median 0.00% of a processor, p90 2.00%, p99 5.00%, max 5.00%; mean 0.90%; load average before 1.50\n"
	if b.String() != want {
		t.Errorf("printed\n%q, want\n%q", b.String(), want)
	}
	if strings.Contains(b.String(), "machine") {
		t.Error("a machine line printed with none measured")
	}
}
