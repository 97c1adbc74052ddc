package server

import (
	"fmt"
	"strings"
	"testing"

	"parlour/internal/buildinfo"
	"parlour/server/limit"
)

// TestMetricNames: /metrics keeps every name it has always had, adds the
// Go runtime's and the process's and the build's, and each service counts for itself.
func TestMetricNames(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
	c := &client{t: t, base: srv.URL}
	c.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me"]}`, nil)
	st, body := c.do("GET", "/metrics", nil, nil)
	build := buildinfo.Read()
	if st != 200 {
		t.Fatalf("metrics: %d %s", st, body)
	}
	for _, want := range []string{
		"# TYPE parlour_tables_in_memory gauge\nparlour_tables_in_memory 1\n",
		"# TYPE parlour_tables_created_total counter\nparlour_tables_created_total 1\n",
		"# TYPE parlour_moves_accepted_total counter\nparlour_moves_accepted_total 0\n",
		"# TYPE parlour_moves_refused_total counter\n",
		"# TYPE parlour_bad_tokens_total counter\n",
		"# TYPE parlour_rate_limited_total counter\n",
		"# TYPE parlour_watchers gauge\n",
		"# TYPE parlour_websockets gauge\n",
		"# TYPE parlour_http_requests_total counter\n",
		`parlour_http_requests_total{code="2xx"} 1` + "\n",
		`parlour_http_requests_total{code="5xx"} 0` + "\n",
		"# TYPE parlour_move_seconds histogram\n",
		`parlour_move_seconds_bucket{le="0.0001"} 0` + "\n",
		`parlour_move_seconds_bucket{le="1"} 0` + "\n",
		`parlour_move_seconds_bucket{le="+Inf"} 0` + "\n",
		"parlour_move_seconds_sum 0\n", "parlour_move_seconds_count 0\n",
		"# TYPE parlour_store_commits_total counter\n",
		"# TYPE parlour_store_writes_total counter\n",
		"# TYPE parlour_heap_bytes gauge\n",
		"# TYPE parlour_goroutines gauge\n",
		"# TYPE parlour_build_info gauge\n",
		fmt.Sprintf(`parlour_build_info{goversion=%q,revision=%q,version=%q} 1`+"\n", build.Go, build.Short(), build.Version),
		"# TYPE go_goroutines gauge\n",
		"# TYPE go_memstats_heap_alloc_bytes gauge\n",
		"# TYPE go_sched_gomaxprocs_threads gauge\n",
		"# TYPE process_cpu_seconds_total counter\n",
		"# TYPE process_open_fds gauge\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	// A second service in the same process starts from nothing.
	g := newFixture(t)
	if n := gathered(t, g.s, "parlour_tables_created_total"); n != 0 {
		t.Errorf("a new service counts %v tables created", n)
	}
}

// gathered returns the value of s's counter called name.
func gathered(t *testing.T, s *Service, name string) float64 {
	t.Helper()
	mfs, err := s.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.GetMetric()) == 1 {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatalf("no counter %s", name)
	return 0
}
