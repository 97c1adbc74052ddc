package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

var _ store.HeldSeeks = (*Store)(nil)

// HoldSeeks implements store.HeldSeeks.
func (s *Store) HoldSeeks(ctx context.Context, seeks []store.HeldSeek) error {
	if len(seeks) == 0 {
		return nil
	}
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		for _, sk := range seeks {
			if _, err := tx.Exec(ctx, "INSERT INTO held_seeks (id, body, held) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET body = excluded.body, held = excluded.held",
				sk.ID, string(sk.Body), sk.Held); err != nil {
				return fmt.Errorf("postgres: holding seek %s: %w", sk.ID, err)
			}
		}
		return nil
	})
}

// TakeSeeks implements store.HeldSeeks: one DELETE that returns what it
// deleted, so that of two servers taking at once each gets its own rows.
func (s *Store) TakeSeeks(ctx context.Context) ([]store.HeldSeek, error) {
	rows, err := s.pool.Query(ctx, "DELETE FROM held_seeks RETURNING id, body, held")
	if err != nil {
		return nil, fmt.Errorf("postgres: taking the seeks held: %w", err)
	}
	var out []store.HeldSeek
	for rows.Next() {
		var sk store.HeldSeek
		var body string
		var held time.Time
		if err := rows.Scan(&sk.ID, &body, &held); err != nil {
			rows.Close()
			return nil, fmt.Errorf("postgres: taking the seeks held: %w", err)
		}
		sk.Body, sk.Held = []byte(body), utc(held)
		out = append(out, sk)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: taking the seeks held: %w", err)
	}
	slices.SortFunc(out, func(a, b store.HeldSeek) int {
		return cmp.Or(a.Held.Compare(b.Held), strings.Compare(a.ID, b.ID))
	})
	return out, nil
}
