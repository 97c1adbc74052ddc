package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

// emailColumns are the columns email reads, in its order.
const emailColumns = "identity, address, verified, your_move, game_end, challenge, verify_hash, verify_sent, reset_hash, reset_sent, updated"

// emailRow is e's values in emailColumns' order, as the table keeps them.
func emailRow(e store.Email) []any {
	var sent, resetSent *time.Time
	if !e.VerifySent.IsZero() {
		sent = &e.VerifySent
	}
	if e.ResetHash != nil {
		resetSent = &e.ResetSent
	}
	return []any{e.Identity, e.Address, e.Verified, e.YourMove, e.GameEnd, e.Challenge, e.VerifyHash, sent, e.ResetHash, resetSent, e.Updated}
}

// SetEmail implements store.Emails.
func (s *Store) SetEmail(ctx context.Context, e store.Email) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM email_unsubscribes WHERE identity = $1 AND EXISTS "+
			"(SELECT 1 FROM emails WHERE identity = $1 AND lower(address) <> lower($2))", e.Identity, e.Address); err != nil {
			return fmt.Errorf("postgres: forgetting the old address's unsubscribe tokens: %w", err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO emails ("+emailColumns+") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "+
			"ON CONFLICT (identity) DO UPDATE SET address = excluded.address, verified = excluded.verified, your_move = excluded.your_move, "+
			"game_end = excluded.game_end, challenge = excluded.challenge, verify_hash = excluded.verify_hash, verify_sent = excluded.verify_sent, "+
			"reset_hash = excluded.reset_hash, reset_sent = excluded.reset_sent, updated = excluded.updated", emailRow(e)...); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("e-mail address of %s: %w", e.Identity, store.ErrConflict)
			}
			return fmt.Errorf("postgres: storing an e-mail address: %w", err)
		}
		return nil
	})
}

// SetEmailIf implements store.Emails.
func (s *Store) SetEmailIf(ctx context.Context, e store.Email, was time.Time) error {
	// Every column but the identity, then the identity and was.
	args := append(emailRow(e)[1:], e.Identity, was)
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE emails SET address = $1, verified = $2, your_move = $3, game_end = $4, challenge = $5, verify_hash = $6, verify_sent = $7, "+
			"reset_hash = $8, reset_sent = $9, updated = $10 WHERE identity = $11 AND updated = $12", args...)
		if err != nil {
			if isConstraint(err) {
				return fmt.Errorf("e-mail address of %s: %w", e.Identity, store.ErrConflict)
			}
			return fmt.Errorf("postgres: storing an e-mail address: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("e-mail address of %s changed since it was read: %w", e.Identity, store.ErrConflict)
		}
		return nil
	})
}

// EmailOf implements store.Emails.
func (s *Store) EmailOf(ctx context.Context, identity string) (store.Email, error) {
	return s.email(ctx, "identity = $1", identity)
}

// EmailByVerifyHash implements store.Emails.
func (s *Store) EmailByVerifyHash(ctx context.Context, h []byte) (store.Email, error) {
	return s.email(ctx, "verify_hash = $1", h)
}

// EmailByResetHash implements store.Emails.
func (s *Store) EmailByResetHash(ctx context.Context, h []byte) (store.Email, error) {
	return s.email(ctx, "reset_hash = $1", h)
}

// SpendReset implements store.Emails.
func (s *Store) SpendReset(ctx context.Context, h []byte, at time.Time) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE emails SET reset_hash = NULL, reset_sent = NULL, updated = $1 WHERE reset_hash = $2", at, h)
		if err != nil {
			return fmt.Errorf("postgres: spending a password reset token: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("password reset token: %w", store.ErrNotFound)
		}
		return nil
	})
}

// AddUnsubscribe implements store.Emails.
func (s *Store) AddUnsubscribe(ctx context.Context, identity string, h []byte, at, forget time.Time) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "INSERT INTO email_unsubscribes (hash, identity, created) SELECT $1, identity, $2 FROM emails WHERE identity = $3", h, at, identity)
		if err != nil {
			if isConstraint(err) {
				return fmt.Errorf("unsubscribe token: %w", store.ErrConflict)
			}
			return fmt.Errorf("postgres: storing an unsubscribe token: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("e-mail address: %w", store.ErrNotFound)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM email_unsubscribes WHERE identity = $1 AND created < $2", identity, forget); err != nil {
			return fmt.Errorf("postgres: forgetting old unsubscribe tokens: %w", err)
		}
		return nil
	})
}

// EmailByUnsubscribeHash implements store.Emails.
func (s *Store) EmailByUnsubscribeHash(ctx context.Context, h []byte) (store.Email, error) {
	return s.email(ctx, "identity = (SELECT identity FROM email_unsubscribes WHERE hash = $1)", h)
}

func (s *Store) email(ctx context.Context, where string, arg any) (store.Email, error) {
	var e store.Email
	var sent, resetSent *time.Time
	err := s.pool.QueryRow(ctx, "SELECT "+emailColumns+" FROM emails WHERE "+where, arg).Scan(
		&e.Identity, &e.Address, &e.Verified, &e.YourMove, &e.GameEnd, &e.Challenge, &e.VerifyHash, &sent, &e.ResetHash, &resetSent, &e.Updated)
	if errors.Is(err, pgx.ErrNoRows) {
		return e, fmt.Errorf("e-mail address: %w", store.ErrNotFound)
	}
	if err != nil {
		return e, fmt.Errorf("postgres: reading an e-mail address: %w", err)
	}
	if sent != nil {
		e.VerifySent = utc(*sent)
	}
	if resetSent != nil && e.ResetHash != nil {
		e.ResetSent = utc(*resetSent)
	}
	e.Updated = utc(e.Updated)
	return e, nil
}

// DeleteEmail implements store.Emails.
func (s *Store) DeleteEmail(ctx context.Context, identity string) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "DELETE FROM emails WHERE identity = $1", identity)
		if err != nil {
			return fmt.Errorf("postgres: deleting an e-mail address: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("e-mail address: %w", store.ErrNotFound)
		}
		return nil
	})
}

var _ store.Emails = (*Store)(nil)
