package store

import (
	"context"
	"time"
)

// Clock is a store's own time. A store shared by several nodes implements
// it, so that what must be decided once for all of them (the day of the
// daily puzzles) follows one clock, not each node's. The embedded store
// does not: its process's clock is the server's.
type Clock interface {
	Now(ctx context.Context) (time.Time, error)
}
