package loadtest

import (
	"bytes"
	"strings"
	"testing"
)

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
