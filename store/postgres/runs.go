package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

var _ store.Runs = (*Store)(nil)

// StartRun implements store.Runs.
func (s *Store) StartRun(ctx context.Context, at time.Time, grace time.Duration) (int64, []store.Span, error) {
	var id int64
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, "INSERT INTO runs (started, alive) VALUES ($1, $1) RETURNING id", at).Scan(&id); err != nil {
			return fmt.Errorf("postgres: storing the server's run: %w", err)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM runs WHERE id <= $1", id-store.KeptRuns); err != nil {
			return fmt.Errorf("postgres: forgetting old runs: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	rows, err := s.pool.Query(ctx, "SELECT started, alive, ended FROM runs WHERE id <= $1 ORDER BY started, id", id)
	if err != nil {
		return 0, nil, fmt.Errorf("postgres: reading the server's runs: %w", err)
	}
	runs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Run, error) {
		var r store.Run
		err := row.Scan(&r.From, &r.To, &r.Ended)
		r.From, r.To = utc(r.From), utc(r.To)
		return r, err
	})
	if err != nil {
		return 0, nil, fmt.Errorf("postgres: reading the server's runs: %w", err)
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
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE runs SET alive = GREATEST(alive, $1), ended = (ended OR $3) WHERE id = $2", at, id, end); err != nil {
			return fmt.Errorf("postgres: noting the server's run: %w", err)
		}
		return nil
	})
}
