package table

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// commitStater is a store that groups writes into shared commits and
// counts them (store/sqlite does).
type commitStater interface {
	CommitStats() (commits, writes int64)
}

// metricSet counts what the table service does, for GET /metrics,
// registered on the Registerer the service is given.
type metricSet struct {
	tablesCreated prometheus.Counter
	movesAccepted prometheus.Counter
	movesRefused  prometheus.Counter
	// limited counts the requests and messages refused by a rate limit,
	// here (chat) and at the doors (RateLimited).
	limited     prometheus.Counter
	watchers    prometheus.Gauge
	moveLatency latency

	// updatesEncoded counts the updates encoded for sockets, and
	// updatesShared those sent from an encoding another socket's update
	// made (one per version and view: see table.sharedUpdate).
	updatesEncoded prometheus.Counter
	updatesShared  prometheus.Counter
}

// LatencyBuckets returns the upper bounds of the move latency histogram,
// in seconds: 100 us to 1 s.
func LatencyBuckets() []float64 {
	return []float64{0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.1, 1}
}

// latency is a histogram of durations.
type latency struct{ h prometheus.Histogram }

func (l latency) observe(d time.Duration) { l.h.Observe(d.Seconds()) }

// newMetrics registers s's metrics on reg, under the names /metrics has
// always used.
func newMetrics(s *Service, reg prometheus.Registerer) (*metricSet, error) {
	m := &metricSet{}
	var cs []prometheus.Collector
	counter := func(name, help string) prometheus.Counter {
		c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
		cs = append(cs, c)
		return c
	}
	m.tablesCreated = counter("parlour_tables_created_total", "Tables created.")
	m.movesAccepted = counter("parlour_moves_accepted_total", "Moves accepted and stored.")
	m.movesRefused = counter("parlour_moves_refused_total", "Moves the referee refused.")
	m.limited = counter("parlour_rate_limited_total", "Requests and messages refused by a rate limit.")
	m.updatesEncoded = counter("parlour_socket_updates_encoded_total", "Updates encoded for WebSockets.")
	m.updatesShared = counter("parlour_socket_updates_shared_total", "Updates sent over WebSockets from an encoding made for another socket of the same view.")
	m.watchers = prometheus.NewGauge(prometheus.GaugeOpts{Name: "parlour_watchers", Help: "Open event streams and sockets following a table."})
	m.moveLatency.h = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "parlour_move_seconds", Help: "Time from a move's arrival at its table to its durable commit.", Buckets: LatencyBuckets(),
	})
	cs = append(cs, m.watchers, m.moveLatency.h,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "parlour_tables_in_memory", Help: "Tables held in memory (live ones and recently finished ones)."}, func() float64 {
			return float64(s.InMemory())
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "parlour_tables_parked", Help: "Games in play out of memory while nobody uses them."}, func() float64 {
			return float64(s.Parked())
		}))
	if st, ok := s.st.(commitStater); ok {
		cs = append(cs,
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "parlour_store_commits_total", Help: "Transactions the store committed."},
				func() float64 { c, _ := st.CommitStats(); return float64(c) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "parlour_store_writes_total", Help: "Writes those transactions held (moves, tables, identities)."},
				func() float64 { _, w := st.CommitStats(); return float64(w) }),
		)
	}
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// RateLimited counts one request or message refused by a rate limit: the
// doors count theirs with the table's chat limits, under one name.
func (s *Service) RateLimited() { s.metrics.limited.Inc() }
