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

// AddChat implements store.Chats.
func (s *Store) AddChat(ctx context.Context, m store.ChatMessage) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO chat (table_id, seq, channel, identity, name, seat, text, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
			m.Table, m.Seq, m.Channel, m.Identity, m.Name, m.Seat, m.Text, m.At)
		if isConstraint(err) {
			return fmt.Errorf("chat message %d of table %s: %w", m.Seq, m.Table, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("postgres: storing a chat message: %w", err)
		}
		return nil
	})
}

// Chat implements store.Chats.
func (s *Store) Chat(ctx context.Context, id string, since, limit int) ([]store.ChatMessage, error) {
	rows, err := s.pool.Query(ctx, "SELECT seq, channel, identity, name, seat, text, at FROM chat WHERE table_id = $1 AND seq > $2 ORDER BY seq LIMIT $3", id, since, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading chat: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.ChatMessage, error) {
		m := store.ChatMessage{Table: id}
		err := row.Scan(&m.Seq, &m.Channel, &m.Identity, &m.Name, &m.Seat, &m.Text, &m.At)
		m.At = utc(m.At)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading chat: %w", err)
	}
	return out, nil
}

// LastChat implements store.Chats.
func (s *Store) LastChat(ctx context.Context, id string) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT COALESCE(MAX(seq), 0) FROM chat WHERE table_id = $1", id).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: reading chat: %w", err)
	}
	return n, nil
}

// SetMute implements store.Chats.
func (s *Store) SetMute(ctx context.Context, m store.Mute, muted bool) error {
	q := "INSERT INTO chat_mutes (table_id, identity, channel) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"
	if !muted {
		q = "DELETE FROM chat_mutes WHERE table_id = $1 AND identity = $2 AND channel = $3"
	}
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, q, m.Table, m.Identity, m.Channel); err != nil {
			return fmt.Errorf("postgres: storing a mute: %w", err)
		}
		return nil
	})
}

// Mutes implements store.Chats.
func (s *Store) Mutes(ctx context.Context, id string) ([]store.Mute, error) {
	rows, err := s.pool.Query(ctx, "SELECT identity, channel FROM chat_mutes WHERE table_id = $1 ORDER BY identity, channel", id)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading mutes: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Mute, error) {
		m := store.Mute{Table: id}
		return m, row.Scan(&m.Identity, &m.Channel)
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading mutes: %w", err)
	}
	return out, nil
}

const challengeColumns = "id, from_id, to_id, game, rules, rated, status, table_id, created, expires"

func scanChallenge(row pgx.Row) (store.Challenge, error) {
	var c store.Challenge
	var status string
	err := row.Scan(&c.ID, &c.From, &c.To, &c.Game, &c.Rules, &c.Rated, &status, &c.Table, &c.Created, &c.Expires)
	c.Status, c.Created, c.Expires = store.ChallengeStatus(status), utc(c.Created), utc(c.Expires)
	return c, err
}

// CreateChallenge implements store.Challenges.
func (s *Store) CreateChallenge(ctx context.Context, c store.Challenge) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO challenges ("+challengeColumns+") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
			c.ID, c.From, c.To, c.Game, c.Rules, c.Rated, string(store.ChallengeOpen), c.Table, c.Created, c.Expires)
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

// SettleChallenge implements store.Challenges. The condition on the
// status makes the update the referee of two answers at once: PostgreSQL
// lets one change the row and finds it no longer open for the other.
func (s *Store) SettleChallenge(ctx context.Context, id string, status store.ChallengeStatus, table string) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE challenges SET status = $1, table_id = $2 WHERE id = $3 AND status = $4", string(status), table, id, string(store.ChallengeOpen))
		if err != nil {
			return fmt.Errorf("postgres: settling a challenge: %w", err)
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("challenge %s is not open: %w", id, store.ErrConflict)
		}
		return nil
	})
}

// ReopenChallenge implements store.Challenges.
func (s *Store) ReopenChallenge(ctx context.Context, id string) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE challenges SET status = $1, table_id = '' WHERE id = $2 AND status = $3", string(store.ChallengeOpen), id, string(store.ChallengeAccepted)); err != nil {
			return fmt.Errorf("postgres: reopening a challenge: %w", err)
		}
		return nil
	})
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
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO presence_settings (identity, hidden) VALUES ($1, $2) ON CONFLICT (identity) DO UPDATE SET hidden = excluded.hidden", identity, hidden); err != nil {
			return fmt.Errorf("postgres: storing a setting: %w", err)
		}
		return nil
	})
}

