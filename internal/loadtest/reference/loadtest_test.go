package reference

import (
	"context"
	"testing"
	"time"

	"parlour/internal/loadtest"
)

// TestLoadtest: the load tool drives the reference server unchanged,
// over each door: every move accepted, and every acknowledged move found
// in its table's record afterwards.
func TestLoadtest(t *testing.T) {
	t.Parallel()
	for _, tr := range []loadtest.Transport{loadtest.TransportHTTP, loadtest.TransportWS} {
		t.Run(string(tr), func(t *testing.T) {
			t.Parallel()
			_, url := testServer(t)
			rep, err := loadtest.Run(context.Background(), loadtest.Config{
				Servers: []string{url}, Tables: 4, Rates: []float64{200}, Duration: time.Second, Identities: 8, Conns: 4,
				Verify: true, Stagger: true, Transport: tr, ViewTails: true,
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Failed() || len(rep.Runs) != 1 || rep.Runs[0].Accepted == 0 {
				t.Fatalf("run: %+v", rep.Runs[0])
			}
			if rep.Durable == nil || rep.Durable.Moves < int(rep.Runs[0].Accepted) {
				t.Fatalf("durability: %+v after %d moves accepted", rep.Durable, rep.Runs[0].Accepted)
			}
			if tr == loadtest.TransportWS && (rep.Runs[0].Sockets == nil || rep.Runs[0].Sockets.Pushed == 0) {
				t.Fatalf("no updates pushed to the sockets: %+v", rep.Runs[0].Sockets)
			}
		})
	}
}
