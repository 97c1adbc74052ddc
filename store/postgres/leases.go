package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

// acquireLeaseQuery takes or renews a lease in one statement: a new row
// for a table never leased; for an expired lease, or one of the same
// owner, the row is taken over (a new epoch, unless the same owner's lease
// still holds). A lease of another owner that holds is left alone and
// nothing is returned. $3 is the time to live in microseconds.
const acquireLeaseQuery = `INSERT INTO table_leases AS l (table_id, owner, epoch, expires)
	VALUES ($1, $2, 1, now() + $3 * interval '1 microsecond')
	ON CONFLICT (table_id) DO UPDATE SET
		owner = excluded.owner,
		epoch = CASE WHEN l.owner = excluded.owner AND l.expires > now() THEN l.epoch ELSE l.epoch + 1 END,
		expires = excluded.expires
	WHERE l.expires <= now() OR l.owner = excluded.owner
	RETURNING epoch, expires`

// AcquireLease implements store.Leases.
func (s *Store) AcquireLease(ctx context.Context, table, owner string, ttl time.Duration) (store.Lease, error) {
	if ttl <= 0 {
		return store.Lease{}, fmt.Errorf("postgres: a lease of table %s for %v: the time must be positive", table, ttl)
	}
	l := store.Lease{Table: table, Owner: owner}
	err := s.write(ctx, func(ctx context.Context, q querier) error {
		err := q.QueryRow(ctx, acquireLeaseQuery, table, owner, ttl.Microseconds()).Scan(&l.Epoch, &l.Expires)
		if errors.Is(err, pgx.ErrNoRows) {
			if l, err = lease(ctx, q, table); err != nil {
				return err
			}
			return fmt.Errorf("table %s until %v: %w", table, l.Expires.Format(time.RFC3339Nano), store.ErrLeased)
		}
		if err != nil {
			return fmt.Errorf("postgres: taking a lease: %w", err)
		}
		l.Expires = utc(l.Expires)
		return nil
	})
	return l, err
}

// TakeLease implements store.Leases.
func (s *Store) TakeLease(ctx context.Context, from store.Lease, owner string, ttl time.Duration) (store.Lease, error) {
	if ttl <= 0 {
		return store.Lease{}, fmt.Errorf("postgres: a lease of table %s for %v: the time must be positive", from.Table, ttl)
	}
	l := store.Lease{Table: from.Table, Owner: owner}
	err := s.write(ctx, func(ctx context.Context, q querier) error {
		err := q.QueryRow(ctx, `UPDATE table_leases SET owner = $4, epoch = epoch + 1, expires = now() + $5 * interval '1 microsecond'
			WHERE table_id = $1 AND owner = $2 AND epoch = $3 RETURNING epoch, expires`,
			from.Table, from.Owner, from.Epoch, owner, ttl.Microseconds()).Scan(&l.Epoch, &l.Expires)
		if errors.Is(err, pgx.ErrNoRows) {
			if l, err = lease(ctx, q, from.Table); err != nil {
				return err
			}
			return fmt.Errorf("table %s has moved on from lease %d: %w", from.Table, from.Epoch, store.ErrLeased)
		}
		if err != nil {
			return fmt.Errorf("postgres: taking a lease over: %w", err)
		}
		l.Expires = utc(l.Expires)
		return nil
	})
	return l, err
}

// RenewLease implements store.Leases.
func (s *Store) RenewLease(ctx context.Context, l store.Lease, ttl time.Duration) (store.Lease, error) {
	if ttl <= 0 {
		return l, fmt.Errorf("postgres: renewing the lease of table %s for %v: the time must be positive", l.Table, ttl)
	}
	err := s.write(ctx, func(ctx context.Context, q querier) error {
		err := q.QueryRow(ctx, `UPDATE table_leases SET expires = now() + $4 * interval '1 microsecond'
			WHERE table_id = $1 AND owner = $2 AND epoch = $3 RETURNING expires`,
			l.Table, l.Owner, l.Epoch, ttl.Microseconds()).Scan(&l.Expires)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("lease %d of table %s: %w", l.Epoch, l.Table, store.ErrFenced)
		}
		if err != nil {
			return fmt.Errorf("postgres: renewing a lease: %w", err)
		}
		l.Expires = utc(l.Expires)
		return nil
	})
	return l, err
}

// renewLeasesQuery renews the leases named ($1 tables, $2 epochs) that
// $3 still holds, by $4 microseconds from now. It locks their rows in
// the order of the tables' ids, as the appenders' statements share-lock
// theirs, so that a renewal and an append, each locking several rows,
// never wait for each other in a circle.
const renewLeasesQuery = `WITH mine AS (
		SELECT l.table_id FROM table_leases l
		JOIN unnest($1::text[], $2::bigint[]) AS r(table_id, epoch) ON l.table_id = r.table_id AND l.epoch = r.epoch
		WHERE l.owner = $3
		ORDER BY l.table_id
		FOR UPDATE OF l)
	UPDATE table_leases l SET expires = now() + $4 * interval '1 microsecond'
	FROM mine WHERE l.table_id = mine.table_id
	RETURNING l.table_id, l.epoch, l.expires`

