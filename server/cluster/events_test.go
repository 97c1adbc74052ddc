package cluster

import (
	"context"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/store"
	"parlour/store/postgres"
	"parlour/store/postgres/pgtest"
)

// TestEventLeases: one node at a time holds an event's lease; the other
// takes it, at a higher epoch, once the holder stops acting on the event
// for the lease's time, and the old holder then learns it lost it; a
// released lease is free at once.
func TestEventLeases(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pg := servertest.PG()
	if pg == nil {
		pgtest.Missing(t)
	}
	st, err := postgres.Open(ctx, pg.NewDatabase(t), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	const ttl = 600 * time.Millisecond
	a := &Events{leases: st, node: "a", ttl: ttl, held: map[string]heldEvent{}}
	b := &Events{leases: st, node: "b", ttl: ttl, held: map[string]heldEvent{}}
	hold := func(e *Events, id string) (int64, bool) {
		t.Helper()
		epoch, ok, err := e.Hold(ctx, id)
		if err != nil {
			t.Fatalf("%s holding %s: %v", e.node, id, err)
		}
		return epoch, ok
	}
	first, ok := hold(a, "ev1")
	if !ok {
		t.Fatal("a could not take a lease nobody held")
	}
	if _, ok := hold(b, "ev1"); ok {
		t.Fatal("b holds ev1 while a's lease runs")
	}
	if again, ok := hold(a, "ev1"); !ok || again != first {
		t.Fatalf("a holding ev1 again: epoch %d, %v; want %d, true", again, ok, first)
	}
	if _, ok := hold(b, "ev2"); !ok {
		t.Fatal("b could not take another event's lease")
	}
	// a stops acting on ev1: b may take it once the lease has run out.
	var taken int64
	for deadline := time.Now().Add(20 * ttl); ; {
		if epoch, ok := hold(b, "ev1"); ok {
			taken = epoch
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b never took ev1 over")
		}
		time.Sleep(ttl / 4)
	}
	if taken <= first {
		t.Errorf("b took ev1 at epoch %d, not above a's %d", taken, first)
	}
	if _, ok := hold(a, "ev1"); ok {
		t.Error("a still holds ev1 after b took it over")
	}
	b.Release(ctx, "ev1")
	if _, ok := hold(a, "ev1"); !ok {
		t.Error("a could not take ev1 once b released it")
	}
	if _, err := st.Lease(ctx, store.TournamentLease+"ev2"); err != nil {
		t.Errorf("ev2's lease is not kept under its prefix: %v", err)
	}
	if _, ok := hold(b, "ev2"); !ok {
		t.Fatal("b lost ev2, which nobody else wanted")
	}
	if !a.Holds("ev1") || a.Holds("ev2") || !b.Holds("ev2") {
		t.Errorf("Holds: a ev1 %v, a ev2 %v, b ev2 %v; want true, false, true", a.Holds("ev1"), a.Holds("ev2"), b.Holds("ev2"))
	}
	// A node that closes lets every event's lease go: the other takes
	// them at once.
	b.releaseAll(ctx)
	if b.Holds("ev2") {
		t.Error("b still counts ev2 as its own after letting go of all")
	}
	if _, ok := hold(a, "ev2"); !ok {
		t.Error("a could not take ev2 once b let go of all its events")
	}
}
