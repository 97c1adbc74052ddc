package server

import (
	"net/http"
	"runtime"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metricSet counts what the doors and the domains above the tables do,
// for GET /metrics. Each Service has its own Prometheus registry (never
// the package-level default one), holding these, every part's own
// (the table service's, auth's, the analyses'), and the Go runtime's and
// the process's collectors.
type metricSet struct {
	reg *prometheus.Registry

	sockets  prometheus.Gauge
	requests [6]prometheus.Counter // by status class 1xx..5xx

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
}

// newMetrics makes the registry of a Service and registers the doors'
// metrics on it, under the names /metrics has always used.
func newMetrics() *metricSet {
	m := &metricSet{reg: prometheus.NewRegistry()}
	counter := func(name, help string) prometheus.Counter {
		c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
		m.reg.MustRegister(c)
		return c
	}
	gaugeFunc := func(name, help string, f func() float64) {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
	}
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.sockets = prometheus.NewGauge(prometheus.GaugeOpts{Name: "parlour_websockets", Help: "Open WebSocket connections."})
	m.reg.MustRegister(m.sockets)
	m.pushersStarted = counter("parlour_socket_pushers_started_total", "Goroutines started to push updates to a WebSocket.")
	m.follows = counter("parlour_socket_follows_total", "WebSockets moved on to another table by a later hello, rather than closed and opened again.")
	m.socketsBehind = counter("parlour_socket_backlogs_total", "Times a WebSocket's connection did not take a write at once, so that the rest was kept and sent by a goroutine of its own: a client reading slowly.")
	m.pushesHeld = counter("parlour_socket_pushes_held_total", "Pushes to a seat's WebSocket run by the socket that played the move, rather than by a goroutine of their own.")
	reqs := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "parlour_http_requests_total", Help: "HTTP requests answered, by status class."}, []string{"code"})
	m.reg.MustRegister(reqs)
	for c := 1; c <= 5; c++ {
		m.requests[c] = reqs.WithLabelValues(string(rune('0'+c)) + "xx")
	}
	gaugeFunc("parlour_heap_bytes", "Bytes of allocated heap objects.", func() float64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc)
	})
	gaugeFunc("parlour_goroutines", "Goroutines.", func() float64 { return float64(runtime.NumGoroutine()) })
	return m
}

// request counts an answer of status.
func (m *metricSet) request(status int) {
	if c := status / 100; c >= 1 && c <= 5 {
		m.requests[c].Inc()
	}
}

// handler serves the registry's metrics in Prometheus's text format.
func (m *metricSet) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