// Hidden implements store.Challenges.
func (s *Store) Hidden(ctx context.Context, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, "SELECT identity FROM presence_settings WHERE hidden AND identity = ANY($1)", ids)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading settings: %w", err)
	}
	hidden, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: reading settings: %w", err)
	}
	for _, id := range hidden {
		out[id] = true
	}
	return out, nil
}

// PutDailyPuzzle implements store.Dailies.
func (s *Store) PutDailyPuzzle(ctx context.Context, p store.DailyPuzzle) (store.DailyPuzzle, error) {
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO daily_puzzles (game, day, setup, created) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
			p.Game, p.Day, meta(p.Setup), p.Created); err != nil {
			return fmt.Errorf("postgres: storing the daily puzzle: %w", err)
		}
		return nil
	})
	if err != nil {
		return store.DailyPuzzle{}, err
	}
	out := store.DailyPuzzle{Game: p.Game, Day: p.Day}
	if err := s.pool.QueryRow(ctx, "SELECT setup, created FROM daily_puzzles WHERE game = $1 AND day = $2", p.Game, p.Day).Scan(&out.Setup, &out.Created); err != nil {
		return store.DailyPuzzle{}, fmt.Errorf("postgres: reading the daily puzzle: %w", err)
	}
	out.Created = utc(out.Created)
	return out, nil
}

// LatestDailyDay implements store.Dailies.
func (s *Store) LatestDailyDay(ctx context.Context, game string) (string, error) {
	var day string
	if err := s.pool.QueryRow(ctx, "SELECT COALESCE(MAX(day), '') FROM daily_puzzles WHERE game = $1", game).Scan(&day); err != nil {
		return "", fmt.Errorf("postgres: reading daily puzzles: %w", err)
	}
	return day, nil
}

// StartDaily implements store.Dailies.
func (s *Store) StartDaily(ctx context.Context, a store.DailyAttempt) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO daily_attempts (game, day, identity, name, account, table_id, started) VALUES ($1, $2, $3, $4, $5, $6, $7)",
			a.Game, a.Day, a.Identity, a.Name, a.Account, a.Table, a.Started)
		if isConstraint(err) {
			return fmt.Errorf("the daily %s of %s for %s: %w", a.Game, a.Day, a.Identity, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("postgres: storing a daily attempt: %w", err)
		}
		return nil
	})
}

const attemptColumns = "game, day, identity, name, account, table_id, started, finished, solved, moves, wrong, millis, marks"

func scanAttempt(row pgx.Row) (store.DailyAttempt, error) {
	var a store.DailyAttempt
	err := row.Scan(&a.Game, &a.Day, &a.Identity, &a.Name, &a.Account, &a.Table, &a.Started, &a.Finished, &a.Solved, &a.Moves, &a.Wrong, &a.Millis, &a.Marks)
	a.Started = utc(a.Started)
	return a, err
}

// DailyAttempt implements store.Dailies.
func (s *Store) DailyAttempt(ctx context.Context, game, day, identity string) (store.DailyAttempt, error) {
	a, err := scanAttempt(s.pool.QueryRow(ctx, "SELECT "+attemptColumns+" FROM daily_attempts WHERE game = $1 AND day = $2 AND identity = $3", game, day, identity))
	if errors.Is(err, pgx.ErrNoRows) {
		return a, fmt.Errorf("the daily %s of %s for %s: %w", game, day, identity, store.ErrNotFound)
	}
	if err != nil {
		return a, fmt.Errorf("postgres: reading a daily attempt: %w", err)
	}
	return a, nil
}

// FinishDaily implements store.Dailies.
func (s *Store) FinishDaily(ctx context.Context, a store.DailyAttempt) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE daily_attempts SET finished = true, solved = $1, moves = $2, wrong = $3, millis = $4, marks = $5 WHERE game = $6 AND day = $7 AND identity = $8 AND NOT finished",
			a.Solved, a.Moves, a.Wrong, a.Millis, a.Marks, a.Game, a.Day, a.Identity); err != nil {
			return fmt.Errorf("postgres: storing a daily result: %w", err)
		}
		return nil
	})
}

