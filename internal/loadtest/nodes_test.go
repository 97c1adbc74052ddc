package loadtest

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseNodes(t *testing.T) {
	for _, c := range []struct {
		in    string
		bases []string
		addrs []string
		bad   string // a part of the error, when it is refused
	}{
		{in: "http://localhost:8080", bases: []string{"http://localhost:8080"}, addrs: []string{"localhost:8080"}},
		{in: "http://127.0.0.1", bases: []string{"http://127.0.0.1"}, addrs: []string{"127.0.0.1:80"}},
		{in: "http://127.0.0.1:1/, http://127.0.0.2:2,http://[::1]:3",
			bases: []string{"http://127.0.0.1:1", "http://127.0.0.2:2", "http://[::1]:3"},
			addrs: []string{"127.0.0.1:1", "127.0.0.2:2", "[::1]:3"}},
		{in: "http://127.0.0.1:1,http://10.0.0.1:1", bad: "loopback"},
		{in: "http://127.0.0.1:1,http://127.0.0.1:1/", bad: "twice"},
		{in: "http://127.0.0.1:1,", bad: "loopback"},
		{in: "", bad: "loopback"},
		{in: "https://127.0.0.1:1", bad: "loopback"},
		{in: "127.0.0.1:8080", bad: "loopback"},
	} {
		nodes, err := parseNodes(strings.Split(c.in, ","))
		if c.bad != "" {
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("%q: %v, %v; want an error saying %q", c.in, nodes, err, c.bad)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		var bases, addrs []string
		for _, n := range nodes {
			bases, addrs = append(bases, n.base), append(addrs, n.addr)
			if n.host != strings.TrimPrefix(n.base, "http://") {
				t.Errorf("%q: host %q for %q", c.in, n.host, n.base)
			}
		}
		if !slices.Equal(bases, c.bases) || !slices.Equal(addrs, c.addrs) {
			t.Errorf("%q: %v %v, want %v %v", c.in, bases, addrs, c.bases, c.addrs)
		}
	}
}

// FuzzParseNodes: whatever the servers' URLs hold, parseNodes either refuses it or
// returns loopback nodes, none twice, each with a port to dial.
func FuzzParseNodes(f *testing.F) {
	for _, s := range []string{"http://localhost:8080", "http://127.0.0.1:1,http://[::1]:2/", "http://10.0.0.1", ",,", "http://127.0.0.1:1,http://127.0.0.1:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		nodes, err := parseNodes(strings.Split(s, ","))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, n := range nodes {
			if seen[n.host] {
				t.Fatalf("%q: %s twice", s, n.host)
			}
			seen[n.host] = true
			if !strings.HasPrefix(n.base, "http://") || strings.HasSuffix(n.base, "/") {
				t.Fatalf("%q: base %q", s, n.base)
			}
			if !strings.Contains(n.addr, ":") {
				t.Fatalf("%q: address %q has no port", s, n.addr)
			}
		}
	})
}

// TestPrintNodeCPU: each node's CPU is divided by the moves it accepted,
// and nothing is printed when a node accepted none (no figure to give).
func TestPrintNodeCPU(t *testing.T) {
	pids := []int{11, 12}
	cpu := []time.Duration{time.Second, 500 * time.Millisecond}
	for _, tc := range []struct {
		name     string
		accepted []float64
		want     string
	}{
		{"both", []float64{2000, 1000}, "  CPU per move each node accepted as its table's owner: pid 11 500µs over 2000 moves, pid 12 500µs over 1000 moves\n"},
		{"one idle", []float64{10, 0}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			printNodeCPU(&b, pids, cpu, tc.accepted)
			if b.String() != tc.want {
				t.Errorf("printed %q, want %q", b.String(), tc.want)
			}
		})
	}
}
