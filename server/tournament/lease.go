package tournament

import (
	"context"
	"errors"
	"time"

	"parlour/store"
)

// Lease is one node's hold on an event's pairing: only the node that
// holds an event's lease starts it, pairs it, scores its games and ends
// it, so that two nodes never pair one round twice or seat one player at
// two tables.
//
// A single node holds every lease for ever (Always). A node of a cluster
// holds them through the store's leases (StoreLease), as it does tables:
// the lease of an event is keyed LeasePrefix + its id, taken by the node
// whose schedule finds the event due and renewed at each look.
//
// The epoch Hold returns fences the event's writes
// (store.TournamentWrite.Epoch) as a table's fences its moves, so that a
// node that lost the lease (cut off, its clock stalled) has its late
// writes refused rather than pairing a round twice. What a cluster still
// needs before the root runs events on its nodes (today it runs them on a
// single node only): a game's end heard on a node that does not hold its event must be stored
// there and the holder told (the bus), since tables move between nodes;
// and a node that takes an event over reads it back from the store (the
// round's stored pairing, the games' results) as New does after a
// restart, so that a node's death costs no game and no point.
type Lease interface {
	// Hold takes or renews this node's lease of event id, reporting
	// whether this node holds it and the epoch it holds it at.
	Hold(ctx context.Context, id string) (epoch int64, ok bool, err error)
	// Release lets event id's lease go: the event is over.
	Release(ctx context.Context, id string)
}

// Always is the lease of a single node: it holds every event, at epoch 0.
type Always struct{}

// Hold implements Lease.
func (Always) Hold(context.Context, string) (int64, bool, error) { return 0, true, nil }

// Release implements Lease.
func (Always) Release(context.Context, string) {}

// LeasePrefix keys an event's lease among the store's leases, apart from
// the tables' (a table's id never has it).
const LeasePrefix = store.TournamentLease

// StoreLease is the Lease of one node of a cluster, over the store's
// leases (store.Leases, PostgreSQL's): an event's lease is the one keyed
// LeasePrefix + its id, taken or renewed for TTL at each Hold, so that a
// node that stops holding it (it died, or was cut off) loses it within
// TTL and another node's next Hold takes it with a higher epoch. Its
// leases name no table, so the cluster never takes one over as a table.
type StoreLease struct {
	Leases store.Leases
	Node   string
	TTL    time.Duration
}

// Hold implements Lease.
func (l StoreLease) Hold(ctx context.Context, id string) (int64, bool, error) {
	le, err := l.Leases.AcquireLease(ctx, LeasePrefix+id, l.Node, l.TTL)
	switch {
	case errors.Is(err, store.ErrLeased):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	}
	return le.Epoch, true, nil
}

// Release implements Lease: the node lets its lease of event id go, when
// it holds it.
func (l StoreLease) Release(ctx context.Context, id string) {
	le, err := l.Leases.Lease(ctx, LeasePrefix+id)
	if err == nil && le.Owner == l.Node {
		_ = l.Leases.ReleaseLease(ctx, le)
	}
}
