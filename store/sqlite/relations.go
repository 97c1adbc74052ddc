package sqlite

import (
	"context"
	"fmt"
	"time"

	"parlour/store"
)

// Relate implements store.Relations.
func (s *Store) Relate(ctx context.Context, kind store.Relation, from, to string, at time.Time) (bool, error) {
	var added bool
	err := s.do(ctx, func(ex *execer) error {
		n, err := ex.exec("INSERT INTO relations (kind, from_id, to_id, created) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", string(kind), from, to, nanos(at))
		if err != nil {
			return fmt.Errorf("sqlite: storing a %s: %w", kind, err)
		}
		added = n == 1
		return nil
	})
	return added, err
}

// Unrelate implements store.Relations.
func (s *Store) Unrelate(ctx context.Context, kind store.Relation, from, to string) (bool, error) {
	var removed bool
	err := s.do(ctx, func(ex *execer) error {
		n, err := ex.exec("DELETE FROM relations WHERE kind = ? AND from_id = ? AND to_id = ?", string(kind), from, to)
		if err != nil {
			return fmt.Errorf("sqlite: deleting a %s: %w", kind, err)
		}
		removed = n == 1
		return nil
	})
	return removed, err
}

// RelatedFrom implements store.Relations.
func (s *Store) RelatedFrom(ctx context.Context, kind store.Relation, from string, limit int) ([]store.Related, error) {
	return s.related(ctx, "SELECT from_id, to_id, created FROM relations WHERE kind = ? AND from_id = ? ORDER BY created, to_id LIMIT ?", kind, from, limit)
}

// RelatedTo implements store.Relations.
func (s *Store) RelatedTo(ctx context.Context, kind store.Relation, to string, limit int) ([]store.Related, error) {
	return s.related(ctx, "SELECT from_id, to_id, created FROM relations WHERE kind = ? AND to_id = ? ORDER BY created, from_id LIMIT ?", kind, to, limit)
}

func (s *Store) related(ctx context.Context, q string, kind store.Relation, id string, limit int) ([]store.Related, error) {
	rows, err := s.db.QueryContext(ctx, q, string(kind), id, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading %ss: %w", kind, err)
	}
	defer rows.Close()
	var out []store.Related
	for rows.Next() {
		var r store.Related
		var created int64
		if err := rows.Scan(&r.From, &r.To, &created); err != nil {
			return nil, fmt.Errorf("sqlite: reading %ss: %w", kind, err)
		}
		r.Created = fromNanos(created)
		out = append(out, r)
	}
	return out, rows.Err()
}

// Blocking implements store.Relations.
func (s *Store) Blocking(ctx context.Context, a, b string) (bool, error) {
	var n int64
	err := s.queryRow(ctx, "SELECT COUNT(*) FROM relations WHERE kind = ? AND ((from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?))",
		string(store.Block), a, b, b, a).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("sqlite: reading blocks: %w", err)
	}
	return n > 0, nil
}

var _ store.Relations = (*Store)(nil)