// maxRenewals bounds the leases one statement renews.
const maxRenewals = 2000

// RenewLeases implements store.Leases.
func (s *Store) RenewLeases(ctx context.Context, ls []store.Lease, ttl time.Duration) ([]store.Lease, error) {
	if ttl <= 0 {
		return nil, fmt.Errorf("postgres: renewing %d leases for %v: the time must be positive", len(ls), ttl)
	}
	var out []store.Lease
	for start := 0; start < len(ls); {
		// One owner a statement (a node renews its own: one).
		owner, end := ls[start].Owner, start
		for end < len(ls) && end-start < maxRenewals && ls[end].Owner == owner {
			end++
		}
		part := ls[start:end]
		start = end
		tables := make([]string, len(part))
		epochs := make([]int64, len(part))
		for i, l := range part {
			tables[i], epochs[i] = l.Table, l.Epoch
		}
		err := s.write(ctx, func(ctx context.Context, q querier) error {
			rows, err := q.Query(ctx, renewLeasesQuery, tables, epochs, owner, ttl.Microseconds())
			if err != nil {
				return err
			}
			renewed, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Lease, error) {
				l := store.Lease{Owner: owner}
				err := row.Scan(&l.Table, &l.Epoch, &l.Expires)
				l.Expires = utc(l.Expires)
				return l, err
			})
			out = append(out, renewed...)
			return err
		})
		if err != nil {
			return out, fmt.Errorf("postgres: renewing leases: %w", err)
		}
	}
	return out, nil
}

// ReleaseLease implements store.Leases.
func (s *Store) ReleaseLease(ctx context.Context, l store.Lease) error {
	return s.write(ctx, func(ctx context.Context, q querier) error {
		tag, err := q.Exec(ctx, "UPDATE table_leases SET expires = now() WHERE table_id = $1 AND owner = $2 AND epoch = $3", l.Table, l.Owner, l.Epoch)
		if err != nil {
			return fmt.Errorf("postgres: releasing a lease: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("lease %d of table %s: %w", l.Epoch, l.Table, store.ErrFenced)
		}
		return nil
	})
}

// Lease implements store.Leases.
func (s *Store) Lease(ctx context.Context, table string) (store.Lease, error) {
	return lease(ctx, s.pool, table)
}

func lease(ctx context.Context, q querier, table string) (store.Lease, error) {
	l := store.Lease{Table: table}
	err := q.QueryRow(ctx, "SELECT owner, epoch, expires FROM table_leases WHERE table_id = $1", table).Scan(&l.Owner, &l.Epoch, &l.Expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return l, fmt.Errorf("the lease of table %s: %w", table, store.ErrNotFound)
	}
	if err != nil {
		return l, fmt.Errorf("postgres: reading a lease: %w", err)
	}
	l.Expires = utc(l.Expires)
	return l, nil
}

// ExpiredLeases implements store.Leases.
func (s *Store) ExpiredLeases(ctx context.Context, limit int) ([]store.Lease, error) {
	rows, err := s.pool.Query(ctx, `SELECT l.table_id, l.owner, l.epoch, l.expires FROM table_leases l
		JOIN tables t ON t.id = l.table_id
		WHERE l.expires <= now() AND t.status NOT IN ($1, $2) ORDER BY l.expires, l.table_id LIMIT $3`, string(store.Finished), string(store.Cancelled), limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading expired leases: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Lease, error) {
		var l store.Lease
		err := row.Scan(&l.Table, &l.Owner, &l.Epoch, &l.Expires)
		l.Expires = utc(l.Expires)
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading expired leases: %w", err)
	}
	return out, nil
}

// fence checks, inside tx, that table's lease still has epoch (0: the
// write is not fenced), and holds a share lock of the lease's row until
// tx ends: a takeover, which updates the row, waits for tx, and finds the
// table's state with tx's writes in it.
func fence(ctx context.Context, tx pgx.Tx, table string, epoch int64) error {
	if epoch == 0 {
		return nil
	}
	var cur int64
	err := tx.QueryRow(ctx, "SELECT epoch FROM table_leases WHERE table_id = $1 FOR SHARE", table).Scan(&cur)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && cur != epoch {
		return fmt.Errorf("a write of table %s with lease %d: %w", table, epoch, store.ErrFenced)
	}
	if err != nil {
		return fmt.Errorf("postgres: checking the lease: %w", err)
	}
	return nil
}

var _ store.Leases = (*Store)(nil)
