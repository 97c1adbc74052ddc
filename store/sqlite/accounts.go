package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"time"

	"parlour/glicko"
	"parlour/store"
)

// queryRow runs a query of one row inside the writer's transaction and
// scans it into dest (pointers to float64, int64 or string). It reports
// false when there is no row. The writer reads what it is about to change
// (a rating) on its own connection, so that it sees the writes of its
// transaction so far.
func (e *execer) queryRow(query string, args []any, dest ...any) (bool, error) {
	st, ok := e.stmts[query]
	if !ok {
		var err error
		if st, err = e.c.PrepareContext(context.Background(), query); err != nil {
			return false, fmt.Errorf("preparing %q: %w", query, err)
		}
		e.stmts[query] = st
	}
	nv := make([]driver.NamedValue, len(args))
	for i, a := range args {
		v, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return false, err
		}
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	q, ok := st.(driver.StmtQueryContext)
	if !ok {
		return false, fmt.Errorf("the driver's statement (%T) cannot query with a context", st)
	}
	rows, err := q.QueryContext(context.Background(), nv)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	vals := make([]driver.Value, len(rows.Columns()))
	if err := rows.Next(vals); err == io.EOF {
		return false, nil
	} else if err != nil {
		return false, err
	}
	for i, d := range dest {
		switch p := d.(type) {
		case *float64:
			switch v := vals[i].(type) {
			case float64:
				*p = v
			case int64:
				*p = float64(v)
			}
		case *int64:
			if v, ok := vals[i].(int64); ok {
				*p = v
			}
		case *string:
			switch v := vals[i].(type) {
			case string:
				*p = v
			case []byte:
				*p = string(v)
			}
		}
	}
	return true, nil
}

// CreateAccount implements store.Players.
func (s *Store) CreateAccount(ctx context.Context, a store.Account, cred store.Credential, guest *store.Identity) ([][]byte, error) {
	var dropped [][]byte
	defer s.ids.changed(a.Identity)
	err := s.do(ctx, func(ex *execer) error {
		dropped = nil
		if guest != nil {
			if _, err := ex.exec("INSERT INTO identities (id, name, created) VALUES (?, ?, ?)", guest.ID, guest.Name, nanos(guest.Created)); err != nil {
				if isConstraint(err) {
					return fmt.Errorf("identity %s: %w", guest.ID, store.ErrConflict)
				}
				return fmt.Errorf("sqlite: creating identity: %w", err)
			}
		}
		if _, err := ex.exec("INSERT INTO accounts (identity, name, key, hash, created) VALUES (?, ?, ?, ?, ?)",
			a.Identity, a.Name, a.Key, a.Hash, nanos(a.Created)); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("account %s: %w", a.Name, store.ErrConflict)
			}
			return fmt.Errorf("sqlite: creating account: %w", err)
		}
		n, err := ex.exec("UPDATE identities SET name = ? WHERE id = ?", a.Name, a.Identity)
		if err != nil {
			return fmt.Errorf("sqlite: naming identity: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("identity %s: %w", a.Identity, store.ErrNotFound)
		}
		if guest == nil {
			hashes, err := ownTokens(ex, a.Identity, false)
			if err != nil {
				return err
			}
			for _, h := range hashes {
				if _, err := ex.exec("DELETE FROM credentials WHERE hash = ?", h); err != nil {
					return fmt.Errorf("sqlite: deleting credential: %w", err)
				}
				dropped = append(dropped, h)
			}
		}
		return insertCredential(ex, cred)
	})
	if err != nil {
		return nil, err
	}
	return dropped, nil
}

const accountColumns = "identity, name, key, hash, created"

func scanAccount(row interface{ Scan(...any) error }) (store.Account, error) {
	var a store.Account
	var created int64
	err := row.Scan(&a.Identity, &a.Name, &a.Key, &a.Hash, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return a, fmt.Errorf("account: %w", store.ErrNotFound)
	}
	if err != nil {
		return a, fmt.Errorf("sqlite: reading account: %w", err)
	}
	a.Created = fromNanos(created)
	return a, nil
}

