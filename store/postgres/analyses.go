package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

// Analysis implements store.Analyses.
func (s *Store) Analysis(ctx context.Context, id string, version int) ([]byte, error) {
	var body []byte
	err := s.pool.QueryRow(ctx, "SELECT body FROM analyses WHERE table_id = $1 AND version = $2", id, version).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("analysis of table %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: reading the analysis of table %s: %w", id, err)
	}
	return body, nil
}

// PutAnalysis implements store.Analyses. Of two nodes filing the same
// analysis at once, the second's insert does nothing.
func (s *Store) PutAnalysis(ctx context.Context, id string, version int, body []byte) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO analyses (table_id, version, body) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", id, version, body); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("analysis of table %s: %w", id, store.ErrNotFound)
			}
			return fmt.Errorf("postgres: storing the analysis of table %s: %w", id, err)
		}
		return nil
	})
}

// renameTables replaces the descriptions of the tables in renames, a
// renamed or deleted account's finished games, and drops their filed
// analyses: those name the players as the records did, and the server
// analyses the game again, under the new name, when next asked.
func renameTables(ctx context.Context, tx pgx.Tx, renames []store.TableUpdate) error {
	for _, u := range renames {
		if err := updateTable(ctx, tx, u.ID, u.Status, u.Meta); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM analyses WHERE table_id = $1", u.ID); err != nil {
			return fmt.Errorf("postgres: dropping the analyses of table %s: %w", u.ID, err)
		}
	}
	return nil
}
