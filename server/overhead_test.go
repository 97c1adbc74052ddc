package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// BenchmarkRequestOverhead measures what the handler adds to every
// request, a move's included: the connection's and the identity's rate
// limits, the status count, and a move's counters and latency histogram,
// around a request that does nothing else (GET /healthz).
func BenchmarkRequestOverhead(b *testing.B) {
	f := &fixture{t: &testing.T{}, dir: b.TempDir()}
	f.open()
	defer f.close()
	h := NewHandler(f.s, Limits{PerConn: 1e9, PerConnBurst: 1e9, PerIdentity: 1e9, PerIdentityBurst: 1e9})
	r := httptest.NewRequest("GET", "/healthz", nil)
	r = r.WithContext(h.ConnContext(context.Background(), nil))
	w := discard{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, r)
		h.byID.Allow("some-identity")
		f.s.metrics.movesAccepted.Add(1)
		f.s.metrics.moveLatency.observe(700 * time.Microsecond)
	}
}

type discard struct{ h http.Header }

func (d discard) Header() http.Header         { return d.h }
func (d discard) Write(b []byte) (int, error) { return len(b), nil }
func (d discard) WriteHeader(int)             {}