func (s *Store) attempts(ctx context.Context, where string, args ...any) ([]store.DailyAttempt, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+attemptColumns+" FROM daily_attempts WHERE "+where, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading daily attempts: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.DailyAttempt, error) { return scanAttempt(row) })
	if err != nil {
		return nil, fmt.Errorf("postgres: reading daily attempts: %w", err)
	}
	if out == nil {
		out = []store.DailyAttempt{}
	}
	return out, nil
}

// UnfinishedDailies implements store.Dailies.
func (s *Store) UnfinishedDailies(ctx context.Context, game, day string) ([]store.DailyAttempt, error) {
	return s.attempts(ctx, "game = $1 AND day = $2 AND NOT finished", game, day)
}

// DailyLeaderboard implements store.Dailies.
func (s *Store) DailyLeaderboard(ctx context.Context, game, day string, limit int) ([]store.DailyAttempt, error) {
	return s.attempts(ctx, "game = $1 AND day = $2 AND finished AND account ORDER BY solved DESC, moves, wrong, millis, started LIMIT $3", game, day, limit)
}

// DailyHistory implements store.Dailies.
func (s *Store) DailyHistory(ctx context.Context, identity, game string, limit int) ([]store.DailyAttempt, error) {
	return s.attempts(ctx, "identity = $1 AND game = $2 ORDER BY day DESC LIMIT $3", identity, game, limit)
}

// AddKey implements store.Keys.
func (s *Store) AddKey(ctx context.Context, k store.SSHKey) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO ssh_keys (fingerprint, identity, key, comment, added) VALUES ($1, $2, $3, $4, $5)",
			k.Fingerprint, k.Identity, k.Key, k.Comment, k.Added); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("key %s: %w", k.Fingerprint, store.ErrConflict)
			}
			return fmt.Errorf("postgres: adding key: %w", err)
		}
		return nil
	})
}

// KeysOf implements store.Keys.
func (s *Store) KeysOf(ctx context.Context, identity string) ([]store.SSHKey, error) {
	rows, err := s.pool.Query(ctx, "SELECT fingerprint, key, comment, added FROM ssh_keys WHERE identity = $1 ORDER BY added, fingerprint", identity)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading keys: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.SSHKey, error) {
		k := store.SSHKey{Identity: identity}
		err := row.Scan(&k.Fingerprint, &k.Key, &k.Comment, &k.Added)
		k.Added = utc(k.Added)
		return k, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading keys: %w", err)
	}
	return out, nil
}

// KeyByFingerprint implements store.Keys.
func (s *Store) KeyByFingerprint(ctx context.Context, fp string) (store.SSHKey, error) {
	k := store.SSHKey{Fingerprint: fp}
	err := s.pool.QueryRow(ctx, "SELECT identity, key, comment, added FROM ssh_keys WHERE fingerprint = $1", fp).Scan(&k.Identity, &k.Key, &k.Comment, &k.Added)
	if errors.Is(err, pgx.ErrNoRows) {
		return k, fmt.Errorf("key %s: %w", fp, store.ErrNotFound)
	}
	if err != nil {
		return k, fmt.Errorf("postgres: reading key: %w", err)
	}
	k.Added = utc(k.Added)
	return k, nil
}

// DeleteKey implements store.Keys.
func (s *Store) DeleteKey(ctx context.Context, identity, fp string) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "DELETE FROM ssh_keys WHERE identity = $1 AND fingerprint = $2", identity, fp)
		if err != nil {
			return fmt.Errorf("postgres: deleting key: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("key %s: %w", fp, store.ErrNotFound)
		}
		return nil
	})
}

// insertCode gives table id the invite code code. A code whose table
// finished more than invite.Reserve ago is freed first, in the same
// transaction; one still held or reserved is store.ErrCodeTaken.
func insertCode(ctx context.Context, tx pgx.Tx, code, id string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM invite_codes WHERE code = $1 AND table_id IN
		(SELECT id FROM tables WHERE status = $2 AND updated < $3)`,
		code, string(store.Finished), time.Now().Add(-invite.Reserve)); err != nil {
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

var (
	_ store.Chats      = (*Store)(nil)
	_ store.Challenges = (*Store)(nil)
	_ store.Dailies    = (*Store)(nil)
	_ store.Keys       = (*Store)(nil)
	_ store.Invites    = (*Store)(nil)
)