// AccountByKey implements store.Players.
func (s *Store) AccountByKey(ctx context.Context, key string) (store.Account, error) {
	return scanAccount(s.queryRow(ctx, "SELECT "+accountColumns+" FROM accounts WHERE key = ?", key))
}

// AccountsByKeys implements store.Players.
func (s *Store) AccountsByKeys(ctx context.Context, keys []string) ([]store.Account, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	list, args := inList(keys)
	return s.queryAccounts(ctx, "SELECT "+accountColumns+" FROM accounts WHERE key IN "+list, args...)
}

// AccountsWithPrefix implements store.Players: a range of the keys'
// unique index, which orders them by their bytes.
func (s *Store) AccountsWithPrefix(ctx context.Context, prefix string, limit int) ([]store.Account, error) {
	q, args := "SELECT "+accountColumns+" FROM accounts WHERE hash <> ? AND key >= ?", []any{store.ClosedHash, prefix}
	if end := store.PrefixEnd(prefix); end != "" {
		q, args = q+" AND key < ?", append(args, end)
	}
	return s.queryAccounts(ctx, q+" ORDER BY key LIMIT ?", append(args, limit)...)
}

// queryAccounts returns the accounts that q, with args, selects
// (accountColumns).
func (s *Store) queryAccounts(ctx context.Context, q string, args ...any) ([]store.Account, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading accounts: %w", err)
	}
	defer rows.Close()
	var out []store.Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: reading accounts: %w", err)
	}
	return out, nil
}

// AccountOf implements store.Players.
func (s *Store) AccountOf(ctx context.Context, identity string) (store.Account, error) {
	return scanAccount(s.queryRow(ctx, "SELECT "+accountColumns+" FROM accounts WHERE identity = ?", identity))
}

// AccountNames implements store.Players.
func (s *Store) AccountNames(ctx context.Context, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	list, args := inList(ids)
	q := "SELECT identity, name FROM accounts WHERE identity IN " + list
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading account names: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, fmt.Errorf("sqlite: reading account names: %w", err)
		}
		out[id] = name
	}
	return out, rows.Err()
}

// ownTokens lists the hashes of identity's session and identity tokens
// (not its seats'), inside the writer's transaction.
func ownTokens(ex *execer, identity string, all bool) ([][]byte, error) {
	q := "SELECT hash FROM credentials WHERE identity = ? AND table_id = '' LIMIT 1 OFFSET ?"
	if all {
		q = "SELECT hash FROM credentials WHERE identity = ? LIMIT 1 OFFSET ?"
	}
	var out [][]byte
	for i := 0; ; i++ {
		var h string
		ok, err := ex.queryRow(q, []any{identity, int64(i)}, &h)
		if err != nil {
			return nil, fmt.Errorf("sqlite: listing credentials: %w", err)
		}
		if !ok {
			return out, nil
		}
		out = append(out, []byte(h))
	}
}

// SetPassword implements store.Players.
func (s *Store) SetPassword(ctx context.Context, identity, old, hash string, keep []byte) ([][]byte, error) {
	var dropped [][]byte
	err := s.do(ctx, func(ex *execer) error {
		dropped = nil
		n, err := ex.exec("UPDATE accounts SET hash = ? WHERE identity = ? AND hash = ?", hash, identity, old)
		if err != nil {
			return fmt.Errorf("sqlite: storing password: %w", err)
		}
		if n == 0 {
			var one int
			found, err := ex.queryRow("SELECT 1 FROM accounts WHERE identity = ?", []any{identity}, &one)
			switch {
			case err != nil:
				return fmt.Errorf("sqlite: reading the account: %w", err)
			case !found:
				return fmt.Errorf("account: %w", store.ErrNotFound)
			}
			return fmt.Errorf("the password changed meanwhile: %w", store.ErrConflict)
		}
		if err := spendResets(ex, identity); err != nil {
			return err
		}
		dropped, err = dropSessions(ex, identity, keep)
		return err
	})
	return dropped, err
}

