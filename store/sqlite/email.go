package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"parlour/store"
)

// emailColumns are the columns scanEmail reads, in its order.
const emailColumns = "identity, address, verified, your_move, game_end, challenge, verify_hash, verify_sent, reset_hash, reset_sent, updated"

// emailRow is e's values in emailColumns' order, as the table keeps them.
func emailRow(e store.Email) []any {
	var sent int64
	if !e.VerifySent.IsZero() {
		sent = nanos(e.VerifySent)
	}
	var verify, reset any
	if e.VerifyHash != nil {
		verify = e.VerifyHash
	}
	var resetSent int64
	if e.ResetHash != nil {
		reset, resetSent = e.ResetHash, nanos(e.ResetSent)
	}
	return []any{e.Identity, e.Address, e.Verified, e.YourMove, e.GameEnd, e.Challenge, verify, sent, reset, resetSent, nanos(e.Updated)}
}

// SetEmail implements store.Emails.
func (s *Store) SetEmail(ctx context.Context, e store.Email) error {
	return s.do(ctx, func(ex *execer) error {
		if _, err := ex.exec("DELETE FROM email_unsubscribes WHERE identity = ? AND identity IN "+
			"(SELECT identity FROM emails WHERE identity = ? AND lower(address) <> lower(?))", e.Identity, e.Identity, e.Address); err != nil {
			return fmt.Errorf("sqlite: forgetting the old address's unsubscribe tokens: %w", err)
		}
		if _, err := ex.exec("INSERT INTO emails ("+emailColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "+
			"ON CONFLICT (identity) DO UPDATE SET address = excluded.address, verified = excluded.verified, your_move = excluded.your_move, "+
			"game_end = excluded.game_end, challenge = excluded.challenge, verify_hash = excluded.verify_hash, verify_sent = excluded.verify_sent, "+
			"reset_hash = excluded.reset_hash, reset_sent = excluded.reset_sent, updated = excluded.updated", emailRow(e)...); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("e-mail token: %w", store.ErrConflict)
			}
			return fmt.Errorf("sqlite: storing an e-mail address: %w", err)
		}
		return nil
	})
}

// SetEmailIf implements store.Emails.
func (s *Store) SetEmailIf(ctx context.Context, e store.Email, was time.Time) error {
	// Every column but the identity, then the identity and was.
	args := append(emailRow(e)[1:], e.Identity, nanos(was))
	return s.do(ctx, func(ex *execer) error {
		n, err := ex.exec("UPDATE emails SET address = ?, verified = ?, your_move = ?, game_end = ?, challenge = ?, verify_hash = ?, verify_sent = ?, "+
			"reset_hash = ?, reset_sent = ?, updated = ? WHERE identity = ? AND updated = ?", args...)
		if err != nil {
			if isConstraint(err) {
				return fmt.Errorf("e-mail token: %w", store.ErrConflict)
			}
			return fmt.Errorf("sqlite: storing an e-mail address: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("e-mail address changed since it was read: %w", store.ErrConflict)
		}
		return nil
	})
}

// EmailOf implements store.Emails.
func (s *Store) EmailOf(ctx context.Context, identity string) (store.Email, error) {
	return s.email(ctx, "identity = ?", identity)
}

// EmailByVerifyHash implements store.Emails.
func (s *Store) EmailByVerifyHash(ctx context.Context, h []byte) (store.Email, error) {
	return s.email(ctx, "verify_hash = ?", h)
}

// EmailByResetHash implements store.Emails.
func (s *Store) EmailByResetHash(ctx context.Context, h []byte) (store.Email, error) {
	return s.email(ctx, "reset_hash = ?", h)
}

// SpendReset implements store.Emails.
func (s *Store) SpendReset(ctx context.Context, h []byte, at time.Time) error {
	return s.do(ctx, func(ex *execer) error {
		n, err := ex.exec("UPDATE emails SET reset_hash = NULL, reset_sent = 0, updated = ? WHERE reset_hash = ?", nanos(at), h)
		if err != nil {
			return fmt.Errorf("sqlite: spending a password reset token: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("password reset token: %w", store.ErrNotFound)
		}
		return nil
	})
}

// AddUnsubscribe implements store.Emails.
func (s *Store) AddUnsubscribe(ctx context.Context, identity string, h []byte, at, forget time.Time) error {
	return s.do(ctx, func(ex *execer) error {
		n, err := ex.exec("INSERT INTO email_unsubscribes (hash, identity, created) SELECT ?, identity, ? FROM emails WHERE identity = ?", h, nanos(at), identity)
		if err != nil {
			if isConstraint(err) {
				return fmt.Errorf("unsubscribe token: %w", store.ErrConflict)
			}
			return fmt.Errorf("sqlite: storing an unsubscribe token: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("e-mail address: %w", store.ErrNotFound)
		}
		if _, err := ex.exec("DELETE FROM email_unsubscribes WHERE identity = ? AND created < ?", identity, nanos(forget)); err != nil {
			return fmt.Errorf("sqlite: forgetting old unsubscribe tokens: %w", err)
		}
		return nil
	})
}

// EmailByUnsubscribeHash implements store.Emails.
func (s *Store) EmailByUnsubscribeHash(ctx context.Context, h []byte) (store.Email, error) {
	return s.email(ctx, "identity = (SELECT identity FROM email_unsubscribes WHERE hash = ?)", h)
}

func (s *Store) email(ctx context.Context, where string, arg any) (store.Email, error) {
	var e store.Email
	var sent, resetSent, updated int64
	err := s.queryRow(ctx, "SELECT "+emailColumns+" FROM emails WHERE "+where, arg).Scan(
		&e.Identity, &e.Address, &e.Verified, &e.YourMove, &e.GameEnd, &e.Challenge, &e.VerifyHash, &sent, &e.ResetHash, &resetSent, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return e, fmt.Errorf("e-mail address: %w", store.ErrNotFound)
	}
	if err != nil {
		return e, fmt.Errorf("sqlite: reading an e-mail address: %w", err)
	}
	if sent != 0 {
		e.VerifySent = fromNanos(sent)
	}
	if e.ResetHash != nil {
		e.ResetSent = fromNanos(resetSent)
	}
	e.Updated = fromNanos(updated)
	return e, nil
}

// DeleteEmail implements store.Emails.
func (s *Store) DeleteEmail(ctx context.Context, identity string) error {
	return s.do(ctx, func(ex *execer) error {
		n, err := ex.exec("DELETE FROM emails WHERE identity = ?", identity)
		if err != nil {
			return fmt.Errorf("sqlite: deleting an e-mail address: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("e-mail address: %w", store.ErrNotFound)
		}
		return nil
	})
}

var _ store.Emails = (*Store)(nil)
