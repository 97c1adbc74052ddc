package store

import "context"

// Pinger is a store that can say whether it answers now. A server's
// readiness check (GET /readyz) asks it, so that a load balancer leaves
// out a node whose store is out of reach rather than send it players
// whose moves it cannot keep.
type Pinger interface {
	// Ping returns nil once the store has answered, or why it has not by
	// the time ctx ends.
	Ping(ctx context.Context) error
}
