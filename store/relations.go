package store

import (
	"context"
	"time"
)

// Relation is what one account keeps about another: that it follows it
// (to hear when it comes online or starts a game) or blocks it (to keep
// it away).
type Relation string

// The relations an account may have to another. Each is private to the
// account that made it.
const (
	Follow Relation = "follow"
	Block  Relation = "block"
)

// Related is one relation as stored: From follows or blocks To since
// Created.
type Related struct {
	From    string
	To      string
	Created time.Time
}

// Relations keeps the follows and blocks between accounts. A Store that
// holds them implements it too; deleting an account (Players) deletes
// the relations from and to it in the same transaction.
type Relations interface {
	// Relate stores that from has kind to to, since at. It reports
	// whether the relation is new: relating again changes nothing.
	Relate(ctx context.Context, kind Relation, from, to string, at time.Time) (bool, error)
	// Unrelate deletes from's relation kind to to, reporting whether
	// there was one.
	Unrelate(ctx context.Context, kind Relation, from, to string) (bool, error)
	// RelatedFrom returns from's relations of kind, oldest first, at
	// most limit.
	RelatedFrom(ctx context.Context, kind Relation, from string, limit int) ([]Related, error)
	// RelatedTo returns the relations of kind that others have to to,
	// oldest first, at most limit: its followers, or who blocks it.
	RelatedTo(ctx context.Context, kind Relation, to string, limit int) ([]Related, error)
	// Blocking reports whether either of a and b blocks the other.
	Blocking(ctx context.Context, a, b string) (bool, error)
}
