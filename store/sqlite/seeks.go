package sqlite

import (
	"context"
	"fmt"

	"parlour/store"
)

var _ store.HeldSeeks = (*Store)(nil)

// HoldSeeks implements store.HeldSeeks.
func (s *Store) HoldSeeks(ctx context.Context, seeks []store.HeldSeek) error {
	if len(seeks) == 0 {
		return nil
	}
	return s.do(ctx, func(ex *execer) error {
		for _, sk := range seeks {
			if _, err := ex.exec("INSERT INTO held_seeks (id, body, held) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body, held = excluded.held",
				sk.ID, string(sk.Body), nanos(sk.Held)); err != nil {
				return fmt.Errorf("sqlite: holding seek %s: %w", sk.ID, err)
			}
		}
		return nil
	})
}

// TakeSeeks implements store.HeldSeeks. The writer reads them one at a
// time, oldest first, deleting each, in its one transaction.
func (s *Store) TakeSeeks(ctx context.Context) ([]store.HeldSeek, error) {
	var out []store.HeldSeek
	err := s.do(ctx, func(ex *execer) error {
		out = out[:0]
		for {
			var id, body string
			var held int64
			ok, err := ex.queryRow("SELECT id, body, held FROM held_seeks ORDER BY held, id LIMIT 1", nil, &id, &body, &held)
			if err != nil {
				return fmt.Errorf("sqlite: reading the seeks held: %w", err)
			}
			if !ok {
				return nil
			}
			if _, err := ex.exec("DELETE FROM held_seeks WHERE id = ?", id); err != nil {
				return fmt.Errorf("sqlite: taking seek %s: %w", id, err)
			}
			out = append(out, store.HeldSeek{ID: id, Body: []byte(body), Held: fromNanos(held)})
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
