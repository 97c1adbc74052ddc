package cluster

import (
	"context"
	"errors"
	"sync"
	"time"

	"parlour/store"
)

// Events are a node's leases of events' pairing, kept beside the tables'
// under store.TournamentLease (a table's id never starts with it), so
// that events and tables share one kind of lease, fenced alike: the lease a tournament
// asks for before it starts, pairs, scores or ends an event
// (tournament.Lease), so that of the nodes that find an event due only
// one acts. It is held as a table's is, with the same time, and renewed
// each time the event is acted on; an event nobody acts on for the
// lease's time is free for the next node that finds it due, at a new
// epoch, and the node that held it learns at its next Hold that it
// lost it.
type Events struct {
	leases store.Leases
	node   string
	ttl    time.Duration

	mu   sync.Mutex
	held map[string]heldEvent
}

// heldEvent is one lease of an event this node holds.
type heldEvent struct {
	lease store.Lease
	// renewed is when this node last took or renewed it, by its own
	// clock.
	renewed time.Time
}

// Events returns the node's leases of events.
func (c *Node) Events() *Events {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.events == nil {
		c.events = &Events{leases: c.leases, node: c.node, ttl: c.ttl, held: map[string]heldEvent{}}
	}
	return c.events
}

// Hold takes or renews this node's lease of event id, and reports
// whether this node holds it, at which epoch. A lease renewed less than a
// third of its time ago is not written again: an event acted on many
// times a second costs a write of its lease a few times a lease.
func (e *Events) Hold(ctx context.Context, id string) (int64, bool, error) {
	key := store.TournamentLease + id
	now := time.Now()
	e.mu.Lock()
	h, ok := e.held[key]
	e.mu.Unlock()
	if ok && now.Sub(h.renewed) < e.ttl/3 {
		return h.lease.Epoch, true, nil
	}
	if ok {
		l, err := e.leases.RenewLease(ctx, h.lease, e.ttl)
		switch {
		case err == nil:
			e.keep(key, l, now)
			return l.Epoch, true, nil
		case !errors.Is(err, store.ErrFenced):
			return 0, false, err
		}
		// Another node took it over: ask afresh (it may have let go).
		e.drop(key)
	}
	l, err := e.leases.AcquireLease(ctx, key, e.node, e.ttl)
	switch {
	case errors.Is(err, store.ErrLeased):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	}
	e.keep(key, l, now)
	return l.Epoch, true, nil
}

// Release lets event id's lease go at once, so that no node waits out
// its time for an event that is over.
func (e *Events) Release(ctx context.Context, id string) {
	key := store.TournamentLease + id
	e.mu.Lock()
	h, ok := e.held[key]
	delete(e.held, key)
	e.mu.Unlock()
	if ok {
		// A lease taken over meanwhile is not this node's to end.
		_ = e.leases.ReleaseLease(ctx, h.lease)
	}
}

func (e *Events) keep(key string, l store.Lease, at time.Time) {
	e.mu.Lock()
	e.held[key] = heldEvent{lease: l, renewed: at}
	e.mu.Unlock()
}

func (e *Events) drop(key string) {
	e.mu.Lock()
	delete(e.held, key)
	e.mu.Unlock()
}

// Holds reports whether this node holds event id's lease, by its own
// clock: taken or renewed less than the lease's time ago.
func (e *Events) Holds(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	h, ok := e.held[store.TournamentLease+id]
	return ok && time.Since(h.renewed) < e.ttl
}

// Lapse counts this node's lease of event id as run out by its own
// clock, as a renewal late on a busy machine leaves it until the next
// (which renews it as usual); the lease in the store is untouched. Tests
// of a cluster play a late renewal with it.
func (e *Events) Lapse(id string) {
	key := store.TournamentLease + id
	e.mu.Lock()
	defer e.mu.Unlock()
	if h, ok := e.held[key]; ok {
		h.renewed = time.Now().Add(-e.ttl)
		e.held[key] = h
	}
}

// Every is how often a node should renew the leases of the events it
// runs (and look for events nobody runs): a quarter of the lease's time,
// so that a renewal missed once leaves time for the next.
func (e *Events) Every() time.Duration { return e.ttl / 4 }

// releaseAll lets every event's lease this node holds go (the node
// closes).
func (e *Events) releaseAll(ctx context.Context) {
	e.mu.Lock()
	held := make([]store.Lease, 0, len(e.held))
	for _, h := range e.held {
		held = append(held, h.lease)
	}
	clear(e.held)
	e.mu.Unlock()
	for _, l := range held {
		// A lease taken over meanwhile is not this node's to end.
		_ = e.leases.ReleaseLease(ctx, l)
	}
}
