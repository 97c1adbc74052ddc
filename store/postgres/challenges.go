package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

const challengeColumns = "id, from_id, to_id, game, rules, rated, status, table_id, created, expires, lexicon"

func scanChallenge(row pgx.Row) (store.Challenge, error) {
	var c store.Challenge
	var status string
	err := row.Scan(&c.ID, &c.From, &c.To, &c.Game, &c.Rules, &c.Rated, &status, &c.Table, &c.Created, &c.Expires, &c.Lexicon)
	c.Status, c.Created, c.Expires = store.ChallengeStatus(status), utc(c.Created), utc(c.Expires)
	return c, err
}

// CreateChallenge implements store.Challenges.
func (s *Store) CreateChallenge(ctx context.Context, c store.Challenge, caps store.ChallengeCaps) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		// Under READ COMMITTED two inserts at once would each miss the
		// other's row: the challenges from one challenger, and those to
		// one player, are made one at a time, under locks the
		// transaction holds to its end, taken in one order (the from
		// lock first) so that two never wait for each other.
		for _, key := range []string{"parlour challenge from " + c.From, "parlour challenge to " + c.To} {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtext($1::text))", key); err != nil {
				return fmt.Errorf("postgres: storing a challenge: %w", err)
			}
		}
		open := string(store.ChallengeOpen)
		var dup, from, to int
		if err := tx.QueryRow(ctx, "SELECT "+
			"(SELECT COUNT(*) FROM challenges WHERE from_id = $1 AND to_id = $2 AND game = $3 AND rules IS NOT DISTINCT FROM $4 AND rated = $5 AND lexicon = $8 AND status = $6 AND expires > $7), "+
			"(SELECT COUNT(*) FROM challenges WHERE from_id = $1 AND status = $6 AND expires > $7), "+
			"(SELECT COUNT(*) FROM challenges WHERE to_id = $2 AND status = $6 AND expires > $7)",
			c.From, c.To, c.Game, c.Rules, c.Rated, open, c.Created, c.Lexicon).Scan(&dup, &from, &to); err != nil {
			return fmt.Errorf("postgres: storing a challenge: %w", err)
		}
		switch {
		case dup > 0:
			return fmt.Errorf("challenge %s: %w", c.ID, store.ErrChallengeDuplicate)
		case caps.From > 0 && from >= caps.From:
			return fmt.Errorf("challenge %s: %w", c.ID, store.ErrChallengesFrom)
		case caps.To > 0 && to >= caps.To:
			return fmt.Errorf("challenge %s: %w", c.ID, store.ErrChallengesTo)
		}
		_, err := tx.Exec(ctx, "INSERT INTO challenges ("+challengeColumns+") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
			c.ID, c.From, c.To, c.Game, c.Rules, c.Rated, open, c.Table, c.Created, c.Expires, c.Lexicon)
		if isConstraint(err) {
			return fmt.Errorf("challenge %s: %w", c.ID, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("postgres: storing a challenge: %w", err)
		}
		return nil
	})
}

// Challenge implements store.Challenges.
func (s *Store) Challenge(ctx context.Context, id string) (store.Challenge, error) {
	c, err := scanChallenge(s.pool.QueryRow(ctx, "SELECT "+challengeColumns+" FROM challenges WHERE id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return c, fmt.Errorf("challenge %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("postgres: reading challenge: %w", err)
	}
	return c, nil
}

// SettleChallenge implements store.Challenges.
func (s *Store) SettleChallenge(ctx context.Context, id string, status store.ChallengeStatus, table string) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		return settleChallenge(ctx, tx, store.ChallengeAnswer{ID: id, Status: status, Table: table})
	})
}

// settleChallenge moves challenge a.ID from open to a.Status in tx. The
// condition on the status makes the update the referee of two answers at
// once: PostgreSQL lets one change the row and finds it no longer open
// for the other.
func settleChallenge(ctx context.Context, tx pgx.Tx, a store.ChallengeAnswer) error {
	tag, err := tx.Exec(ctx, "UPDATE challenges SET status = $1, table_id = $2 WHERE id = $3 AND status = $4", string(a.Status), a.Table, a.ID, string(store.ChallengeOpen))
	if err != nil {
		return fmt.Errorf("postgres: settling a challenge: %w", err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("challenge %s: %w", a.ID, store.ErrChallengeNotOpen)
	}
	return nil
}

// OpenChallenges implements store.Challenges.
func (s *Store) OpenChallenges(ctx context.Context, identity string, limit int) ([]store.Challenge, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+challengeColumns+" FROM challenges WHERE status = $1 AND (from_id = $2 OR to_id = $2) ORDER BY created DESC, id LIMIT $3",
		string(store.ChallengeOpen), identity, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading challenges: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Challenge, error) { return scanChallenge(row) })
	if err != nil {
		return nil, fmt.Errorf("postgres: reading challenges: %w", err)
	}
	return out, nil
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
	q := "INSERT INTO presence_settings (identity, hidden, no_guest_chat) VALUES ($1, false, false) ON CONFLICT (identity) DO NOTHING"
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, q, identity); err != nil {
			return fmt.Errorf("postgres: storing a setting: %w", err)
		}
		if _, err := tx.Exec(ctx, "UPDATE presence_settings SET "+column+" = $2 WHERE identity = $1", identity, on); err != nil {
			return fmt.Errorf("postgres: storing a setting: %w", err)
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
	rows, err := s.pool.Query(ctx, "SELECT identity FROM presence_settings WHERE "+column+" AND identity = ANY($1)", ids)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading settings: %w", err)
	}
	on, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: reading settings: %w", err)
	}
	for _, id := range on {
		out[id] = true
	}
	return out, nil
}

var _ store.Challenges = (*Store)(nil)
