package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
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
// however the process ends; should that connection end while the
// process runs (PostgreSQL restarted), the lock is taken again on a new
// one (see Lost). A database that cannot be reached is an error; one
// served already is ErrServed.
func (s *Store) LockServe(ctx context.Context, shared bool) (release func(), err error) {
	l, err := lockServe(ctx, s.pool.Config().ConnConfig, shared, s.log)
	if err != nil {
		return nil, err
	}
	return l.release, nil
}

// ServeLock says whether Open takes LockServe's lock, and which.
type ServeLock int

const (
	NoServeLock ServeLock = iota // admin's tasks beside a server
	ServeAlone                   // a server alone: keeps every other off
	ServeNode                    // a node of a cluster: shared by the nodes
)

// serveLock is LockServe's lock as held: a connection of its own that
// holds it, and the goroutine (hold) that takes it again on a new one
// when that connection ends.
type serveLock struct {
	cc     *pgx.ConnConfig
	shared bool
	log    *slog.Logger
	conn   *pgx.Conn // hold's alone until it ends
	stop   context.CancelFunc
	done   chan struct{} // closed when hold ends
	lost   chan error    // one error, when another took the lock
	once   sync.Once
}

// The waits before each try to take the lock again, doubling: PostgreSQL
// restarting takes seconds, and a server that cannot reach it can do
// nothing meanwhile anyway.
const (
	retakeFirst = 100 * time.Millisecond
	retakeMost  = 5 * time.Second
)

// lockServe takes LockServe's lock on a connection of its own made from
// cc, and holds it.
func lockServe(ctx context.Context, cc *pgx.ConnConfig, shared bool, log *slog.Logger) (*serveLock, error) {
	conn, err := takeServe(ctx, cc, shared)
	if err != nil {
		return nil, err
	}
	hctx, stop := context.WithCancel(context.Background())
	l := &serveLock{cc: cc, shared: shared, log: log, conn: conn, stop: stop, done: make(chan struct{}), lost: make(chan error, 1)}
	go l.hold(hctx)
	return l, nil
}

// takeServe connects and takes the lock, or says why not.
func takeServe(ctx context.Context, cc *pgx.ConnConfig, shared bool) (*pgx.Conn, error) {
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
	return conn, nil
}

// hold waits on the lock's connection, which carries nothing else, until
// ctx is done. A wait that ends otherwise is the connection lost, and
// the lock with it: hold takes it again on a new connection, trying
// until it can, unless another server took it meanwhile (then Lost says
// so, and hold ends).
func (l *serveLock) hold(ctx context.Context) {
	defer close(l.done)
	for {
		_, err := l.conn.WaitForNotification(ctx)
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			continue // a notification: nobody listens here, so none comes
		}
		l.log.Warn("the connection holding the database's lock ended: taking the lock again", "err", err)
		l.conn.Close(context.Background())
		l.conn = nil
		wait := retakeFirst
		for l.conn == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			wait = min(2*wait, retakeMost)
			conn, err := takeServe(ctx, l.cc, l.shared)
			switch {
			case errors.Is(err, ErrServed):
				l.log.Error("another server took the database's lock while this one's connection was down: this server must stop")
				l.lost <- fmt.Errorf("postgres: the database's lock was lost with its connection, and another server holds it now: %w", ErrServed)
				return
			case err != nil:
				if ctx.Err() != nil {
					return
				}
				l.log.Debug("taking the database's lock again", "err", err)
			default:
				l.conn = conn
				l.log.Info("the database's lock is held again")
			}
		}
	}
}

// release lets the lock go, once however often it is called.
func (l *serveLock) release() {
	l.once.Do(func() {
		l.stop()
		<-l.done
		if l.conn == nil {
			return
		}
		// Unlocked before the connection closes: PostgreSQL frees a
		// closed connection's locks only once its backend has noticed and
		// exited, after Close returns, so a server started again at once
		// (a restart, the next test) would find the database served yet.
		// Should the unlock fail, closing frees it all the same, later.
		unlock := "SELECT pg_advisory_unlock($1)"
		if l.shared {
			unlock = "SELECT pg_advisory_unlock_shared($1)"
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		l.conn.Exec(ctx, unlock, serveKey)
		l.conn.Close(ctx)
	})
}
