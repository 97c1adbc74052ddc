package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// serveKey names the advisory lock of LockServe: "parlours" in ASCII,
// apart from migrationLock ("parlour"), which every node takes in turn
// while it migrates, and clear of any other program's locks.
const serveKey int64 = 0x7061726c6f757273

// ErrServed is LockServe's answer when the database is served in a way
// that excludes the server asking.
var ErrServed = errors.New("postgres: the database is served already")

// LockServe marks the database as served by this process until release
// is called or the process ends: by a server alone (shared false), which
// keeps every other server off it, or by one node of a cluster (shared
// true), which other nodes share. Two servers alone, or one beside a
// cluster, would each run the same live tables and refuse each other's
// moves; a cluster's nodes share them out by their leases. The lock is
// PostgreSQL's session advisory lock, on a connection of its own outside
// the pool, so PostgreSQL frees it when the process's connection ends
// however the process ends. A database that cannot be reached is an
// error; one served already is ErrServed.
func (s *Store) LockServe(ctx context.Context, shared bool) (release func(), err error) {
	return lockServe(ctx, s.pool.Config().ConnConfig, shared)
}

// ServeLock says whether Open takes LockServe's lock, and which.
type ServeLock int

const (
	NoServeLock ServeLock = iota // admin's tasks beside a server
	ServeAlone                   // a server alone: keeps every other off
	ServeNode                    // a node of a cluster: shared by the nodes
)

// lockServe is LockServe on a connection of its own made from cc.
func lockServe(ctx context.Context, cc *pgx.ConnConfig, shared bool) (release func(), err error) {
	conn, err := pgx.ConnectConfig(ctx, cc.Copy())
	if err != nil {
		return nil, fmt.Errorf("postgres: connecting to lock the database: %w", err)
	}
	try := "SELECT pg_try_advisory_lock($1)"
	if shared {
		try = "SELECT pg_try_advisory_lock_shared($1)"
	}
	var held bool
	if err := conn.QueryRow(ctx, try, serveKey).Scan(&held); err != nil {
		conn.Close(context.Background())
		return nil, fmt.Errorf("postgres: locking the database: %w", err)
	}
	if !held {
		conn.Close(context.Background())
		return nil, ErrServed
	}
	unlock := "SELECT pg_advisory_unlock($1)"
	if shared {
		unlock = "SELECT pg_advisory_unlock_shared($1)"
	}
	return func() {
		// Unlocked before the connection closes: PostgreSQL frees a
		// closed connection's locks only once its backend has noticed and
		// exited, after Close returns, so a server started again at once
		// (a restart, the next test) would find the database served yet.
		// Should the unlock fail, closing frees it all the same, later.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn.Exec(ctx, unlock, serveKey)
		conn.Close(ctx)
	}, nil
}
