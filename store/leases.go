package store

import (
	"context"
	"errors"
	"time"
)

// ErrFenced is returned, wrapped, by a write fenced with an epoch (see
// Move.Epoch) that is no longer the table's: another node has taken the
// table over, and the write was not made.
var ErrFenced = errors.New("the table has passed to another owner")

// ErrLeased is returned, wrapped, by AcquireLease when another owner's
// lease of the table has not expired.
var ErrLeased = errors.New("the table is leased to another owner")

// SeekBookLease keys the lease of a cluster's seek book among the
// tables' (no table's id has a colon): the node that holds it keeps every
// seek waiting.
const SeekBookLease = "seeks:book"

// Lease is one node's ownership of a live table in a cluster: only the
// owner runs the table's referee, clocks and computer seats, and only
// moves fenced with its epoch are stored while it holds the lease.
type Lease struct {
	Table string
	Owner string // the node
	// Epoch counts the table's owners: each new owner's is higher than
	// every earlier one's.
	Epoch int64
	// Expires is when the lease ends unless renewed, by the store's
	// clock (the database server's, so that nodes' clocks need not
	// agree).
	Expires time.Time
}

// Leases keeps the ownership of tables among the nodes of a cluster. A
// Store shared by several nodes implements it, and checks the epoch of
// every fenced write against it.
type Leases interface {
	// AcquireLease makes owner the owner of table for ttl. A table never
	// leased, or whose lease has expired, gets a new epoch; owner's own
	// lease that has not expired is renewed with its epoch. Another
	// owner's lease that has not expired is ErrLeased, returned with that
	// lease, so that the caller knows whom to forward to.
	AcquireLease(ctx context.Context, table, owner string, ttl time.Duration) (Lease, error)
	// TakeLease makes owner the owner of table in place of lease from,
	// even before from expires: for a node that knows from's owner is
	// gone (it left the bus, killed or cut off). It succeeds only while
	// from is still the table's lease (the same owner and epoch), and
	// gives a new epoch, so that from's owner, if it runs on after all,
	// is fenced. Otherwise it is ErrLeased, returned with the lease.
	TakeLease(ctx context.Context, from Lease, owner string, ttl time.Duration) (Lease, error)
	// RenewLease extends lease l for ttl from now, even if it expired,
	// as long as nobody took the table over; otherwise it is ErrFenced.
	RenewLease(ctx context.Context, l Lease, ttl time.Duration) (Lease, error)
	// RenewLeases renews every lease of ls as RenewLease does, at once,
	// and returns those it renewed, with their new expiry; a lease of ls
	// it does not return was taken over (fenced). A node renews all its
	// leases with it on each tick: one statement, not one a table.
	RenewLeases(ctx context.Context, ls []Lease, ttl time.Duration) ([]Lease, error)
	// ReleaseLease ends lease l now, so that another node may take the
	// table at once; a lease already taken over is ErrFenced.
	ReleaseLease(ctx context.Context, l Lease) error
	// Lease returns the table's current (or last) lease; a table never
	// leased is ErrNotFound.
	Lease(ctx context.Context, table string) (Lease, error)
	// ExpiredLeases returns up to limit leases of live (not finished)
	// tables that have expired, the longest expired first: the tables
	// whose owner died or let go, for another node to take over.
	ExpiredLeases(ctx context.Context, limit int) ([]Lease, error)
}
