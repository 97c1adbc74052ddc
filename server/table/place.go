package table

import (
	"context"

	"parlour/store"
)

// Placement says where each table lives. A single node runs every table
// itself (Here); a node of a cluster runs the tables whose lease it holds
// and sends the rest to their owners. The table service asks it before it
// holds a table in memory and tells it of every table it makes, rebuilds
// or changes out of sight, and nothing else of the service knows whether
// it is one node of many.
type Placement interface {
	// Claim makes sure somebody runs table id, and names the node that
	// does: "" when it is this one (it may have just taken it over).
	Claim(ctx context.Context, id string) (owner string, err error)
	// Created takes a new table, not yet stored, for this node; a table
	// that cannot be placed is not made.
	Created(ctx context.Context, id string) error
	// Abandoned gives back table id, taken by Created, whose storing
	// failed.
	Abandoned(ctx context.Context, id string)
	// Restored says that this node rebuilt table id from its record.
	Restored(id string)
	// Epoch returns the epoch under which this node runs table id, which
	// fences every write of the table (0 for a single node; -1 when this
	// node does not run it).
	Epoch(id string) int64
	// Fenced says that the store refused a write of table id made
	// under an epoch that has passed; the service drops its copy.
	Fenced(id string)
	// Changed tells the other nodes that table id changed, to mark
	// (version and last chat number), where they cannot see it: the
	// table left memory with the change.
	Changed(id string, mark int)
}

// Here is the Placement of a single node: every table runs here, at
// epoch 0, and nobody else is told anything.
type Here struct{}

func (Here) Claim(context.Context, string) (string, error) { return "", nil }
func (Here) Created(context.Context, string) error         { return nil }
func (Here) Abandoned(context.Context, string)             {}
func (Here) Restored(string)                               {}
func (Here) Epoch(string) int64                            { return 0 }
func (Here) Changed(string, int)                           {}
func (Here) Fenced(string)                                 {}

// LobbyPeers is what the lobby needs of the other nodes: their tables.
type LobbyPeers interface {
	// LobbyElsewhere returns at most limit public tables in status that
	// the other nodes run; a node that does not answer is left out.
	LobbyElsewhere(ctx context.Context, status store.Status, limit int) []Info
}

// Owner names the node that runs table id ("" for this one), making sure
// somebody does (Placement.Claim): a door that follows a table from
// another node asks it before it opens a watcher.
func (s *Service) Owner(ctx context.Context, id string) (string, error) {
	return s.place.Claim(ctx, id)
}
