package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"parlour/store"
)

const challengeCols = "id, from_id, to_id, game, rules, rated, status, table_id, created, expires, lexicon"

func scanChallenge(sc interface{ Scan(...any) error }) (store.Challenge, error) {
	var c store.Challenge
	var rated int
	var status string
	var created, expires int64
	if err := sc.Scan(&c.ID, &c.From, &c.To, &c.Game, &c.Rules, &rated, &status, &c.Table, &created, &expires, &c.Lexicon); err != nil {
		return c, err
	}
	c.Rated, c.Status = rated != 0, store.ChallengeStatus(status)
	c.Created, c.Expires = fromNanos(created), fromNanos(expires)
	return c, nil
}

// CreateChallenge implements store.Challenges.
func (s *Store) CreateChallenge(ctx context.Context, c store.Challenge, caps store.ChallengeCaps) error {
	return s.do(ctx, func(ex *execer) error {
		rated := 0
		if c.Rated {
			rated = 1
		}
		open, now := string(store.ChallengeOpen), nanos(c.Created)
		// The checks and the insert run in the single writer's
		// transaction: no other write comes between them.
		var dup int64
		if _, err := ex.queryRow("SELECT COUNT(*) FROM challenges WHERE from_id = ? AND to_id = ? AND game = ? AND rules IS ? AND rated = ? AND lexicon = ? AND status = ? AND expires > ?",
			[]any{c.From, c.To, c.Game, c.Rules, rated, c.Lexicon, open, now}, &dup); err != nil {
			return fmt.Errorf("sqlite: storing a challenge: %w", err)
		}
		if dup > 0 {
			return fmt.Errorf("challenge %s: %w", c.ID, store.ErrChallengeDuplicate)
		}
		for _, cap := range []struct {
			col string
			id  string
			max int
			err error
		}{{"from_id", c.From, caps.From, store.ErrChallengesFrom}, {"to_id", c.To, caps.To, store.ErrChallengesTo}} {
			if cap.max <= 0 {
				continue
			}
			var n int64
			if _, err := ex.queryRow("SELECT COUNT(*) FROM challenges WHERE "+cap.col+" = ? AND status = ? AND expires > ?", []any{cap.id, open, now}, &n); err != nil {
				return fmt.Errorf("sqlite: storing a challenge: %w", err)
			}
			if n >= int64(cap.max) {
				return fmt.Errorf("challenge %s: %w", c.ID, cap.err)
			}
		}
		_, err := ex.exec("INSERT INTO challenges ("+challengeCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			c.ID, c.From, c.To, c.Game, c.Rules, rated, open, c.Table, now, nanos(c.Expires), c.Lexicon)
		if isConstraint(err) {
			return fmt.Errorf("challenge %s: %w", c.ID, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("sqlite: storing a challenge: %w", err)
		}
		return nil
	})
}

// Challenge implements store.Challenges.
func (s *Store) Challenge(ctx context.Context, id string) (store.Challenge, error) {
	c, err := scanChallenge(s.queryRow(ctx, "SELECT "+challengeCols+" FROM challenges WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("challenge %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("sqlite: reading challenge: %w", err)
	}
	return c, nil
}

// SettleChallenge implements store.Challenges.
func (s *Store) SettleChallenge(ctx context.Context, id string, status store.ChallengeStatus, table string) error {
	return s.do(ctx, func(ex *execer) error {
		return settleChallenge(ex, store.ChallengeAnswer{ID: id, Status: status, Table: table})
	})
}

// settleChallenge moves an open challenge to a.Status, in the caller's
// transaction.
func settleChallenge(ex *execer, a store.ChallengeAnswer) error {
	n, err := ex.exec("UPDATE challenges SET status = ?, table_id = ? WHERE id = ? AND status = ?", string(a.Status), a.Table, a.ID, string(store.ChallengeOpen))
	if err != nil {
		return fmt.Errorf("sqlite: settling a challenge: %w", err)
	}
	if n != 1 {
		return fmt.Errorf("challenge %s: %w", a.ID, store.ErrChallengeNotOpen)
	}
	return nil
}

// OpenChallenges implements store.Challenges.
func (s *Store) OpenChallenges(ctx context.Context, identity string, limit int) ([]store.Challenge, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+challengeCols+" FROM challenges WHERE status = ? AND (from_id = ? OR to_id = ?) ORDER BY created DESC, id LIMIT ?",
		string(store.ChallengeOpen), identity, identity, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading challenges: %w", err)
	}
	defer rows.Close()
	var out []store.Challenge
	for rows.Next() {
		c, err := scanChallenge(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: reading challenges: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// SetHidden implements store.Challenges.
func (s *Store) SetHidden(ctx context.Context, identity string, hidden bool) error {
	return s.setSetting(ctx, identity, "hidden", hidden)
}

// Hidden implements store.Challenges.
func (s *Store) Hidden(ctx context.Context, ids []string) (map[string]bool, error) {
	return s.settingOn(ctx, "hidden", ids)
}

// SetGuestChat implements store.GuestChat.
func (s *Store) SetGuestChat(ctx context.Context, identity string, allowed bool) error {
	return s.setSetting(ctx, identity, "no_guest_chat", !allowed)
}

// NoGuestChat implements store.GuestChat.
func (s *Store) NoGuestChat(ctx context.Context, ids []string) (map[string]bool, error) {
	return s.settingOn(ctx, "no_guest_chat", ids)
}

// setSetting stores one of an account's settings, column of
// presence_settings (a constant of this package's), as on or off; a new
// row has the others off.
func (s *Store) setSetting(ctx context.Context, identity, column string, on bool) error {
	v := 0
	if on {
		v = 1
	}
	q := "INSERT INTO presence_settings (identity, hidden, no_guest_chat) VALUES (?, 0, 0) ON CONFLICT (identity) DO NOTHING"
	return s.do(ctx, func(ex *execer) error {
		if _, err := ex.exec(q, identity); err != nil {
			return fmt.Errorf("sqlite: storing a setting: %w", err)
		}
		if _, err := ex.exec("UPDATE presence_settings SET "+column+" = ? WHERE identity = ?", v, identity); err != nil {
			return fmt.Errorf("sqlite: storing a setting: %w", err)
		}
		return nil
	})
}

// settingOn returns those of ids whose setting column is on.
func (s *Store) settingOn(ctx context.Context, column string, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	list, args := inList(ids)
	q := "SELECT identity FROM presence_settings WHERE " + column + " = 1 AND identity IN " + list
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading settings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("sqlite: reading settings: %w", err)
		}
		out[id] = true
	}
	return out, rows.Err()
}
