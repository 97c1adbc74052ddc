package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"parlour/store"
)

var _ store.Dailies = (*Store)(nil)

// PutDailyPuzzle implements store.Dailies.
func (s *Store) PutDailyPuzzle(ctx context.Context, p store.DailyPuzzle) (store.DailyPuzzle, error) {
	err := s.do(ctx, func(ex *execer) error {
		_, err := ex.exec("INSERT OR IGNORE INTO daily_puzzles (game, day, setup, created) VALUES (?, ?, ?, ?)", p.Game, p.Day, p.Setup, nanos(p.Created))
		if err != nil {
			return fmt.Errorf("sqlite: storing the daily puzzle: %w", err)
		}
		return nil
	})
	if err != nil {
		return store.DailyPuzzle{}, err
	}
	out := store.DailyPuzzle{Game: p.Game, Day: p.Day}
	var at int64
	if err := s.queryRow(ctx, "SELECT setup, created FROM daily_puzzles WHERE game = ? AND day = ?", p.Game, p.Day).Scan(&out.Setup, &at); err != nil {
		return store.DailyPuzzle{}, fmt.Errorf("sqlite: reading the daily puzzle: %w", err)
	}
	out.Created = fromNanos(at)
	return out, nil
}

// DailyPuzzle implements store.Dailies.
func (s *Store) DailyPuzzle(ctx context.Context, game, day string) (store.DailyPuzzle, error) {
	out := store.DailyPuzzle{Game: game, Day: day}
	var at int64
	err := s.queryRow(ctx, "SELECT setup, created FROM daily_puzzles WHERE game = ? AND day = ?", game, day).Scan(&out.Setup, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return out, fmt.Errorf("the daily %s of %s: %w", game, day, store.ErrNotFound)
	}
	if err != nil {
		return out, fmt.Errorf("sqlite: reading the daily puzzle: %w", err)
	}
	out.Created = fromNanos(at)
	return out, nil
}

// LatestDailyDay implements store.Dailies.
func (s *Store) LatestDailyDay(ctx context.Context, game string) (string, error) {
	var day string
	if err := s.queryRow(ctx, "SELECT COALESCE(MAX(day), '') FROM daily_puzzles WHERE game = ?", game).Scan(&day); err != nil {
		return "", fmt.Errorf("sqlite: reading daily puzzles: %w", err)
	}
	return day, nil
}

// StartDaily implements store.Dailies.
func (s *Store) StartDaily(ctx context.Context, a store.DailyAttempt) error {
	return s.do(ctx, func(ex *execer) error {
		_, err := ex.exec("INSERT INTO daily_attempts (game, day, identity, name, account, table_id, started) VALUES (?, ?, ?, ?, ?, ?, ?)",
			a.Game, a.Day, a.Identity, a.Name, a.Account, a.Table, nanos(a.Started))
		if isConstraint(err) {
			return fmt.Errorf("the daily %s of %s for %s: %w", a.Game, a.Day, a.Identity, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("sqlite: storing a daily attempt: %w", err)
		}
		return nil
	})
}

const attemptColumns = "game, day, identity, name, account, table_id, started, finished, solved, moves, wrong, millis, marks, trail"

func scanAttempt(sc interface{ Scan(...any) error }) (store.DailyAttempt, error) {
	var a store.DailyAttempt
	var started int64
	err := sc.Scan(&a.Game, &a.Day, &a.Identity, &a.Name, &a.Account, &a.Table, &started, &a.Finished, &a.Solved, &a.Moves, &a.Wrong, &a.Millis, &a.Marks, &a.Trail)
	a.Started = fromNanos(started)
	return a, err
}

// DailyAttempt implements store.Dailies.
func (s *Store) DailyAttempt(ctx context.Context, game, day, identity string) (store.DailyAttempt, error) {
	a, err := scanAttempt(s.queryRow(ctx, "SELECT "+attemptColumns+" FROM daily_attempts WHERE game = ? AND day = ? AND identity = ?", game, day, identity))
	if errors.Is(err, sql.ErrNoRows) {
		return a, store.ErrNotFound
	}
	if err != nil {
		return a, fmt.Errorf("sqlite: reading a daily attempt: %w", err)
	}
	return a, nil
}

// FinishDaily implements store.Dailies.
func (s *Store) FinishDaily(ctx context.Context, a store.DailyAttempt) error {
	return s.do(ctx, func(ex *execer) error {
		_, err := ex.exec("UPDATE daily_attempts SET finished = 1, solved = ?, moves = ?, wrong = ?, millis = ?, marks = ?, trail = ? WHERE game = ? AND day = ? AND identity = ? AND finished = 0",
			a.Solved, a.Moves, a.Wrong, a.Millis, a.Marks, a.Trail, a.Game, a.Day, a.Identity)
		if err != nil {
			return fmt.Errorf("sqlite: storing a daily result: %w", err)
		}
		return nil
	})
}

func (s *Store) attempts(ctx context.Context, query string, args ...any) ([]store.DailyAttempt, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+attemptColumns+" FROM daily_attempts WHERE "+query, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading daily attempts: %w", err)
	}
	defer rows.Close()
	out := []store.DailyAttempt{}
	for rows.Next() {
		a, err := scanAttempt(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: reading daily attempts: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// UnfinishedDailies implements store.Dailies.
func (s *Store) UnfinishedDailies(ctx context.Context, game, day string) ([]store.DailyAttempt, error) {
	return s.attempts(ctx, "game = ? AND day = ? AND finished = 0", game, day)
}

// DailyLeaderboard implements store.Dailies.
func (s *Store) DailyLeaderboard(ctx context.Context, game, day string, limit int) ([]store.DailyAttempt, error) {
	return s.attempts(ctx, "game = ? AND day = ? AND finished = 1 AND account = 1 AND identity NOT IN (SELECT identity FROM accounts WHERE hash = ?) ORDER BY solved DESC, moves + wrong, wrong, millis, started LIMIT ?", game, day, store.ClosedHash, limit)
}

// DailyHistory implements store.Dailies.
func (s *Store) DailyHistory(ctx context.Context, identity, game string, limit int) ([]store.DailyAttempt, error) {
	return s.attempts(ctx, "identity = ? AND game = ? ORDER BY day DESC LIMIT ?", identity, game, limit)
}
