package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"parlour/store"
)

const reportCols = "id, reporter, subject, reason, text, table_id, tournament, seq, status, created, closed, closed_by"

func scanReport(sc interface{ Scan(...any) error }) (store.Report, error) {
	var r store.Report
	var status string
	var created, closed int64
	if err := sc.Scan(&r.ID, &r.Reporter, &r.Subject, &r.Reason, &r.Text, &r.Table, &r.Tournament, &r.Seq, &status, &created, &closed, &r.ClosedBy); err != nil {
		return r, err
	}
	r.Status, r.Created = store.ReportStatus(status), fromNanos(created)
	if closed != 0 {
		r.Closed = fromNanos(closed)
	}
	return r, nil
}

// logAction stores a line of the moderation log in the writer's
// transaction.
func logAction(ex *execer, a store.ModAction) error {
	if _, err := ex.exec("INSERT INTO moderation_log (moderator, moderator_name, action, subject, subject_name, detail, reason, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		a.Moderator, a.ModeratorName, a.Action, a.Subject, a.SubjectName, a.Detail, a.Reason, nanos(a.At)); err != nil {
		return fmt.Errorf("sqlite: logging a moderator's action: %w", err)
	}
	return nil
}

// CreateReport implements store.Moderation.
func (s *Store) CreateReport(ctx context.Context, r store.Report) error {
	return s.do(ctx, func(ex *execer) error {
		var dup int64
		if _, err := ex.queryRow("SELECT COUNT(*) FROM reports WHERE reporter = ? AND subject = ? AND table_id = ? AND tournament = ?", []any{r.Reporter, r.Subject, r.Table, r.Tournament}, &dup); err != nil {
			return fmt.Errorf("sqlite: storing a report: %w", err)
		}
		if dup > 0 {
			return fmt.Errorf("report %s: %w", r.ID, store.ErrReportDuplicate)
		}
		_, err := ex.exec("INSERT INTO reports ("+reportCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, '')",
			r.ID, r.Reporter, r.Subject, r.Reason, r.Text, r.Table, r.Tournament, r.Seq, string(store.ReportOpen), nanos(r.Created))
		if isConstraint(err) {
			return fmt.Errorf("report %s: %w", r.ID, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("sqlite: storing a report: %w", err)
		}
		return nil
	})
}