// spendResets spends identity's password reset link, if any. Its
// address's updated time moves on, so that a change of the address
// read before it cannot store the link again.
func spendResets(ex *execer, identity string) error {
	if _, err := ex.exec("UPDATE emails SET reset_hash = NULL, reset_sent = 0, updated = updated + 1 WHERE identity = ? AND reset_hash IS NOT NULL", identity); err != nil {
		return fmt.Errorf("sqlite: spending a password reset link: %w", err)
	}
	return nil
}

// EndSessions implements store.Players.
func (s *Store) EndSessions(ctx context.Context, identity string, keep []byte) ([][]byte, error) {
	var dropped [][]byte
	err := s.do(ctx, func(ex *execer) error {
		var err error
		dropped, err = dropSessions(ex, identity, keep)
		return err
	})
	return dropped, err
}

// TouchSessions implements store.Players.
func (s *Store) TouchSessions(ctx context.Context, hashes [][]byte, at time.Time) error {
	if len(hashes) == 0 {
		return nil
	}
	return s.do(ctx, func(ex *execer) error {
		for _, h := range hashes {
			if _, err := ex.exec("UPDATE credentials SET used = ? WHERE hash = ? AND table_id = ''", nanos(at), h); err != nil {
				return fmt.Errorf("sqlite: noting a session's use: %w", err)
			}
		}
		return nil
	})
}

