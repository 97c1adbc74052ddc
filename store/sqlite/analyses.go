package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"parlour/store"
)

// Analysis implements store.Analyses.
func (s *Store) Analysis(ctx context.Context, id string, version int) ([]byte, error) {
	var body []byte
	err := s.queryRow(ctx, "SELECT body FROM analyses WHERE table_id = ? AND version = ?", id, version).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("analysis of table %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading the analysis of table %s: %w", id, err)
	}
	return body, nil
}

// PutAnalysis implements store.Analyses.
func (s *Store) PutAnalysis(ctx context.Context, id string, version int, body []byte) error {
	return s.do(ctx, func(ex *execer) error {
		if _, err := ex.exec("INSERT INTO analyses (table_id, version, body) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", id, version, body); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("analysis of table %s: %w", id, store.ErrNotFound)
			}
			return fmt.Errorf("sqlite: storing the analysis of table %s: %w", id, err)
		}
		return nil
	})
}

// renameTables replaces the descriptions of the tables in renames, a
// renamed or deleted account's finished games, and drops their filed
// analyses: those name the players as the records did, and the server
// analyses the game again, under the new name, when next asked.
func renameTables(ex *execer, renames []store.TableUpdate) error {
	for _, u := range renames {
		if err := updateTable(ex, u.ID, u.Status, u.Meta); err != nil {
			return err
		}
		if _, err := ex.exec("DELETE FROM analyses WHERE table_id = ?", u.ID); err != nil {
			return fmt.Errorf("sqlite: dropping the analyses of table %s: %w", u.ID, err)
		}
	}
	return nil
}
