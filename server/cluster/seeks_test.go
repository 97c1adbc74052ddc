package cluster

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/bus"
	"parlour/server/internal/servertest"
	"parlour/store"
	"parlour/store/postgres"
	"parlour/store/postgres/pgtest"
)

// TestBookHandedOn: a node that keeps the seek book and closes hands it
// to another, seeks and lease: its seeks, too many for one note, come in
// parts under the lease the other node took at a new epoch, every one
// once; the closing node then keeps seeks no more. A node that never kept
// the book hands nothing on.
func TestBookHandedOn(t *testing.T) {
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
	hub := bus.NewHub()
	node := func(name string) *Node {
		c := &Node{node: name, leases: st, ttl: 5 * time.Second, log: slog.New(slog.DiscardHandler),
			notesLost: prometheus.NewCounter(prometheus.CounterOpts{Name: "lost"}),
			fenced:    prometheus.NewCounter(prometheus.CounterOpts{Name: "fenced"})}
		relay := &Relay{c: c}
		b, err := hub.Join(name, relay.Handle)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		c.b = b
		return c
	}
	a, b, c := node("a"), node("b"), node("c")

	// Three seeks of 300 KB: more than one note takes.
	var handed []json.RawMessage
	for _, s := range []string{"x", "y", "z"} {
		handed = append(handed, json.RawMessage(`"`+strings.Repeat(s, 300<<10)+`"`))
	}
	a.SeeksHere(SeekBook{Hand: func() []json.RawMessage { return handed }})
	var mu sync.Mutex
	var took []string
	parts := 0
	b.SeeksHere(SeekBook{Take: func(body json.RawMessage) {
		var l []string
		if err := json.Unmarshal(body, &l); err != nil {
			t.Errorf("a part of the book: %v", err)
		}
		mu.Lock()
		defer mu.Unlock()
		parts++
		for _, s := range l {
			took = append(took, s[:1])
		}
	}})

	if owner, _, err := a.bookNode(ctx); err != nil || owner != "" {
		t.Fatalf("a takes the book nobody keeps: %q, %v", owner, err)
	}
	before, err := st.Lease(ctx, store.SeekBookLease)
	if err != nil {
		t.Fatal(err)
	}
	c.handBook(ctx) // c keeps nothing: it hands nothing on
	if parts != 0 {
		t.Fatalf("c, which keeps no seeks, handed on %d parts", parts)
	}
	a.handBook(ctx)
	mu.Lock()
	if strings.Join(took, "") != "xyz" || parts < 2 {
		t.Errorf("b took %q in %d parts, want x, y and z, in more than one", took, parts)
	}
	mu.Unlock()
	after, err := st.Lease(ctx, store.SeekBookLease)
	if err != nil || after.Owner != "b" || after.Epoch <= before.Epoch {
		t.Errorf("the book's lease after the hand-over: %+v (%v), want b's at an epoch above %d", after, err, before.Epoch)
	}
	if !b.holdsBook() || a.holdsBook() || c.holdsBook() {
		t.Errorf("b keeps the book: %v, a: %v, c: %v; want b alone", b.holdsBook(), a.holdsBook(), c.holdsBook())
	}
	if _, _, err := a.bookNode(ctx); err == nil {
		t.Error("a, closing, would keep the book again")
	}
	// A part sent again under an epoch not b's (a stale sender) is
	// refused, and b's book stays as it is.
	rp, err := a.note(ctx, "b", relayRequest{Kind: "book", Epoch: before.Epoch, Body: json.RawMessage(`["w"]`)})
	if err != nil || rp.Status == 200 || len(took) != 3 {
		t.Errorf("a stale part: %+v, %v; b took %q", rp, err, took)
	}
}
