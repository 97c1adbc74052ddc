package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

const reportColumns = "id, reporter, subject, reason, text, table_id, tournament, seq, status, created, closed, closed_by"

func scanReport(row pgx.Row) (store.Report, error) {
	var r store.Report
	var status string
	var closed *time.Time
	err := row.Scan(&r.ID, &r.Reporter, &r.Subject, &r.Reason, &r.Text, &r.Table, &r.Tournament, &r.Seq, &status, &r.Created, &closed, &r.ClosedBy)
	r.Status, r.Created = store.ReportStatus(status), utc(r.Created)
	if closed != nil {
		r.Closed = utc(*closed)
	}
	return r, err
}

// logAction stores a line of the moderation log in tx.
func logAction(ctx context.Context, tx pgx.Tx, a store.ModAction) error {
	if _, err := tx.Exec(ctx, "INSERT INTO moderation_log (moderator, moderator_name, action, subject, subject_name, detail, reason, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
		a.Moderator, a.ModeratorName, a.Action, a.Subject, a.SubjectName, a.Detail, a.Reason, a.At); err != nil {
		return fmt.Errorf("postgres: logging a moderator's action: %w", err)
	}
	return nil
}

// CreateReport implements store.Moderation.
func (s *Store) CreateReport(ctx context.Context, r store.Report) error {
	return s.write(ctx, func(ctx context.Context, q querier) error {
		tag, err := q.Exec(ctx, "INSERT INTO reports ("+reportColumns+") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, '') ON CONFLICT (reporter, subject, table_id, tournament) DO NOTHING",
			r.ID, r.Reporter, r.Subject, r.Reason, r.Text, r.Table, r.Tournament, r.Seq, string(store.ReportOpen), r.Created)
		if isConstraint(err) {
			return fmt.Errorf("report %s: %w", r.ID, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("postgres: storing a report: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("report %s: %w", r.ID, store.ErrReportDuplicate)
		}
		return nil
	})
}

// Report implements store.Moderation.
func (s *Store) Report(ctx context.Context, id string) (store.Report, error) {
	r, err := scanReport(s.pool.QueryRow(ctx, "SELECT "+reportColumns+" FROM reports WHERE id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, fmt.Errorf("report %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("postgres: reading a report: %w", err)
	}
	return r, nil
}

// Reports implements store.Moderation.
func (s *Store) Reports(ctx context.Context, limit int) ([]store.Report, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+reportColumns+" FROM reports ORDER BY status = 'closed', CASE WHEN status = 'open' THEN created END, closed DESC, id LIMIT $1", limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading reports: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Report, error) { return scanReport(row) })
	if err != nil {
		return nil, fmt.Errorf("postgres: reading reports: %w", err)
	}
	return out, nil
}

// CloseReport implements store.Moderation.
func (s *Store) CloseReport(ctx context.Context, id string, a store.ModAction) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var status string
		err := tx.QueryRow(ctx, "SELECT status FROM reports WHERE id = $1 FOR UPDATE", id).Scan(&status)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("report %s: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("postgres: closing a report: %w", err)
		}
		if status != string(store.ReportOpen) {
			return fmt.Errorf("report %s is %s: %w", id, status, store.ErrConflict)
		}
		if _, err := tx.Exec(ctx, "UPDATE reports SET status = $1, closed = $2, closed_by = $3 WHERE id = $4", string(store.ReportClosed), a.At, a.Moderator, id); err != nil {
			return fmt.Errorf("postgres: closing a report: %w", err)
		}
		return logAction(ctx, tx, a)
	})
}

// SetModerator implements store.Moderation.
func (s *Store) SetModerator(ctx context.Context, identity string, on bool, a store.ModAction) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		q := "DELETE FROM moderators WHERE identity = $1"
		if on {
			q = "INSERT INTO moderators (identity) VALUES ($1) ON CONFLICT (identity) DO NOTHING"
		}
		if _, err := tx.Exec(ctx, q, identity); err != nil {
			return fmt.Errorf("postgres: storing a moderator: %w", err)
		}
		return logAction(ctx, tx, a)
	})
}

// IsModerator implements store.Moderation.
func (s *Store) IsModerator(ctx context.Context, identity string) (bool, error) {
	var on bool
	if err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM moderators WHERE identity = $1)", identity).Scan(&on); err != nil {
		return false, fmt.Errorf("postgres: reading moderators: %w", err)
	}
	return on, nil
}

// BanChat implements store.Moderation.
func (s *Store) BanChat(ctx context.Context, identity string, until time.Time, a store.ModAction) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var err error
		if until.IsZero() {
			_, err = tx.Exec(ctx, "DELETE FROM chat_bans WHERE identity = $1", identity)
		} else {
			_, err = tx.Exec(ctx, "INSERT INTO chat_bans (identity, until) VALUES ($1, $2) ON CONFLICT (identity) DO UPDATE SET until = excluded.until", identity, until)
		}
		if err != nil {
			return fmt.Errorf("postgres: storing a chat ban: %w", err)
		}
		return logAction(ctx, tx, a)
	})
}

// ChatBan implements store.Moderation.
func (s *Store) ChatBan(ctx context.Context, identity string) (time.Time, error) {
	var until time.Time
	err := s.pool.QueryRow(ctx, "SELECT until FROM chat_bans WHERE identity = $1", identity).Scan(&until)
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("postgres: reading a chat ban: %w", err)
	}
	return utc(until), nil
}

