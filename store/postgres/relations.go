package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

// Relate implements store.Relations.
func (s *Store) Relate(ctx context.Context, kind store.Relation, from, to string, at time.Time) (bool, error) {
	var added bool
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "INSERT INTO relations (kind, from_id, to_id, created) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING", string(kind), from, to, at)
		if err != nil {
			return fmt.Errorf("postgres: storing a %s: %w", kind, err)
		}
		added = tag.RowsAffected() == 1
		return nil
	})
	return added, err
}

// Unrelate implements store.Relations.
func (s *Store) Unrelate(ctx context.Context, kind store.Relation, from, to string) (bool, error) {
	var removed bool
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "DELETE FROM relations WHERE kind = $1 AND from_id = $2 AND to_id = $3", string(kind), from, to)
		if err != nil {
			return fmt.Errorf("postgres: deleting a %s: %w", kind, err)
		}
		removed = tag.RowsAffected() == 1
		return nil
	})
	return removed, err
}

// RelatedFrom implements store.Relations.
func (s *Store) RelatedFrom(ctx context.Context, kind store.Relation, from string, limit int) ([]store.Related, error) {
	return s.related(ctx, "SELECT from_id, to_id, created FROM relations WHERE kind = $1 AND from_id = $2 ORDER BY created, to_id LIMIT $3", kind, from, limit)
}

// RelatedTo implements store.Relations.
func (s *Store) RelatedTo(ctx context.Context, kind store.Relation, to string, limit int) ([]store.Related, error) {
	return s.related(ctx, "SELECT from_id, to_id, created FROM relations WHERE kind = $1 AND to_id = $2 ORDER BY created, from_id LIMIT $3", kind, to, limit)
}

func (s *Store) related(ctx context.Context, q string, kind store.Relation, id string, limit int) ([]store.Related, error) {
	rows, err := s.pool.Query(ctx, q, string(kind), id, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading %ss: %w", kind, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Related, error) {
		var r store.Related
		err := row.Scan(&r.From, &r.To, &r.Created)
		r.Created = utc(r.Created)
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading %ss: %w", kind, err)
	}
	return out, nil
}

// Blocking implements store.Relations.
func (s *Store) Blocking(ctx context.Context, a, b string) (bool, error) {
	var found bool
	err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM relations WHERE kind = $1 AND ((from_id = $2 AND to_id = $3) OR (from_id = $3 AND to_id = $2)))",
		string(store.Block), a, b).Scan(&found)
	if err != nil {
		return false, fmt.Errorf("postgres: reading blocks: %w", err)
	}
	return found, nil
}

var _ store.Relations = (*Store)(nil)
