package store

import (
	"context"
	"time"
)

// HeldSeek is a seek waiting when its server stopped, as HeldSeeks keeps
// it: its id, and what the seek service wrote of it (JSON), which the
// store does not read.
type HeldSeek struct {
	ID   string
	Body []byte
	// Held is when the server stopped: the next one takes back only the
	// seeks of a short stop, whose players may still be waiting.
	Held time.Time
}

// HeldSeeks keeps the seeks waiting when a server stops, for the next
// one to start to take back, so that a player waiting for a game
// through a restart keeps waiting. A Store that holds accounts may
// implement it too.
type HeldSeeks interface {
	// HoldSeeks stores seeks beside any held already, each in place of
	// one of the same id.
	HoldSeeks(ctx context.Context, seeks []HeldSeek) error
	// TakeSeeks returns the seeks held, oldest first, and deletes them
	// in the same transaction: two servers starting at once never both
	// take one.
	TakeSeeks(ctx context.Context) ([]HeldSeek, error)
}
