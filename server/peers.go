package server

import (
	"context"
)

// Each domain says what it needs of the other nodes of a cluster in an
// interface of its own; the cluster implements them all, and a single
// node leaves them nil.

// PlayersPeers is what accounts need of the other nodes.
type PlayersPeers interface {
	// ForgetEverywhere tells every other node to drop the credentials
	// that hash to hashes from its cache, and waits for their answers
	// (bounded): a token signed out on one node must not go on working
	// on another.
	ForgetEverywhere(ctx context.Context, hashes [][]byte)
}

// SocialPeers is what presence and the player streams need of the other
// nodes.
type SocialPeers interface {
	// OnlineElsewhere returns the identities online on the other nodes.
	OnlineElsewhere(ctx context.Context) []string
	// StreamElsewhere hands ev to identity's player streams on the other
	// nodes, without waiting.
	StreamElsewhere(identity string, ev StreamEvent)
}
