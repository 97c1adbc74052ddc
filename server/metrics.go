package server

import (
	"net/http"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// commitStater is a store that groups writes into shared commits and
// counts them (store/sqlite does).
type commitStater interface {
	CommitStats() (commits, writes int64)
}

// metricSet counts what the service does, for GET /metrics. Each Service
// has its own, in its own Prometheus registry (never the package-level
// default one), with the Go runtime's and the process's collectors.
type metricSet struct {
	reg *prometheus.Registry

	tablesCreated prometheus.Counter
	movesAccepted prometheus.Counter
	movesRefused  prometheus.Counter
	limited       prometheus.Counter
	watchers      prometheus.Gauge
	sockets       prometheus.Gauge
	requests      [6]prometheus.Counter // by status class 1xx..5xx
	moveLatency   latency

	// updatesEncoded counts the updates encoded for sockets, and
	// updatesShared those sent from an encoding another socket's update
	// made (one per version and view: see table.sharedUpdate).
	updatesEncoded prometheus.Counter
	updatesShared  prometheus.Counter
	// pushersStarted counts the goroutines started to push updates to
	// sockets, and pushesHeld the pushes a socket's move ran itself
	// instead (pushHeld).
	pushersStarted prometheus.Counter
	pushesHeld     prometheus.Counter
	// follows counts the sockets moved on to another table by a later
	// hello (socket.moveOn).
	follows prometheus.Counter
	// socketsBehind counts the times a socket's connection did not take
	// a write at once and a goroutine was started to send the rest
	// (corkConn.flush).
	socketsBehind prometheus.Counter

	// analysesComputed counts the analyses the engines computed, rather
	// than served from the cache or the store.
	analysesComputed prometheus.Counter
}

// latencyBuckets are the upper bounds of the move latency histogram, in
// seconds: 100 us to 1 s.
var latencyBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.1, 1}

// latency is a histogram of durations.
type latency struct{ h prometheus.Histogram }

func (l latency) observe(d time.Duration) { l.h.Observe(d.Seconds()) }

// newMetrics registers s's metrics, under the names /metrics has always
// used, with the Go runtime and process collectors beside them.
func newMetrics(s *Service) *metricSet {
	m := &metricSet{reg: prometheus.NewRegistry()}
	counter := func(name, help string) prometheus.Counter {
		c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
		m.reg.MustRegister(c)
		return c
	}
	gauge := func(name, help string) prometheus.Gauge {
		g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
		m.reg.MustRegister(g)
		return g
	}
	gaugeFunc := func(name, help string, f func() float64) {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
	}
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	gaugeFunc("parlour_tables_in_memory", "Tables held in memory (live ones and recently finished ones).", func() float64 {
		s.mu.RLock()
		defer s.mu.RUnlock()
		return float64(len(s.tables))
	})
	m.tablesCreated = counter("parlour_tables_created_total", "Tables created.")
	m.movesAccepted = counter("parlour_moves_accepted_total", "Moves accepted and stored.")
	m.movesRefused = counter("parlour_moves_refused_total", "Moves the referee refused.")
	m.limited = counter("parlour_rate_limited_total", "Requests and messages refused by a rate limit.")
	m.watchers = gauge("parlour_watchers", "Open event streams and sockets following a table.")
	m.sockets = gauge("parlour_websockets", "Open WebSocket connections.")
	m.updatesEncoded = counter("parlour_socket_updates_encoded_total", "Updates encoded for WebSockets.")
	m.analysesComputed = counter("parlour_analyses_computed_total", "Analyses of finished games the engines computed (not served from memory or the store).")
	m.updatesShared = counter("parlour_socket_updates_shared_total", "Updates sent over WebSockets from an encoding made for another socket of the same view.")
	m.pushersStarted = counter("parlour_socket_pushers_started_total", "Goroutines started to push updates to a WebSocket.")
	m.follows = counter("parlour_socket_follows_total", "WebSockets moved on to another table by a later hello, rather than closed and opened again.")
	m.socketsBehind = counter("parlour_socket_backlogs_total", "Times a WebSocket's connection did not take a write at once, so that the rest was kept and sent by a goroutine of its own: a client reading slowly.")
	m.pushesHeld = counter("parlour_socket_pushes_held_total", "Pushes to a seat's WebSocket run by the socket that played the move, rather than by a goroutine of their own.")
	reqs := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "parlour_http_requests_total", Help: "HTTP requests answered, by status class."}, []string{"code"})
	m.reg.MustRegister(reqs)
	for c := 1; c <= 5; c++ {
		// Resolved once: a request then costs one atomic add, not a
		// lookup by label.
		m.requests[c] = reqs.WithLabelValues(string(rune('0'+c)) + "xx")
	}
	m.moveLatency.h = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "parlour_move_seconds", Help: "Time from a move's arrival at its table to its durable commit.", Buckets: latencyBuckets,
	})
	m.reg.MustRegister(m.moveLatency.h)
	if cs, ok := s.st.(commitStater); ok {
		m.reg.MustRegister(
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "parlour_store_commits_total", Help: "Transactions the store committed."},
				func() float64 { c, _ := cs.CommitStats(); return float64(c) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "parlour_store_writes_total", Help: "Writes those transactions held (moves, tables, identities)."},
				func() float64 { _, w := cs.CommitStats(); return float64(w) }),
		)
	}
	gaugeFunc("parlour_heap_bytes", "Bytes of allocated heap objects.", func() float64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc)
	})
	gaugeFunc("parlour_goroutines", "Goroutines.", func() float64 { return float64(runtime.NumGoroutine()) })
	return m
}

func (m *metricSet) request(status int) {
	if c := status / 100; c >= 1 && c <= 5 {
		m.requests[c].Inc()
	}
}

// handler serves the metrics in Prometheus's text format.
func (m *metricSet) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
