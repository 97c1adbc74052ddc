package httpapi

import (
	"errors"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metricSet counts what the doors do, for GET /metrics, which serves
// them with every other part's from the registry the root hands in.
type metricSet struct {
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

// newMetrics registers the doors' metrics on reg, under the names
// /metrics has always used. A second handler on the same registry (a
// server serving on two listeners, say) counts into the first one's.
func newMetrics(reg prometheus.Registerer) (*metricSet, error) {
	m := &metricSet{}
	var err error
	register := func(c prometheus.Collector) prometheus.Collector {
		if e := reg.Register(c); e != nil {
			if are, ok := errors.AsType[prometheus.AlreadyRegisteredError](e); ok {
				return are.ExistingCollector
			}
			err = errors.Join(err, e)
		}
		return c
	}
	counter := func(name, help string) prometheus.Counter {
		return register(prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})).(prometheus.Counter)
	}
	m.sockets = register(prometheus.NewGauge(prometheus.GaugeOpts{Name: "parlour_websockets", Help: "Open WebSocket connections."})).(prometheus.Gauge)
	m.pushersStarted = counter("parlour_socket_pushers_started_total", "Goroutines started to push updates to a WebSocket.")
	m.follows = counter("parlour_socket_follows_total", "WebSockets moved on to another table by a later hello, rather than closed and opened again.")
	m.socketsBehind = counter("parlour_socket_backlogs_total", "Times a WebSocket's connection did not take a write at once, so that the rest was kept and sent by a goroutine of its own: a client reading slowly.")
	m.pushesHeld = counter("parlour_socket_pushes_held_total", "Pushes to a seat's WebSocket run by the socket that played the move, rather than by a goroutine of their own.")
	reqs := register(prometheus.NewCounterVec(prometheus.CounterOpts{Name: "parlour_http_requests_total", Help: "HTTP requests answered, by status class."}, []string{"code"})).(*prometheus.CounterVec)
	for c := 1; c <= 5; c++ {
		m.requests[c] = reqs.WithLabelValues(string(rune('0'+c)) + "xx")
	}
	return m, err
}

// request counts an answer of status.
func (m *metricSet) request(status int) {
	if c := status / 100; c >= 1 && c <= 5 {
		m.requests[c].Inc()
	}
}

// metricsHandler serves the registry's metrics in Prometheus's text
// format.
func (h *Handler) metricsHandler() http.Handler {
	return promhttp.HandlerFor(h.reg, promhttp.HandlerOpts{})
}
