package nats

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"parlour/bus"
)

// reportQuantiles reports the median and 99th percentile of ds, in
// microseconds, beside the mean that ns/op gives.
func reportQuantiles(b *testing.B, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	q := func(p float64) float64 { return float64(ds[int(p*float64(len(ds)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(q(0.5), "p50-µs")
	b.ReportMetric(q(0.99), "p99-µs")
}

// pair connects two nodes to an in-process NATS server on loopback: a
// owns table "t" and answers requests at once, b follows "t".
func pair(b *testing.B) (a, c *Bus, sub bus.Subscription) {
	s := runServer(b, -1)
	h := func(ctx context.Context, req bus.Request) ([]byte, error) { return req.Data, nil }
	a, err := connect(b, s.ClientURL(), "parlour", "a", h)
	if err != nil {
		b.Fatal(err)
	}
	c, err = connect(b, s.ClientURL(), "parlour", "b", nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Own(ctx, "t"); err != nil {
		b.Fatal(err)
	}
	if sub, err = c.Subscribe(ctx, "t"); err != nil {
		b.Fatal(err)
	}
	return a, c, sub
}

// updateSize is about the size of a socket update of a Quizl table.
const updateSize = 600

// BenchmarkPublishDeliver: one change from node a to a subscriber on
// node b, one at a time: ns/op is the latency from Publish to Next.
func BenchmarkPublishDeliver(b *testing.B) {
	a, _, sub := pair(b)
	update := make([]byte, updateSize)
	ctx := context.Background()
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if err := a.Publish("t", i+1, update); err != nil {
			b.Fatal(err)
		}
		c, err := sub.Next(ctx)
		if err != nil || c.Version != i+1 {
			b.Fatalf("got %+v, %v", c, err)
		}
		ds = append(ds, time.Since(start))
	}
	b.StopTimer()
	reportQuantiles(b, ds)
}

// BenchmarkPublishStream: changes published as fast as a node on
// another node can take them, the publisher at most half a buffer ahead
// so that none is dropped: ns/op is the time per change delivered.
// (Published in a tight loop with no window, the publisher, the NATS
// server and the reader share two cores and the reader, starved, is
// told of gaps instead: see the contract's SlowSubscriber.)
func BenchmarkPublishStream(b *testing.B) {
	a, _, sub := pair(b)
	update := make([]byte, updateSize)
	const window = bus.Buffer / 2
	read := make(chan int, 1)
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for v := 1; v <= b.N; v++ {
			c, err := sub.Next(ctx)
			if err == nil && (c.Version != v || c.Gap) {
				err = fmt.Errorf("got %+v, want version %d", c, v)
			}
			if err != nil {
				done <- err
				return
			}
			if v%window == 0 {
				read <- v
			}
		}
		done <- nil
	}()
	b.ResetTimer()
	for i := range b.N {
		if err := a.Publish("t", i+1, update); err != nil {
			b.Fatal(err)
		}
		if v := i + 1; v%window == 0 {
			select {
			case <-read:
			case err := <-done:
				b.Fatal(err)
			}
		}
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRequestOwner: a request from node b to the owner of a table
// on node a and its answer, one at a time: ns/op is the round trip.
func BenchmarkRequestOwner(b *testing.B) {
	_, c, _ := pair(b)
	ctx := context.Background()
	move := []byte(`{"move":"CRANE","version":12}`)
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if _, err := c.Request(ctx, bus.ToOwner("t"), move); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(start))
	}
	b.StopTimer()
	reportQuantiles(b, ds)
}

// BenchmarkRequestOwnerParallel: many requests at once from node b to
// the owner on node a: ns/op is the cost per request at full load.
func BenchmarkRequestOwnerParallel(b *testing.B) {
	_, c, _ := pair(b)
	move := []byte(`{"move":"CRANE","version":12}`)
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			if _, err := c.Request(ctx, bus.ToOwner("t"), move); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
