package socket

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// metricSet counts what the sockets do, for GET /metrics.
type metricSet struct {
	sockets prometheus.Gauge
	// pushersStarted counts the goroutines started to push updates to
	// sockets, and pushesHeld the pushes a socket's move ran itself
	// instead (pushHeld).
	pushersStarted prometheus.Counter
	pushesHeld     prometheus.Counter
	// pushing counts the sockets whose push is under way (running, or
	// held for a move to run).
	pushing prometheus.Gauge
	// follows counts the sockets moved on to another table by a later
	// hello (socket.moveOn).
	follows prometheus.Counter
	// socketsBehind counts the times a socket's connection did not take
	// a write at once and a goroutine was started to send the rest
	// (corkConn.flush).
	socketsBehind prometheus.Counter
}

// newMetrics registers the sockets' metrics on reg, under the names
// /metrics has always used. A second door on the same registry (a
// server serving on two listeners, say) counts into the first one's.
func newMetrics(reg prometheus.Registerer) (*metricSet, error) {
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
	m := &metricSet{
		sockets:        register(prometheus.NewGauge(prometheus.GaugeOpts{Name: "parlour_websockets", Help: "Open WebSocket connections."})).(prometheus.Gauge),
		pushersStarted: counter("parlour_socket_pushers_started_total", "Goroutines started to push updates to a WebSocket."),
		follows:        counter("parlour_socket_follows_total", "WebSockets moved on to another table by a later hello, rather than closed and opened again."),
		socketsBehind:  counter("parlour_socket_backlogs_total", "Times a WebSocket's connection did not take a write at once, so that the rest was kept and sent by a goroutine of its own: a client reading slowly."),
		pushing:        register(prometheus.NewGauge(prometheus.GaugeOpts{Name: "parlour_socket_pushes_pending", Help: "WebSockets with updates being pushed to them now, by a goroutine of their own or held for a move's socket to run."})).(prometheus.Gauge),
		pushesHeld:     counter("parlour_socket_pushes_held_total", "Pushes to a seat's WebSocket run by the socket that played the move, rather than by a goroutine of their own."),
	}
	return m, err
}
