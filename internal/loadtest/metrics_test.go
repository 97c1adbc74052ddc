package loadtest

import (
	"maps"
	"strings"
	"testing"
)

// TestParseMetrics reads Prometheus's text format: the counters, gauges
// and untyped metrics without labels, by name; labelled series, summaries
// and histograms left out; text that is not the format refused.
func TestParseMetrics(t *testing.T) {
	t.Parallel()
	const text = `# HELP parlour_moves_accepted_total Moves accepted and stored.
# TYPE parlour_moves_accepted_total counter
parlour_moves_accepted_total 1234
# HELP parlour_heap_bytes Bytes of allocated heap objects.
# TYPE parlour_heap_bytes gauge
parlour_heap_bytes 5.5e+07
# TYPE parlour_http_requests_total counter
parlour_http_requests_total{code="2xx"} 10
parlour_http_requests_total{code="4xx"} 2
# TYPE go_gc_duration_seconds summary
go_gc_duration_seconds{quantile="0.5"} 0.001
go_gc_duration_seconds_sum 0.5
go_gc_duration_seconds_count 7
plain_untyped 3
`
	got, err := parseMetrics(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"parlour_moves_accepted_total": 1234, "parlour_heap_bytes": 5.5e7, "plain_untyped": 3}
	if !maps.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for _, bad := range []string{"parlour_heap_bytes twelve\n", "# TYPE x counter\n# TYPE x gauge\nx 1\n", "{\n"} {
		if m, err := parseMetrics(strings.NewReader(bad)); err == nil {
			t.Errorf("%q read as %v", bad, m)
		}
	}
}
