package server

import (
	"context"
)

// Each domain says what it needs of the other nodes of a cluster in an
// interface of its own (players.Peers, SocialPeers); the cluster
// implements them all, and a single node leaves them nil.

// SocialPeers is what presence and the player streams need of the other
// nodes.
type SocialPeers interface {
	// OnlineElsewhere returns the identities online on the other nodes.
	OnlineElsewhere(ctx context.Context) []string
	// StreamElsewhere hands ev to identity's player streams on the other
	// nodes, without waiting.
	StreamElsewhere(identity string, ev StreamEvent)
}
