package bus_test

import (
	"context"
	"testing"

	"parlour/bus"
)

// The in-process hub's figures, beside bus/nats's: what a single node
// pays for going through the bus.

func hubPair(b *testing.B) (a, c bus.Bus, sub bus.Subscription) {
	hub := bus.NewHub()
	a, err := hub.Join("a", func(ctx context.Context, req bus.Request) ([]byte, error) { return req.Data, nil })
	if err != nil {
		b.Fatal(err)
	}
	c, err = hub.Join("b", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close(); c.Close() })
	if err := a.Own(context.Background(), "t"); err != nil {
		b.Fatal(err)
	}
	if sub, err = c.Subscribe(context.Background(), "t"); err != nil {
		b.Fatal(err)
	}
	return a, c, sub
}

func BenchmarkHubPublishDeliver(b *testing.B) {
	a, _, sub := hubPair(b)
	data := make([]byte, 600)
	ctx := context.Background()
	for i := range b.N {
		if err := a.Publish("t", i+1, data); err != nil {
			b.Fatal(err)
		}
		if c, err := sub.Next(ctx); err != nil || c.Version != i+1 {
			b.Fatalf("got %+v, %v", c, err)
		}
	}
}

func BenchmarkHubRequestOwner(b *testing.B) {
	_, c, _ := hubPair(b)
	move := []byte(`{"move":"CRANE","version":12}`)
	ctx := context.Background()
	for range b.N {
		if _, err := c.Request(ctx, bus.ToOwner("t"), move); err != nil {
			b.Fatal(err)
		}
	}
}