// ExpireSessions implements store.Players. The sessions to end are read
// apart from the writer, which deletes each only if it is still unused
// (a use noted meanwhile keeps it), so that the writer, which every move
// waits for, does no more than the deletions.
func (s *Store) ExpireSessions(ctx context.Context, before, now time.Time) ([][]byte, error) {
	err := s.do(ctx, func(ex *execer) error {
		if _, err := ex.exec("UPDATE credentials SET used = ? WHERE table_id = '' AND used = 0", nanos(now)); err != nil {
			return fmt.Errorf("sqlite: noting the sessions' use: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT c.hash FROM accounts a JOIN credentials c ON c.identity = a.identity
		WHERE c.table_id = '' AND c.used < ?`, nanos(before))
	if err != nil {
		return nil, fmt.Errorf("sqlite: finding sessions unused: %w", err)
	}
	var found [][]byte
	for rows.Next() {
		var h []byte
		if err := rows.Scan(&h); err != nil {
			rows.Close()
			return nil, fmt.Errorf("sqlite: finding sessions unused: %w", err)
		}
		found = append(found, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: finding sessions unused: %w", err)
	}
	if len(found) == 0 {
		return nil, nil
	}
	var dropped [][]byte
	err = s.do(ctx, func(ex *execer) error {
		dropped = dropped[:0]
		for _, h := range found {
			n, err := ex.exec("DELETE FROM credentials WHERE hash = ? AND table_id = '' AND used < ?", h, nanos(before))
			if err != nil {
				return fmt.Errorf("sqlite: ending a session unused: %w", err)
			}
			if n > 0 {
				dropped = append(dropped, h)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return dropped, nil
}

// dropSessions deletes identity's session and identity tokens but keep,
// and returns their hashes.
func dropSessions(ex *execer, identity string, keep []byte) ([][]byte, error) {
	hashes, err := ownTokens(ex, identity, false)
	if err != nil {
		return nil, err
	}
	var dropped [][]byte
	for _, h := range hashes {
		if string(h) == string(keep) {
			continue
		}
		if _, err := ex.exec("DELETE FROM credentials WHERE hash = ?", h); err != nil {
			return nil, fmt.Errorf("sqlite: deleting credential: %w", err)
		}
		dropped = append(dropped, h)
	}
	return dropped, nil
}

// Rehash implements store.Players.
func (s *Store) Rehash(ctx context.Context, identity, old, new string) error {
	return s.do(ctx, func(ex *execer) error {
		if _, err := ex.exec("UPDATE accounts SET hash = ? WHERE identity = ? AND hash = ?", new, identity, old); err != nil {
			return fmt.Errorf("sqlite: storing password: %w", err)
		}
		return nil
	})
}

// DeleteCredential implements store.Players.
func (s *Store) DeleteCredential(ctx context.Context, h []byte) error {
	return s.do(ctx, func(ex *execer) error {
		if _, err := ex.exec("DELETE FROM credentials WHERE hash = ?", h); err != nil {
			return fmt.Errorf("sqlite: deleting credential: %w", err)
		}
		return nil
	})
}

// DeleteAccount implements store.Players.
func (s *Store) DeleteAccount(ctx context.Context, identity, name string, renames []store.TableUpdate) ([][]byte, error) {
	var dropped [][]byte
	defer s.ids.changed(identity)
	err := s.do(ctx, func(ex *execer) error {
		n, err := ex.exec("DELETE FROM accounts WHERE identity = ?", identity)
		if err != nil {
			return fmt.Errorf("sqlite: deleting account: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("account: %w", store.ErrNotFound)
		}
		if dropped, err = ownTokens(ex, identity, true); err != nil {
			return err
		}
		for _, q := range []string{
			"DELETE FROM credentials WHERE identity = ?",
			"DELETE FROM ratings WHERE identity = ?",
			"DELETE FROM player_games WHERE identity = ?",
			"DELETE FROM daily_attempts WHERE identity = ?",
			"DELETE FROM presence_settings WHERE identity = ?",
			"DELETE FROM ssh_guests WHERE identity = ?",
			"DELETE FROM relations WHERE from_id = ?1 OR to_id = ?1",
			"UPDATE challenges SET status = 'canceled' WHERE status = 'open' AND (from_id = ?1 OR to_id = ?1)",
		} {
			if _, err := ex.exec(q, identity); err != nil {
				return fmt.Errorf("sqlite: deleting account: %w", err)
			}
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
		return nil
	})
	return dropped, err
}

// endGame indexes a game's end inside the writer's transaction: each
// person's line of history, and for a rated game both new ratings.
func endGame(ex *execer, table string, e *store.GameEnd) error {
	type after struct {
		before, rating, rd float64
		games              int64
	}
	rated := map[string]after{}
	pool := ""
	if r := e.Rated; r != nil {
		pool = r.Pool
		var cur [2]glicko.Rating
		var games [2]int64
		for i, id := range r.Players {
			cur[i] = glicko.New()
			var updated int64
			ok, err := ex.queryRow("SELECT rating, rd, volatility, games, updated FROM ratings WHERE identity = ? AND pool = ?",
				[]any{id, r.Pool}, &cur[i].Value, &cur[i].RD, &cur[i].Volatility, &games[i], &updated)
			if err != nil {
				return fmt.Errorf("sqlite: reading rating: %w", err)
			}
			if !ok {
				cur[i], games[i] = glicko.New(), 0
				continue
			}
			cur[i] = glicko.System{}.Away(cur[i], e.Ended.Sub(fromNanos(updated)))
		}
		a, b, err := glicko.System{}.Game(cur[0], cur[1], r.Score)
		if err != nil {
			return fmt.Errorf("rating table %s: %w", table, err)
		}
		for i, nr := range [2]glicko.Rating{a, b} {
			if _, err := ex.exec(`INSERT INTO ratings (identity, pool, rating, rd, volatility, games, updated) VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (identity, pool) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
				volatility = excluded.volatility, games = excluded.games, updated = excluded.updated`,
				r.Players[i], r.Pool, nr.Value, nr.RD, nr.Volatility, games[i]+1, nanos(e.Ended)); err != nil {
				return fmt.Errorf("sqlite: storing rating: %w", err)
			}
			rated[r.Players[i]] = after{before: cur[i].Value, rating: nr.Value, rd: nr.RD, games: games[i] + 1}
		}
	}
	for _, st := range e.Seats {
		var before, rating, rd, n any
		if a, ok := rated[st.Identity]; ok {
			before, rating, rd, n = a.before, a.rating, a.rd, a.games
		}
		if _, err := ex.exec(`INSERT OR REPLACE INTO player_games (identity, table_id, seat, game, pool, result, ended, before_rating, rating, rd, rated_games)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			st.Identity, table, st.Seat, e.Game, pool, string(st.Result), nanos(e.Ended), before, rating, rd, n); err != nil {
			return fmt.Errorf("sqlite: storing history: %w", err)
		}
	}
	return nil
}

// Ratings implements store.Players.
func (s *Store) Ratings(ctx context.Context, identity string) ([]store.Rating, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT pool, rating, rd, volatility, games, updated FROM ratings WHERE identity = ? ORDER BY pool", identity)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading ratings: %w", err)
	}
	defer rows.Close()
	var out []store.Rating
	for rows.Next() {
		r := store.Rating{Identity: identity}
		var updated int64
		if err := rows.Scan(&r.Pool, &r.Rating, &r.RD, &r.Volatility, &r.Games, &updated); err != nil {
			return nil, fmt.Errorf("sqlite: reading ratings: %w", err)
		}
		r.Updated = fromNanos(updated)
		out = append(out, r)
	}
	return out, rows.Err()
}

