package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"parlour/invite"
	"parlour/store"
)

// insertCode gives table id the invite code code. A code whose table
// finished (or was cancelled) more than invite.Reserve ago is freed first, in the same
// transaction; one still held or reserved is store.ErrCodeTaken.
func insertCode(ex *execer, code, id string) error {
	if _, err := ex.exec(`DELETE FROM invite_codes WHERE code = ? AND table_id IN
		(SELECT id FROM tables WHERE status IN (?, ?) AND updated < ?)`,
		code, string(store.Finished), string(store.Cancelled), nanos(time.Now().Add(-invite.Reserve))); err != nil {
		return fmt.Errorf("sqlite: freeing an old invite code: %w", err)
	}
	_, err := ex.exec("INSERT INTO invite_codes (code, table_id) VALUES (?, ?)", code, id)
	if isConstraint(err) {
		return fmt.Errorf("code %s for table %s: %w", code, id, store.ErrCodeTaken)
	}
	if err != nil {
		return fmt.Errorf("sqlite: storing an invite code: %w", err)
	}
	return nil
}

// TableByCode implements store.Invites.
func (s *Store) TableByCode(ctx context.Context, code string) (string, error) {
	var id string
	err := s.queryRow(ctx, "SELECT table_id FROM invite_codes WHERE code = ?", code).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("invite code %s: %w", code, store.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: reading an invite code: %w", err)
	}
	return id, nil
}