// RenameAccount implements store.Moderation.
func (s *Store) RenameAccount(ctx context.Context, identity, name, key string, renames []store.TableUpdate, a store.ModAction) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE accounts SET name = $1, key = $2 WHERE identity = $3", name, key, identity)
		if isConstraint(err) {
			return fmt.Errorf("account name %q: %w", name, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("postgres: renaming an account: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("account: %w", store.ErrNotFound)
		}
		if _, err := tx.Exec(ctx, "UPDATE identities SET name = $1 WHERE id = $2", name, identity); err != nil {
			return fmt.Errorf("postgres: renaming identity: %w", err)
		}
		if err := renameInEvents(ctx, tx, identity, name); err != nil {
			return err
		}
		if err := renameLines(ctx, tx, identity, name); err != nil {
			return err
		}
		if err := renameTables(ctx, tx, renames); err != nil {
			return err
		}
		return logAction(ctx, tx, a)
	})
}

// CloseAccount implements store.Moderation.
func (s *Store) CloseAccount(ctx context.Context, identity, hash string, a store.ModAction) ([][]byte, error) {
	var dropped [][]byte
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		// The hash goes aside for a reopening; a closed account's
		// marker is never kept in its place.
		tag, err := tx.Exec(ctx, "UPDATE accounts SET closed_hash = CASE WHEN hash LIKE '!%' THEN closed_hash ELSE hash END, hash = $1 WHERE identity = $2", hash, identity)
		if err != nil {
			return fmt.Errorf("postgres: closing an account: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("account: %w", store.ErrNotFound)
		}
		rows, err := tx.Query(ctx, "DELETE FROM credentials WHERE identity = $1 AND table_id = '' RETURNING hash", identity)
		if err != nil {
			return fmt.Errorf("postgres: deleting credentials: %w", err)
		}
		if dropped, err = pgx.CollectRows(rows, pgx.RowTo[[]byte]); err != nil {
			return fmt.Errorf("postgres: deleting credentials: %w", err)
		}
		return logAction(ctx, tx, a)
	})
	if err != nil {
		return nil, err
	}
	return dropped, nil
}

// ReopenAccount implements store.Moderation.
func (s *Store) ReopenAccount(ctx context.Context, identity string, a store.ModAction) (bool, error) {
	var kept bool
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var hash, closedHash string
		err := tx.QueryRow(ctx, "SELECT hash, closed_hash FROM accounts WHERE identity = $1 FOR UPDATE", identity).Scan(&hash, &closedHash)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("account: %w", store.ErrNotFound)
		case err != nil:
			return fmt.Errorf("postgres: reopening an account: %w", err)
		case hash != store.ClosedHash:
			return fmt.Errorf("the account is not closed: %w", store.ErrConflict)
		}
		kept = closedHash != ""
		hash = closedHash
		if !kept {
			hash = store.NoPasswordHash
		}
		if _, err := tx.Exec(ctx, "UPDATE accounts SET hash = $1, closed_hash = '' WHERE identity = $2", hash, identity); err != nil {
			return fmt.Errorf("postgres: reopening an account: %w", err)
		}
		if err := spendResets(ctx, tx, identity); err != nil {
			return err
		}
		return logAction(ctx, tx, a)
	})
	return kept, err
}

// RefundOpponents implements store.Moderation.
func (s *Store) RefundOpponents(ctx context.Context, identity string, since time.Time, a store.ModAction) ([]store.Refund, error) {
	var out []store.Refund
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		out = nil
		rows, err := tx.Query(ctx, `UPDATE player_games AS o SET refund = o.before_rating - o.rating
			FROM player_games AS c
			WHERE c.identity = $1 AND c.ended >= $2 AND c.pool <> '' AND o.table_id = c.table_id
				AND o.identity <> c.identity AND o.pool <> '' AND o.before_rating > o.rating AND o.refund IS NULL
			RETURNING o.identity, o.pool, o.refund`, identity, since)
		if err != nil {
			return fmt.Errorf("postgres: giving back games: %w", err)
		}
		given, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Refund, error) {
			r := store.Refund{Games: 1}
			err := row.Scan(&r.Identity, &r.Pool, &r.Points)
			return r, err
		})
		if err != nil {
			return fmt.Errorf("postgres: giving back games: %w", err)
		}
		slices.SortFunc(given, func(x, y store.Refund) int {
			return cmp.Or(cmp.Compare(x.Identity, y.Identity), cmp.Compare(x.Pool, y.Pool))
		})
		for _, r := range given {
			if k := len(out) - 1; k >= 0 && out[k].Identity == r.Identity && out[k].Pool == r.Pool {
				out[k].Points += r.Points
				out[k].Games++
			} else {
				out = append(out, r)
			}
		}
		for _, r := range out {
			if _, err := tx.Exec(ctx, "UPDATE ratings SET rating = rating + $1 WHERE identity = $2 AND pool = $3", r.Points, r.Identity, r.Pool); err != nil {
				return fmt.Errorf("postgres: giving back rating points: %w", err)
			}
		}
		a.Detail = store.RefundDetail(out)
		return logAction(ctx, tx, a)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// LogAction implements store.Moderation.
func (s *Store) LogAction(ctx context.Context, a store.ModAction) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error { return logAction(ctx, tx, a) })
}

// ModLog implements store.Moderation.
func (s *Store) ModLog(ctx context.Context, limit int) ([]store.ModAction, error) {
	rows, err := s.pool.Query(ctx, "SELECT seq, moderator, moderator_name, action, subject, subject_name, detail, reason, at FROM moderation_log ORDER BY seq DESC LIMIT $1", limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading the moderation log: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.ModAction, error) {
		var a store.ModAction
		err := row.Scan(&a.Seq, &a.Moderator, &a.ModeratorName, &a.Action, &a.Subject, &a.SubjectName, &a.Detail, &a.Reason, &a.At)
		a.At = utc(a.At)
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading the moderation log: %w", err)
	}
	return out, nil
}

var _ store.Moderation = (*Store)(nil)
