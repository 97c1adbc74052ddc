package loadtest

// The servers' counters, read from GET /metrics.

import (
	"context"
	"fmt"
	"io"
	"net/http"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// metrics reads the servers' counters from GET /metrics, each the sum
// over the nodes that answered (nil when none did).
func (t *tester) metrics(ctx context.Context) map[string]float64 {
	return sumMetrics(t.metricsEach(ctx))
}

// metricsEach reads each node's counters, in the order of the nodes (nil
// for one that did not answer).
func (t *tester) metricsEach(ctx context.Context) []map[string]float64 {
	out := make([]map[string]float64, len(t.nodes))
	for i := range t.nodes {
		out[i], _ = t.metricsAt(ctx, i)
	}
	return out
}

// sumMetrics sums the counters of the nodes that answered (nil when none
// did).
func sumMetrics(each []map[string]float64) map[string]float64 {
	var sum map[string]float64
	for _, m := range each {
		if m == nil {
			continue
		}
		if sum == nil {
			sum = map[string]float64{}
		}
		for k, v := range m {
			sum[k] += v
		}
	}
	return sum
}

// acceptedEach returns the moves each node has accepted as its tables'
// owner, from each node's counters, or nil when one does not say.
func acceptedEach(each []map[string]float64) []float64 {
	out := make([]float64, len(each))
	for i, m := range each {
		v, ok := m["parlour_moves_accepted_total"]
		if !ok {
			return nil
		}
		out[i] = v
	}
	return out
}

// metricsAt reads node i's counters from GET /metrics.
func (t *tester) metricsAt(ctx context.Context, i int) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", t.nodes[i].base+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	res, err := t.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s/metrics: %s", t.nodes[i].base, res.Status)
	}
	return parseMetrics(res.Body)
}

// parseMetrics reads the metrics of Prometheus's text format from r: the
// value of every counter, gauge and untyped metric without labels, by
// name. Labelled series are left out: the tool reads none.
func parseMetrics(r io.Reader) (map[string]float64, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("reading the metrics: %w", err)
	}
	out := map[string]float64{}
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			if len(m.GetLabel()) > 0 {
				continue
			}
			if v, ok := value(f.GetType(), m); ok {
				out[name] = v
			}
		}
	}
	return out, nil
}

// value returns m's value, if it is of a type that has one.
func value(t dto.MetricType, m *dto.Metric) (float64, bool) {
	switch t {
	case dto.MetricType_COUNTER:
		return m.GetCounter().GetValue(), true
	case dto.MetricType_GAUGE:
		return m.GetGauge().GetValue(), true
	case dto.MetricType_UNTYPED:
		return m.GetUntyped().GetValue(), true
	}
	return 0, false
}
