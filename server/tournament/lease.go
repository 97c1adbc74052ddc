package tournament

import "context"

// Lease is one node's hold on an event's pairing: only the node that
// holds an event's lease keeps the event in memory, starts it, pairs it,
// scores its games, takes its players' joins and ends it, so that two
// nodes never pair one round twice or seat one player at two tables.
//
// A single node holds every lease for ever (Always). A node of a cluster
// holds them through the store's leases, as it does tables
// (cluster.Events): the lease of an event is keyed store.TournamentLease
// + its id, taken by the node that creates the event or finds it run by
// nobody (Config.Claim), and renewed as it acts on the event and at each
// Claim.
//
// The epoch Hold returns fences the event's writes
// (store.TournamentWrite.Epoch) as a table's fences its moves, so that a
// node that lost the lease (cut off, its clock stalled) has its late
// writes refused rather than pairing a round twice.
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

// Peers is what the events need of the other nodes of a cluster: a game
// of an event can end on another node than the one running the event
// (its table was handed to the node its players' requests come through,
// or taken over from a node that died), and the event's node must hear
// of it to score it and pair its players again.
type Peers interface {
	// GameOver tells the node that runs event id that its game at table
	// ended. It fails when no node runs the event just now; the node
	// that takes the event up next scores the game from its record.
	GameOver(ctx context.Context, event, table string) error
}
