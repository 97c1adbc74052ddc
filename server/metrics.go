package server

import (
	"fmt"
	"io"
	"runtime"
	"sync/atomic"
	"time"
)

// commitStater is a store that groups writes into shared commits and
// counts them (store/sqlite does).
type commitStater interface {
	CommitStats() (commits, writes int64)
}

// metricSet counts what the service does, for GET /metrics.
type metricSet struct {
	tablesCreated atomic.Int64
	movesAccepted atomic.Int64
	movesRefused  atomic.Int64
	badTokens     atomic.Int64
	limited       atomic.Int64
	watchers      atomic.Int64
	sockets       atomic.Int64
	requests      [6]atomic.Int64 // by status class 1xx..5xx
	moveLatency   histogram
}

func newMetrics() *metricSet { return &metricSet{} }

// histogram is a Prometheus histogram of durations with fixed buckets.
type histogram struct {
	counts [numBuckets + 1]atomic.Int64
	sum    atomic.Int64 // nanoseconds
}

const numBuckets = 10

// latencyBuckets returns the histogram's upper bounds.
func latencyBuckets() [numBuckets]time.Duration {
	return [numBuckets]time.Duration{
		100 * time.Microsecond, 250 * time.Microsecond, 500 * time.Microsecond,
		time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond,
		10 * time.Millisecond, 25 * time.Millisecond, 100 * time.Millisecond, time.Second,
	}
}

func (h *histogram) observe(d time.Duration) {
	bounds := latencyBuckets()
	i := 0
	for i < numBuckets && d > bounds[i] {
		i++
	}
	h.counts[i].Add(1)
	h.sum.Add(int64(d))
}

func (m *metricSet) request(status int) {
	if c := status / 100; c >= 1 && c <= 5 {
		m.requests[c].Add(1)
	}
}

// write prints the metrics in Prometheus text format.
func (s *Service) writeMetrics(w io.Writer) {
	m := s.metrics
	counter := func(name, help string, v int64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s %d\n", name, help, name, name, v)
	}
	gauge := func(name, help string, v int64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n%s %d\n", name, help, name, name, v)
	}
	s.mu.RLock()
	tables := len(s.tables)
	s.mu.RUnlock()
	gauge("parlour_tables_in_memory", "Tables held in memory (live ones and recently finished ones).", int64(tables))
	counter("parlour_tables_created_total", "Tables created.", m.tablesCreated.Load())
	counter("parlour_moves_accepted_total", "Moves accepted and stored.", m.movesAccepted.Load())
	counter("parlour_moves_refused_total", "Moves the referee refused.", m.movesRefused.Load())
	counter("parlour_bad_tokens_total", "Requests with a token this server never issued.", m.badTokens.Load())
	counter("parlour_rate_limited_total", "Requests and messages refused by a rate limit.", m.limited.Load())
	gauge("parlour_watchers", "Open event streams and sockets following a table.", m.watchers.Load())
	gauge("parlour_websockets", "Open WebSocket connections.", m.sockets.Load())
	fmt.Fprintf(w, "# HELP parlour_http_requests_total HTTP requests answered, by status class.\n# TYPE parlour_http_requests_total counter\n")
	for c := 1; c <= 5; c++ {
		fmt.Fprintf(w, "parlour_http_requests_total{code=\"%dxx\"} %d\n", c, m.requests[c].Load())
	}
	h := &m.moveLatency
	fmt.Fprintf(w, "# HELP parlour_move_seconds Time from a move's arrival at its table to its durable commit.\n# TYPE parlour_move_seconds histogram\n")
	var cum int64
	for i, b := range latencyBuckets() {
		cum += h.counts[i].Load()
		fmt.Fprintf(w, "parlour_move_seconds_bucket{le=\"%g\"} %d\n", b.Seconds(), cum)
	}
	cum += h.counts[numBuckets].Load()
	fmt.Fprintf(w, "parlour_move_seconds_bucket{le=\"+Inf\"} %d\n", cum)
	fmt.Fprintf(w, "parlour_move_seconds_sum %g\nparlour_move_seconds_count %d\n", time.Duration(h.sum.Load()).Seconds(), cum)
	if cs, ok := s.st.(commitStater); ok {
		commits, writes := cs.CommitStats()
		counter("parlour_store_commits_total", "Transactions the store committed.", commits)
		counter("parlour_store_writes_total", "Writes those transactions held (moves, tables, identities).", writes)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gauge("parlour_heap_bytes", "Bytes of allocated heap objects.", int64(ms.HeapAlloc))
	gauge("parlour_goroutines", "Goroutines.", int64(runtime.NumGoroutine()))
}
