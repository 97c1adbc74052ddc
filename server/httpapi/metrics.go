package httpapi

import (
	"errors"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metricSet counts the requests the API answers, for GET /metrics,
// which serves them with every other part's from the registry the root
// hands in.
type metricSet struct {
	requests [6]prometheus.Counter // by status class 1xx..5xx
}

// newMetrics registers the API's metrics on reg, under the names
// /metrics has always used. A second handler on the same registry (a
// server serving on two listeners, say) counts into the first one's.
func newMetrics(reg prometheus.Registerer) (*metricSet, error) {
	reqs := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "parlour_http_requests_total", Help: "HTTP requests answered, by status class."}, []string{"code"})
	if err := reg.Register(reqs); err != nil {
		are, ok := errors.AsType[prometheus.AlreadyRegisteredError](err)
		if !ok {
			return nil, err
		}
		reqs = are.ExistingCollector.(*prometheus.CounterVec)
	}
	m := &metricSet{}
	for c := 1; c <= 5; c++ {
		m.requests[c] = reqs.WithLabelValues(string(rune('0'+c)) + "xx")
	}
	return m, nil
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