// privateTable is true of a row of tables t whose description says
// the table is private and is not a daily puzzle's attempt (whose
// "daily" names the puzzle: an attempt is in its player's public
// history, private only to keep it out of the lobby).
const privateTable = `(json_extract(CAST(t.meta AS TEXT), '$.private') IS 1 AND COALESCE(json_extract(CAST(t.meta AS TEXT), '$.daily'), '') = '')`

// seatedAt is true when identity ?N (not "") held a seat at the table
// of player_games row pg.
func seatedAt(n int) string {
	return fmt.Sprintf(`(?%[1]d <> '' AND EXISTS (SELECT 1 FROM player_games v WHERE v.identity = ?%[1]d AND v.table_id = pg.table_id))`, n)
}

// RatingHistory implements store.Players.
func (s *Store) RatingHistory(ctx context.Context, identity, pool string, limit int, viewer string) ([]store.RatingPoint, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT pg.table_id, pg.ended, pg.rating, pg.rd, `+privateTable+` AND NOT `+seatedAt(4)+`
		FROM player_games pg LEFT JOIN tables t ON t.id = pg.table_id
		WHERE pg.identity = ?1 AND pg.pool = ?2 AND pg.rating IS NOT NULL ORDER BY pg.rated_games DESC LIMIT ?3`, identity, pool, limit, viewer)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading rating history: %w", err)
	}
	defer rows.Close()
	var out []store.RatingPoint
	for rows.Next() {
		var p store.RatingPoint
		var at int64
		if err := rows.Scan(&p.Table, &at, &p.Rating, &p.RD, &p.Hidden); err != nil {
			return nil, fmt.Errorf("sqlite: reading rating history: %w", err)
		}
		p.At = fromNanos(at)
		out = append(out, p)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, rows.Err()
}

// History implements store.Players.
func (s *Store) History(ctx context.Context, p store.HistoryPage) ([]store.PlayerGame, error) {
	q := `SELECT pg.table_id, pg.seat, pg.game, pg.pool, COALESCE(pg.result, ''), pg.ended,
		COALESCE(pg.before_rating, 0), COALESCE(pg.rating, 0), COALESCE(pg.rd, 0), COALESCE(pg.refund, 0), t.meta
		FROM player_games pg JOIN tables t ON t.id = pg.table_id WHERE pg.identity = ?`
	args := []any{p.Identity}
	if p.Game != "" {
		q += " AND pg.game = ?"
		args = append(args, p.Game)
	}
	if !p.Before.IsZero() {
		q += " AND (pg.ended < ? OR (pg.ended = ? AND pg.table_id < ?))"
		args = append(args, nanos(p.Before), nanos(p.Before), p.BeforeTable)
	}
	if p.Public {
		args = append(args, p.Viewer)
		q += " AND NOT (" + privateTable + " AND NOT " + seatedAt(len(args)) + ")"
	}
	q += " ORDER BY pg.ended DESC, pg.table_id DESC LIMIT ?"
	args = append(args, p.Limit)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading history: %w", err)
	}
	defer rows.Close()
	var out []store.PlayerGame
	for rows.Next() {
		var g store.PlayerGame
		var result string
		var ended int64
		if err := rows.Scan(&g.Table, &g.Seat, &g.Game, &g.Pool, &result, &ended, &g.Before, &g.After, &g.RD, &g.Refund, &g.Meta); err != nil {
			return nil, fmt.Errorf("sqlite: reading history: %w", err)
		}
		g.Result, g.Ended = store.Result(result), fromNanos(ended)
		out = append(out, g)
	}
	return out, rows.Err()
}

// FinishedGames implements store.Players.
func (s *Store) FinishedGames(ctx context.Context, identity string) (int, error) {
	var n int
	if err := s.queryRow(ctx, "SELECT COUNT(*) FROM player_games WHERE identity = ?", identity).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: counting games: %w", err)
	}
	return n, nil
}

// RatedTogether implements store.Players.
func (s *Store) RatedTogether(ctx context.Context, a, b string, since time.Time) (int, error) {
	var n int
	if err := s.queryRow(ctx, `SELECT COUNT(*) FROM player_games pa
		JOIN player_games pb ON pb.identity = ? AND pb.table_id = pa.table_id
		WHERE pa.identity = ? AND pa.ended >= ? AND pa.pool <> '' AND COALESCE(pa.result, '') <> ?`,
		b, a, nanos(since), string(store.Aborted)).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: counting rated games together: %w", err)
	}
	return n, nil
}

// Leaderboard implements store.Players.
func (s *Store) Leaderboard(ctx context.Context, pool string, minGames int, maxRD float64, limit int, at time.Time) ([]store.Standing, error) {
	// The RD at the time at, squared, is glicko.System.Away's: the
	// stored RD² grown by σ² × (Scale² × DayPeriods a day) for each
	// nanosecond since the last game, no more than a newcomer's.
	grow := glicko.Scale * glicko.Scale * glicko.DayPeriods / float64(24*time.Hour)
	rows, err := s.db.QueryContext(ctx, `SELECT a.name, r.rating, r.rd, r.volatility, r.games, r.updated FROM ratings r
		JOIN accounts a ON a.identity = r.identity
		WHERE r.pool = ? AND r.games >= ? AND r.games > 0 AND a.hash <> ?
			AND MIN(?, r.rd*r.rd + r.volatility*r.volatility*?*MAX(0, ? - r.updated)) < ?
		ORDER BY r.rating DESC, a.key LIMIT ?`, pool, minGames, store.ClosedHash,
		glicko.DefaultRD*glicko.DefaultRD, grow, nanos(at), maxRD*maxRD, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading leaderboard: %w", err)
	}
	defer rows.Close()
	var out []store.Standing
	for rows.Next() {
		var st store.Standing
		var r glicko.Rating
		var updated int64
		if err := rows.Scan(&st.Name, &r.Value, &r.RD, &r.Volatility, &st.Games, &updated); err != nil {
			return nil, fmt.Errorf("sqlite: reading leaderboard: %w", err)
		}
		r = glicko.System{}.Away(r, at.Sub(fromNanos(updated)))
		st.Rating, st.RD = r.Value, r.RD
		out = append(out, st)
	}
	return out, rows.Err()
}

var _ store.Players = (*Store)(nil)
