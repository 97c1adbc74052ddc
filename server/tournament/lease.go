package tournament

import "context"

// Lease is one node's hold on an event's pairing: only the node that
// holds an event's lease starts it, pairs it, scores its games and ends
// it, so that two nodes never pair one round twice or seat one player at
// two tables.
//
// A single node holds every lease for ever (Always). A node of a cluster
// holds them through the store's leases, as it does tables
// (cluster.Events): the lease of an event is keyed store.TournamentLease
// + its id, taken by the node whose schedule finds the event due and
// renewed as it acts on the event.
//
// The epoch Hold returns fences the event's writes
// (store.TournamentWrite.Epoch) as a table's fences its moves, so that a
// node that lost the lease (cut off, its clock stalled) has its late
// writes refused rather than pairing a round twice. What a cluster still
// needs before the root runs events on its nodes (today it runs them on a
// single node only): a game's end heard on a node that does not hold its
// event must be stored there and the holder told (the bus), since tables
// move between nodes; and a node that takes an event over reads it back
// from the store (the round's stored pairing, the games' results) as New
// does after a restart, so that a node's death costs no game and no
// point.
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