// Report implements store.Moderation.
func (s *Store) Report(ctx context.Context, id string) (store.Report, error) {
	r, err := scanReport(s.queryRow(ctx, "SELECT "+reportCols+" FROM reports WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("report %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("sqlite: reading a report: %w", err)
	}
	return r, nil
}

// Reports implements store.Moderation.
func (s *Store) Reports(ctx context.Context, limit int) ([]store.Report, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+reportCols+" FROM reports ORDER BY status = 'closed', CASE WHEN status = 'open' THEN created ELSE -closed END, id LIMIT ?", limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading reports: %w", err)
	}
	defer rows.Close()
	var out []store.Report
	for rows.Next() {
		r, err := scanReport(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: reading reports: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// CloseReport implements store.Moderation.
func (s *Store) CloseReport(ctx context.Context, id string, a store.ModAction) error {
	return s.do(ctx, func(ex *execer) error {
		var status string
		ok, err := ex.queryRow("SELECT status FROM reports WHERE id = ?", []any{id}, &status)
		if err != nil {
			return fmt.Errorf("sqlite: closing a report: %w", err)
		}
		if !ok {
			return fmt.Errorf("report %s: %w", id, store.ErrNotFound)
		}
		if status != string(store.ReportOpen) {
			return fmt.Errorf("report %s is %s: %w", id, status, store.ErrConflict)
		}
		if _, err := ex.exec("UPDATE reports SET status = ?, closed = ?, closed_by = ? WHERE id = ?", string(store.ReportClosed), nanos(a.At), a.Moderator, id); err != nil {
			return fmt.Errorf("sqlite: closing a report: %w", err)
		}
		return logAction(ex, a)
	})
}

// SetModerator implements store.Moderation.
func (s *Store) SetModerator(ctx context.Context, identity string, on bool, a store.ModAction) error {
	return s.do(ctx, func(ex *execer) error {
		q := "DELETE FROM moderators WHERE identity = ?"
		if on {
			q = "INSERT INTO moderators (identity) VALUES (?) ON CONFLICT (identity) DO NOTHING"
		}
		if _, err := ex.exec(q, identity); err != nil {
			return fmt.Errorf("sqlite: storing a moderator: %w", err)
		}
		return logAction(ex, a)
	})
}

// IsModerator implements store.Moderation.
func (s *Store) IsModerator(ctx context.Context, identity string) (bool, error) {
	var n int64
	if err := s.queryRow(ctx, "SELECT COUNT(*) FROM moderators WHERE identity = ?", identity).Scan(&n); err != nil {
		return false, fmt.Errorf("sqlite: reading moderators: %w", err)
	}
	return n > 0, nil
}

// BanChat implements store.Moderation.
func (s *Store) BanChat(ctx context.Context, identity string, until time.Time, a store.ModAction) error {
	return s.do(ctx, func(ex *execer) error {
		var err error
		if until.IsZero() {
			_, err = ex.exec("DELETE FROM chat_bans WHERE identity = ?", identity)
		} else {
			_, err = ex.exec("INSERT INTO chat_bans (identity, until) VALUES (?, ?) ON CONFLICT (identity) DO UPDATE SET until = excluded.until", identity, nanos(until))
		}
		if err != nil {
			return fmt.Errorf("sqlite: storing a chat ban: %w", err)
		}
		return logAction(ex, a)
	})
}

// ChatBan implements store.Moderation.
func (s *Store) ChatBan(ctx context.Context, identity string) (time.Time, error) {
	var until int64
	err := s.queryRow(ctx, "SELECT until FROM chat_bans WHERE identity = ?", identity).Scan(&until)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("sqlite: reading a chat ban: %w", err)
	}
	return fromNanos(until), nil
}

// RenameAccount implements store.Moderation.
func (s *Store) RenameAccount(ctx context.Context, identity, name, key string, renames []store.TableUpdate, a store.ModAction) error {
	defer s.ids.changed(identity)
	return s.do(ctx, func(ex *execer) error {
		var holder string
		ok, err := ex.queryRow("SELECT identity FROM accounts WHERE key = ?", []any{key}, &holder)
		if err != nil {
			return fmt.Errorf("sqlite: renaming an account: %w", err)
		}
		if ok && holder != identity {
			return fmt.Errorf("account name %q: %w", name, store.ErrConflict)
		}
		n, err := ex.exec("UPDATE accounts SET name = ?, key = ? WHERE identity = ?", name, key, identity)
		if isConstraint(err) {
			return fmt.Errorf("account name %q: %w", name, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("sqlite: renaming an account: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("account: %w", store.ErrNotFound)
		}
		if _, err := ex.exec("UPDATE identities SET name = ? WHERE id = ?", name, identity); err != nil {
			return fmt.Errorf("sqlite: renaming identity: %w", err)
		}
		if err := renameInEvents(ex, identity, name); err != nil {
			return err
		}
		if err := renameLines(ex, identity, name); err != nil {
			return err
		}
		if err := renameTables(ex, renames); err != nil {
			return err
		}
		return logAction(ex, a)
	})
}

// CloseAccount implements store.Moderation.
func (s *Store) CloseAccount(ctx context.Context, identity, hash string, a store.ModAction) ([][]byte, error) {
	var dropped [][]byte
	err := s.do(ctx, func(ex *execer) error {
		dropped = nil
		// The hash goes aside for a reopening; a closed account's
		// marker is never kept in its place.
		n, err := ex.exec("UPDATE accounts SET closed_hash = CASE WHEN hash LIKE '!%' THEN closed_hash ELSE hash END, hash = ? WHERE identity = ?", hash, identity)
		if err != nil {
			return fmt.Errorf("sqlite: closing an account: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("account: %w", store.ErrNotFound)
		}
		if dropped, err = ownTokens(ex, identity, false); err != nil {
			return err
		}
		if _, err := ex.exec("DELETE FROM credentials WHERE identity = ? AND table_id = ''", identity); err != nil {
			return fmt.Errorf("sqlite: closing an account: %w", err)
		}
		return logAction(ex, a)
	})
	return dropped, err
}

// ReopenAccount implements store.Moderation.
func (s *Store) ReopenAccount(ctx context.Context, identity string, a store.ModAction) (bool, error) {
	var kept bool
	err := s.do(ctx, func(ex *execer) error {
		var hash, closedHash string
		ok, err := ex.queryRow("SELECT hash, closed_hash FROM accounts WHERE identity = ?", []any{identity}, &hash, &closedHash)
		switch {
		case err != nil:
			return fmt.Errorf("sqlite: reopening an account: %w", err)
		case !ok:
			return fmt.Errorf("account: %w", store.ErrNotFound)
		case hash != store.ClosedHash:
			return fmt.Errorf("the account is not closed: %w", store.ErrConflict)
		}
		kept = closedHash != ""
		hash = closedHash
		if !kept {
			hash = store.NoPasswordHash
		}
		if _, err := ex.exec("UPDATE accounts SET hash = ?, closed_hash = '' WHERE identity = ?", hash, identity); err != nil {
			return fmt.Errorf("sqlite: reopening an account: %w", err)
		}
		if err := spendResets(ex, identity); err != nil {
			return err
		}
		return logAction(ex, a)
	})
	return kept, err
}

// RefundOpponents implements store.Moderation. The games to give back
// are found on a reading connection, since no index leads from a table
// to its players and the search may read the whole history; the writer
// then checks each again by its key as it gives it back, so that a game
// given back meanwhile is not given twice.
func (s *Store) RefundOpponents(ctx context.Context, identity string, since time.Time, a store.ModAction) ([]store.Refund, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT o.identity, o.table_id FROM player_games c
		JOIN player_games o ON o.table_id = c.table_id AND o.identity <> c.identity
		WHERE c.identity = ? AND c.ended >= ? AND c.pool <> '' AND o.pool <> ''
			AND o.before_rating > o.rating AND o.refund IS NULL
		ORDER BY o.identity, o.pool, o.table_id`, identity, nanos(since))
	if err != nil {
		return nil, fmt.Errorf("sqlite: finding the games to give back: %w", err)
	}
	type game struct{ identity, table string }
	var games []game
	for rows.Next() {
		var g game
		if err := rows.Scan(&g.identity, &g.table); err != nil {
			rows.Close()
			return nil, fmt.Errorf("sqlite: finding the games to give back: %w", err)
		}
		games = append(games, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: finding the games to give back: %w", err)
	}
	var out []store.Refund
	err = s.do(ctx, func(ex *execer) error {
		out = nil
		for _, g := range games {
			n, err := ex.exec(`UPDATE player_games SET refund = before_rating - rating
				WHERE identity = ? AND table_id = ? AND refund IS NULL AND before_rating > rating`, g.identity, g.table)
			if err != nil {
				return fmt.Errorf("sqlite: giving back a game: %w", err)
			}
			if n == 0 {
				continue
			}
			var pool string
			var points float64
			if _, err := ex.queryRow("SELECT pool, refund FROM player_games WHERE identity = ? AND table_id = ?",
				[]any{g.identity, g.table}, &pool, &points); err != nil {
				return fmt.Errorf("sqlite: giving back a game: %w", err)
			}
			if k := len(out) - 1; k >= 0 && out[k].Identity == g.identity && out[k].Pool == pool {
				out[k].Points += points
				out[k].Games++
			} else {
				out = append(out, store.Refund{Identity: g.identity, Pool: pool, Points: points, Games: 1})
			}
		}
		for _, r := range out {
			if _, err := ex.exec("UPDATE ratings SET rating = rating + ? WHERE identity = ? AND pool = ?", r.Points, r.Identity, r.Pool); err != nil {
				return fmt.Errorf("sqlite: giving back rating points: %w", err)
			}
		}
		a.Detail = store.RefundDetail(out)
		return logAction(ex, a)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// LogAction implements store.Moderation.
func (s *Store) LogAction(ctx context.Context, a store.ModAction) error {
	return s.do(ctx, func(ex *execer) error { return logAction(ex, a) })
}

// ModLog implements store.Moderation.
func (s *Store) ModLog(ctx context.Context, limit int) ([]store.ModAction, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT seq, moderator, moderator_name, action, subject, subject_name, detail, reason, at FROM moderation_log ORDER BY seq DESC LIMIT ?", limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading the moderation log: %w", err)
	}
	defer rows.Close()
	var out []store.ModAction
	for rows.Next() {
		var a store.ModAction
		var at int64
		if err := rows.Scan(&a.Seq, &a.Moderator, &a.ModeratorName, &a.Action, &a.Subject, &a.SubjectName, &a.Detail, &a.Reason, &at); err != nil {
			return nil, fmt.Errorf("sqlite: reading the moderation log: %w", err)
		}
		a.At = fromNanos(at)
		out = append(out, a)
	}
	return out, rows.Err()
}

var _ store.Moderation = (*Store)(nil)
