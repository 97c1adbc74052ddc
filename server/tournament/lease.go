package tournament

import "context"

// Lease is one node's hold on an event's pairing: only the node that
// holds an event's lease starts it, pairs it, scores its games and ends
// it, so that two nodes never pair one round twice or seat one player at
// two tables.
//
// A single node holds every lease for ever (Always). A cluster satisfies
// it with the store's leases (store.Leases), as it does for tables: the
// lease of an event is a row keyed "tournament:" + its id, taken by the
// node whose scheduler finds the event due and renewed with the node's
// other leases; its epoch fences the event's writes as a table's fences
// its moves, so that a node that lost the lease (it was cut off, its
// clock stalled) has its late writes refused rather than doubling a
// round. A node that dies mid-event loses no game and no point: its games
// are tables, which move to other nodes as tables do, each game's end is
// stored by the node that finishes it, and the node that takes the lease
// reads the event back (the round's stored pairing, the games' results)
// and carries on from there within the lease's time.
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
