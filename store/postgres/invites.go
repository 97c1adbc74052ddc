package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"parlour/invite"
	"parlour/store"
)

// insertCode gives table id the invite code code. A code whose table
// finished (or was cancelled) more than invite.Reserve ago is freed first, in the same
// transaction; one still held or reserved is store.ErrCodeTaken.
func insertCode(ctx context.Context, tx pgx.Tx, code, id string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM invite_codes WHERE code = $1 AND table_id IN
		(SELECT id FROM tables WHERE status IN ($2, $3) AND updated < $4)`,
		code, string(store.Finished), string(store.Cancelled), time.Now().Add(-invite.Reserve)); err != nil {
		return fmt.Errorf("postgres: freeing an old invite code: %w", err)
	}
	_, err := tx.Exec(ctx, "INSERT INTO invite_codes (code, table_id) VALUES ($1, $2)", code, id)
	if isConstraint(err) {
		return fmt.Errorf("code %s for table %s: %w", code, id, store.ErrCodeTaken)
	}
	if err != nil {
		return fmt.Errorf("postgres: storing an invite code: %w", err)
	}
	return nil
}

// TableByCode implements store.Invites.
func (s *Store) TableByCode(ctx context.Context, code string) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, "SELECT table_id FROM invite_codes WHERE code = $1", code).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("invite code %s: %w", code, store.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("postgres: reading an invite code: %w", err)
	}
	return id, nil
}

var _ store.Invites = (*Store)(nil)
