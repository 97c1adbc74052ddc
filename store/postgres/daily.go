package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

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

// DailyPuzzle implements store.Dailies.
func (s *Store) DailyPuzzle(ctx context.Context, game, day string) (store.DailyPuzzle, error) {
	out := store.DailyPuzzle{Game: game, Day: day}
	err := s.pool.QueryRow(ctx, "SELECT setup, created FROM daily_puzzles WHERE game = $1 AND day = $2", game, day).Scan(&out.Setup, &out.Created)
	if errors.Is(err, pgx.ErrNoRows) {
		return out, fmt.Errorf("the daily %s of %s: %w", game, day, store.ErrNotFound)
	}
	if err != nil {
		return out, fmt.Errorf("postgres: reading the daily puzzle: %w", err)
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

const attemptColumns = "game, day, identity, name, account, table_id, started, finished, solved, moves, wrong, millis, marks, trail"

func scanAttempt(row pgx.Row) (store.DailyAttempt, error) {
	var a store.DailyAttempt
	err := row.Scan(&a.Game, &a.Day, &a.Identity, &a.Name, &a.Account, &a.Table, &a.Started, &a.Finished, &a.Solved, &a.Moves, &a.Wrong, &a.Millis, &a.Marks, &a.Trail)
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
		if _, err := tx.Exec(ctx, "UPDATE daily_attempts SET finished = true, solved = $1, moves = $2, wrong = $3, millis = $4, marks = $5, trail = $9 WHERE game = $6 AND day = $7 AND identity = $8 AND NOT finished",
			a.Solved, a.Moves, a.Wrong, a.Millis, a.Marks, a.Game, a.Day, a.Identity, a.Trail); err != nil {
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
	return s.attempts(ctx, "game = $1 AND day = $2 AND finished AND account AND identity NOT IN (SELECT identity FROM accounts WHERE hash = $3) ORDER BY solved DESC, moves + wrong, wrong, millis, started LIMIT $4", game, day, store.ClosedHash, limit)
}

// DailyHistory implements store.Dailies.
func (s *Store) DailyHistory(ctx context.Context, identity, game string, limit int) ([]store.DailyAttempt, error) {
	return s.attempts(ctx, "identity = $1 AND game = $2 ORDER BY day DESC LIMIT $3", identity, game, limit)
}

var _ store.Dailies = (*Store)(nil)
