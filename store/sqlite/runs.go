package sqlite

import (
	"context"
	"fmt"
	"time"

	"parlour/store"
)

var _ store.Runs = (*Store)(nil)

// StartRun implements store.Runs.
func (s *Store) StartRun(ctx context.Context, at time.Time, grace time.Duration) (int64, []store.Span, error) {
	var id int64
	err := s.do(ctx, func(ex *execer) error {
		if _, err := ex.exec("INSERT INTO runs (started, alive) VALUES (?, ?)", nanos(at), nanos(at)); err != nil {
			return fmt.Errorf("sqlite: storing the server's run: %w", err)
		}
		if _, err := ex.queryRow("SELECT last_insert_rowid()", nil, &id); err != nil {
			return fmt.Errorf("sqlite: reading the run's id: %w", err)
		}
		if _, err := ex.exec("DELETE FROM runs WHERE id <= ?", id-store.KeptRuns); err != nil {
			return fmt.Errorf("sqlite: forgetting old runs: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT started, alive, ended FROM runs WHERE id <= ? ORDER BY started, id", id)
	if err != nil {
		return 0, nil, fmt.Errorf("sqlite: reading the server's runs: %w", err)
	}
	defer rows.Close()
	var runs []store.Run
	for rows.Next() {
		var started, alive int64
		var ended bool
		if err := rows.Scan(&started, &alive, &ended); err != nil {
			return 0, nil, fmt.Errorf("sqlite: reading the server's runs: %w", err)
		}
		runs = append(runs, store.Run{Span: store.Span{From: fromNanos(started), To: fromNanos(alive)}, Ended: ended})
	}
	if err := rows.Err(); err != nil {
		return 0, nil, fmt.Errorf("sqlite: reading the server's runs: %w", err)
	}
	return id, store.Gaps(runs, at, grace), nil
}

// KeepRun implements store.Runs.
func (s *Store) KeepRun(ctx context.Context, id int64, at time.Time) error {
	return s.noteRun(ctx, id, at, false)
}

// EndRun implements store.Runs.
func (s *Store) EndRun(ctx context.Context, id int64, at time.Time) error {
	return s.noteRun(ctx, id, at, true)
}

func (s *Store) noteRun(ctx context.Context, id int64, at time.Time, end bool) error {
	return s.do(ctx, func(ex *execer) error {
		if _, err := ex.exec("UPDATE runs SET alive = MAX(alive, ?), ended = (ended OR ?) WHERE id = ?", nanos(at), end, id); err != nil {
			return fmt.Errorf("sqlite: noting the server's run: %w", err)
		}
		return nil
	})
}
