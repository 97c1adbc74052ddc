package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"parlour/glicko"
	"parlour/store"
)

// CreateAccount implements store.Players.
func (s *Store) CreateAccount(ctx context.Context, a store.Account, cred store.Credential, guest *store.Identity) ([][]byte, error) {
	var dropped [][]byte
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		dropped = nil
		if guest != nil {
			if err := insertIdentity(ctx, tx, *guest); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, "INSERT INTO accounts (identity, name, key, hash, created) VALUES ($1, $2, $3, $4, $5)",
			a.Identity, a.Name, a.Key, a.Hash, a.Created); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("account %s: %w", a.Name, store.ErrConflict)
			}
			return fmt.Errorf("postgres: creating account: %w", err)
		}
		tag, err := tx.Exec(ctx, "UPDATE identities SET name = $1 WHERE id = $2", a.Name, a.Identity)
		if err != nil {
			return fmt.Errorf("postgres: naming identity: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("identity %s: %w", a.Identity, store.ErrNotFound)
		}
		if guest == nil {
			rows, err := tx.Query(ctx, "DELETE FROM credentials WHERE identity = $1 AND table_id = '' RETURNING hash", a.Identity)
			if err != nil {
				return fmt.Errorf("postgres: deleting credentials: %w", err)
			}
			if dropped, err = pgx.CollectRows(rows, pgx.RowTo[[]byte]); err != nil {
				return fmt.Errorf("postgres: deleting credentials: %w", err)
			}
		}
		return insertCredential(ctx, tx, cred)
	})
	if err != nil {
		return nil, err
	}
	return dropped, nil
}

const accountColumns = "identity, name, key, hash, created"

func scanAccount(row pgx.Row) (store.Account, error) {
	var a store.Account
	err := row.Scan(&a.Identity, &a.Name, &a.Key, &a.Hash, &a.Created)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, fmt.Errorf("account: %w", store.ErrNotFound)
	}
	if err != nil {
		return a, fmt.Errorf("postgres: reading account: %w", err)
	}
	a.Created = utc(a.Created)
	return a, nil
}

// AccountByKey implements store.Players.
func (s *Store) AccountByKey(ctx context.Context, key string) (store.Account, error) {
	return scanAccount(s.pool.QueryRow(ctx, "SELECT "+accountColumns+" FROM accounts WHERE key = $1", key))
}

// AccountsByKeys implements store.Players.
func (s *Store) AccountsByKeys(ctx context.Context, keys []string) ([]store.Account, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	return s.queryAccounts(ctx, "SELECT "+accountColumns+" FROM accounts WHERE key = ANY($1)", keys)
}

// AccountsWithPrefix implements store.Players: a range of keys in byte
// order (the C collation, which the index accounts_key_bytes keeps),
// whatever the database's own collation, which may ignore '_' and '-'.
func (s *Store) AccountsWithPrefix(ctx context.Context, prefix string, limit int) ([]store.Account, error) {
	q, args := "SELECT "+accountColumns+` FROM accounts WHERE hash <> $1 AND key COLLATE "C" >= $2`, []any{store.ClosedHash, prefix}
	if end := store.PrefixEnd(prefix); end != "" {
		q, args = q+` AND key COLLATE "C" < $3`, append(args, end)
	}
	args = append(args, limit)
	return s.queryAccounts(ctx, q+fmt.Sprintf(` ORDER BY key COLLATE "C" LIMIT $%d`, len(args)), args...)
}

// queryAccounts returns the accounts that q, with args, selects
// (accountColumns).
func (s *Store) queryAccounts(ctx context.Context, q string, args ...any) ([]store.Account, error) {
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading accounts: %w", err)
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
		return nil, fmt.Errorf("postgres: reading accounts: %w", err)
	}
	return out, nil
}

// AccountOf implements store.Players.
func (s *Store) AccountOf(ctx context.Context, identity string) (store.Account, error) {
	return scanAccount(s.pool.QueryRow(ctx, "SELECT "+accountColumns+" FROM accounts WHERE identity = $1", identity))
}

// AccountNames implements store.Players.
func (s *Store) AccountNames(ctx context.Context, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, "SELECT identity, name FROM accounts WHERE identity = ANY($1)", ids)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading account names: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, fmt.Errorf("postgres: reading account names: %w", err)
		}
		out[id] = name
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading account names: %w", err)
	}
	return out, nil
}

// SetPassword implements store.Players.
func (s *Store) SetPassword(ctx context.Context, identity, old, hash string, keep []byte) ([][]byte, error) {
	var dropped [][]byte
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE accounts SET hash = $1 WHERE identity = $2 AND hash = $3", hash, identity, old)
		if err != nil {
			return fmt.Errorf("postgres: storing password: %w", err)
		}
		if tag.RowsAffected() == 0 {
			var found bool
			if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM accounts WHERE identity = $1)", identity).Scan(&found); err != nil {
				return fmt.Errorf("postgres: reading the account: %w", err)
			}
			if !found {
				return fmt.Errorf("account: %w", store.ErrNotFound)
			}
			return fmt.Errorf("the password changed meanwhile: %w", store.ErrConflict)
		}
		if err := spendResets(ctx, tx, identity); err != nil {
			return err
		}
		dropped, err = dropSessions(ctx, tx, identity, keep)
		return err
	})
	if err != nil {
		return nil, err
	}
	return dropped, nil
}

// spendResets spends identity's password reset link, if any. Its
// address's updated time moves on, so that a change of the address
// read before it cannot store the link again.
func spendResets(ctx context.Context, tx pgx.Tx, identity string) error {
	if _, err := tx.Exec(ctx, "UPDATE emails SET reset_hash = NULL, reset_sent = NULL, updated = updated + interval '1 microsecond' WHERE identity = $1 AND reset_hash IS NOT NULL", identity); err != nil {
		return fmt.Errorf("postgres: spending a password reset link: %w", err)
	}
	return nil
}

// EndSessions implements store.Players.
func (s *Store) EndSessions(ctx context.Context, identity string, keep []byte) ([][]byte, error) {
	var dropped [][]byte
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var err error
		dropped, err = dropSessions(ctx, tx, identity, keep)
		return err
	})
	if err != nil {
		return nil, err
	}
	return dropped, nil
}

// TouchSessions implements store.Players.
func (s *Store) TouchSessions(ctx context.Context, hashes [][]byte, at time.Time) error {
	if len(hashes) == 0 {
		return nil
	}
	if _, err := s.pool.Exec(ctx, "UPDATE credentials SET used = $1 WHERE hash = ANY($2) AND table_id = ''", at, hashes); err != nil {
		return fmt.Errorf("postgres: noting the sessions' use: %w", err)
	}
	return nil
}

// ExpireSessions implements store.Players.
func (s *Store) ExpireSessions(ctx context.Context, before, now time.Time) ([][]byte, error) {
	var dropped [][]byte
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE credentials SET used = $1 WHERE table_id = '' AND used IS NULL", now); err != nil {
			return fmt.Errorf("postgres: noting the sessions' use: %w", err)
		}
		rows, err := tx.Query(ctx, "DELETE FROM credentials WHERE table_id = '' AND used < $1 AND identity IN (SELECT identity FROM accounts) RETURNING hash", before)
		if err != nil {
			return fmt.Errorf("postgres: ending sessions unused: %w", err)
		}
		if dropped, err = pgx.CollectRows(rows, pgx.RowTo[[]byte]); err != nil {
			return fmt.Errorf("postgres: ending sessions unused: %w", err)
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
func dropSessions(ctx context.Context, tx pgx.Tx, identity string, keep []byte) ([][]byte, error) {
	rows, err := tx.Query(ctx, "DELETE FROM credentials WHERE identity = $1 AND table_id = '' AND hash <> $2 RETURNING hash", identity, nonNil(keep))
	if err != nil {
		return nil, fmt.Errorf("postgres: deleting credentials: %w", err)
	}
	dropped, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return nil, fmt.Errorf("postgres: deleting credentials: %w", err)
	}
	return dropped, nil
}

// nonNil returns b, or an empty slice for nil, so that a comparison with
// it is false rather than NULL.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Rehash implements store.Players.
func (s *Store) Rehash(ctx context.Context, identity, old, new string) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE accounts SET hash = $1 WHERE identity = $2 AND hash = $3", new, identity, old); err != nil {
			return fmt.Errorf("postgres: storing password: %w", err)
		}
		return nil
	})
}

// DeleteCredential implements store.Players.
func (s *Store) DeleteCredential(ctx context.Context, h []byte) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM credentials WHERE hash = $1", h); err != nil {
			return fmt.Errorf("postgres: deleting credential: %w", err)
		}
		return nil
	})
}

// DeleteAccount implements store.Players.
func (s *Store) DeleteAccount(ctx context.Context, identity, name string, renames []store.TableUpdate) ([][]byte, error) {
	var dropped [][]byte
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "DELETE FROM accounts WHERE identity = $1", identity)
		if err != nil {
			return fmt.Errorf("postgres: deleting account: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("account: %w", store.ErrNotFound)
		}
		rows, err := tx.Query(ctx, "DELETE FROM credentials WHERE identity = $1 RETURNING hash", identity)
		if err != nil {
			return fmt.Errorf("postgres: deleting credentials: %w", err)
		}
		if dropped, err = pgx.CollectRows(rows, pgx.RowTo[[]byte]); err != nil {
			return fmt.Errorf("postgres: deleting credentials: %w", err)
		}
		for _, q := range []string{
			"DELETE FROM ratings WHERE identity = $1",
			"DELETE FROM player_games WHERE identity = $1",
			"DELETE FROM daily_attempts WHERE identity = $1",
			"DELETE FROM presence_settings WHERE identity = $1",
			"DELETE FROM ssh_guests WHERE identity = $1",
			"DELETE FROM ssh_keys WHERE identity = $1",
			"DELETE FROM relations WHERE from_id = $1 OR to_id = $1",
			"UPDATE challenges SET status = 'canceled' WHERE status = 'open' AND (from_id = $1 OR to_id = $1)",
		} {
			if _, err := tx.Exec(ctx, q, identity); err != nil {
				return fmt.Errorf("postgres: deleting account: %w", err)
			}
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
		return nil
	})
	if err != nil {
		return nil, err
	}
	return dropped, nil
}

// endGame indexes a game's end inside the transaction of its last move:
// each person's line of history, and for a rated game both new ratings.
// The two rating rows are made if missing and locked, in the order of
// their identities, before they are read: another game of the same
// player ending at once waits for this one and then reads its result.
func endGame(ctx context.Context, tx pgx.Tx, table string, e *store.GameEnd) error {
	type after struct {
		before, rating, rd float64
		games              int
	}
	rated := map[string]after{}
	pool := ""
	if r := e.Rated; r != nil {
		pool = r.Pool
		fresh := glicko.New()
		order := []string{r.Players[0], r.Players[1]}
		slices.Sort(order)
		for _, id := range slices.Compact(order) {
			if _, err := tx.Exec(ctx, `INSERT INTO ratings (identity, pool, rating, rd, volatility, games, updated)
				VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (identity, pool) DO NOTHING`,
				id, r.Pool, fresh.Value, fresh.RD, fresh.Volatility, e.Ended); err != nil {
				return fmt.Errorf("postgres: storing rating: %w", err)
			}
			if _, err := tx.Exec(ctx, "SELECT 1 FROM ratings WHERE identity = $1 AND pool = $2 FOR UPDATE", id, r.Pool); err != nil {
				return fmt.Errorf("postgres: locking rating: %w", err)
			}
		}
		var cur [2]glicko.Rating
		var games [2]int
		for i, id := range r.Players {
			var updated time.Time
			if err := tx.QueryRow(ctx, "SELECT rating, rd, volatility, games, updated FROM ratings WHERE identity = $1 AND pool = $2",
				id, r.Pool).Scan(&cur[i].Value, &cur[i].RD, &cur[i].Volatility, &games[i], &updated); err != nil {
				return fmt.Errorf("postgres: reading rating: %w", err)
			}
			if games[i] == 0 {
				cur[i] = glicko.New()
				continue
			}
			cur[i] = glicko.System{}.Away(cur[i], e.Ended.Sub(updated))
		}
		a, b, err := glicko.System{}.Game(cur[0], cur[1], r.Score)
		if err != nil {
			return fmt.Errorf("rating table %s: %w", table, err)
		}
		for i, nr := range [2]glicko.Rating{a, b} {
			if _, err := tx.Exec(ctx, `UPDATE ratings SET rating = $1, rd = $2, volatility = $3, games = $4, updated = $5
				WHERE identity = $6 AND pool = $7`,
				nr.Value, nr.RD, nr.Volatility, games[i]+1, e.Ended, r.Players[i], r.Pool); err != nil {
				return fmt.Errorf("postgres: storing rating: %w", err)
			}
			rated[r.Players[i]] = after{before: cur[i].Value, rating: nr.Value, rd: nr.RD, games: games[i] + 1}
		}
	}
	for _, st := range e.Seats {
		var before, rating, rd, n any
		if a, ok := rated[st.Identity]; ok {
			before, rating, rd, n = a.before, a.rating, a.rd, a.games
		}
		if _, err := tx.Exec(ctx, `INSERT INTO player_games (identity, table_id, seat, game, pool, result, ended, before_rating, rating, rd, rated_games)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
			ON CONFLICT (identity, table_id) DO UPDATE SET seat = excluded.seat, game = excluded.game, pool = excluded.pool,
				result = excluded.result, ended = excluded.ended, before_rating = excluded.before_rating,
				rating = excluded.rating, rd = excluded.rd, rated_games = excluded.rated_games`,
			st.Identity, table, st.Seat, e.Game, pool, string(st.Result), e.Ended, before, rating, rd, n); err != nil {
			return fmt.Errorf("postgres: storing history: %w", err)
		}
	}
	return nil
}

// Ratings implements store.Players. (endGame makes a missing rating row
// with no games and counts the game in the same transaction; the
// condition on games only keeps such a row out should that ever change.)
func (s *Store) Ratings(ctx context.Context, identity string) ([]store.Rating, error) {
	rows, err := s.pool.Query(ctx, "SELECT pool, rating, rd, volatility, games, updated FROM ratings WHERE identity = $1 AND games > 0 ORDER BY pool", identity)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading ratings: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Rating, error) {
		r := store.Rating{Identity: identity}
		err := row.Scan(&r.Pool, &r.Rating, &r.RD, &r.Volatility, &r.Games, &r.Updated)
		r.Updated = utc(r.Updated)
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading ratings: %w", err)
	}
	return out, nil
}

// privateTable is true of a row of tables t whose description says
// the table is private and is not a daily puzzle's attempt (whose
// "daily" names the puzzle: an attempt is in its player's public
// history, private only to keep it out of the lobby).
const privateTable = `COALESCE(convert_from(t.meta, 'UTF8')::jsonb @> '{"private": true}' AND COALESCE(convert_from(t.meta, 'UTF8')::jsonb ->> 'daily', '') = '', false)`

// seatedAt is true when identity $N (not "") held a seat at the table
// of player_games row pg.
func seatedAt(n int) string {
	return fmt.Sprintf(`($%[1]d::text <> '' AND EXISTS (SELECT 1 FROM player_games v WHERE v.identity = $%[1]d AND v.table_id = pg.table_id))`, n)
}

// RatingHistory implements store.Players.
func (s *Store) RatingHistory(ctx context.Context, identity, pool string, limit int, viewer string) ([]store.RatingPoint, error) {
	rows, err := s.pool.Query(ctx, `SELECT pg.table_id, pg.ended, pg.rating, pg.rd, `+privateTable+` AND NOT `+seatedAt(4)+`
		FROM player_games pg LEFT JOIN tables t ON t.id = pg.table_id
		WHERE pg.identity = $1 AND pg.pool = $2 AND pg.rating IS NOT NULL ORDER BY pg.rated_games DESC LIMIT $3`, identity, pool, limit, viewer)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading rating history: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.RatingPoint, error) {
		var p store.RatingPoint
		err := row.Scan(&p.Table, &p.At, &p.Rating, &p.RD, &p.Hidden)
		p.At = utc(p.At)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading rating history: %w", err)
	}
	slices.Reverse(out)
	return out, nil
}

// History implements store.Players.
func (s *Store) History(ctx context.Context, p store.HistoryPage) ([]store.PlayerGame, error) {
	q := `SELECT pg.table_id, pg.seat, pg.game, pg.pool, COALESCE(pg.result, ''), pg.ended,
		COALESCE(pg.before_rating, 0), COALESCE(pg.rating, 0), COALESCE(pg.rd, 0), COALESCE(pg.refund, 0), t.meta
		FROM player_games pg JOIN tables t ON t.id = pg.table_id WHERE pg.identity = $1`
	args := []any{p.Identity}
	if p.Game != "" {
		args = append(args, p.Game)
		q += fmt.Sprintf(" AND pg.game = $%d", len(args))
	}
	if !p.Before.IsZero() {
		args = append(args, p.Before, p.BeforeTable)
		q += fmt.Sprintf(" AND (pg.ended < $%d OR (pg.ended = $%d AND pg.table_id < $%d))", len(args)-1, len(args)-1, len(args))
	}
	if p.Public {
		args = append(args, p.Viewer)
		q += " AND NOT (" + privateTable + " AND NOT " + seatedAt(len(args)) + ")"
	}
	args = append(args, p.Limit)
	q += fmt.Sprintf(" ORDER BY pg.ended DESC, pg.table_id DESC LIMIT $%d", len(args))
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading history: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.PlayerGame, error) {
		var g store.PlayerGame
		var result string
		err := row.Scan(&g.Table, &g.Seat, &g.Game, &g.Pool, &result, &g.Ended, &g.Before, &g.After, &g.RD, &g.Refund, &g.Meta)
		g.Result, g.Ended = store.Result(result), utc(g.Ended)
		return g, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading history: %w", err)
	}
	return out, nil
}

// FinishedGames implements store.Players.
func (s *Store) FinishedGames(ctx context.Context, identity string) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT COUNT(*) FROM player_games WHERE identity = $1", identity).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: counting games: %w", err)
	}
	return n, nil
}

// RatedTogether implements store.Players.
func (s *Store) RatedTogether(ctx context.Context, a, b string, since time.Time) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM player_games pa
		JOIN player_games pb ON pb.identity = $1 AND pb.table_id = pa.table_id
		WHERE pa.identity = $2 AND pa.ended >= $3 AND pa.pool <> '' AND COALESCE(pa.result, '') <> $4`,
		b, a, since, string(store.Aborted)).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: counting rated games together: %w", err)
	}
	return n, nil
}

// Leaderboard implements store.Players.
func (s *Store) Leaderboard(ctx context.Context, pool string, minGames int, maxRD float64, limit int, at time.Time) ([]store.Standing, error) {
	// The RD at the time at, squared, is glicko.System.Away's: the
	// stored RD² grown by σ² × (Scale² × DayPeriods a day) for each
	// second since the last game, no more than a newcomer's.
	grow := glicko.Scale * glicko.Scale * glicko.DayPeriods / (24 * 60 * 60)
	rows, err := s.pool.Query(ctx, `SELECT a.name, r.rating, r.rd, r.volatility, r.games, r.updated FROM ratings r
		JOIN accounts a ON a.identity = r.identity
		WHERE r.pool = $1 AND r.games >= $2 AND r.games > 0 AND a.hash <> $3
			AND LEAST($4::double precision, r.rd*r.rd + r.volatility*r.volatility*$5::double precision*
				GREATEST(0, EXTRACT(EPOCH FROM ($6::timestamptz - r.updated))::double precision)) < $7::double precision
		ORDER BY r.rating DESC, a.key LIMIT $8`, pool, minGames, store.ClosedHash,
		glicko.DefaultRD*glicko.DefaultRD, grow, at, maxRD*maxRD, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading leaderboard: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Standing, error) {
		var st store.Standing
		var r glicko.Rating
		var updated time.Time
		if err := row.Scan(&st.Name, &r.Value, &r.RD, &r.Volatility, &st.Games, &updated); err != nil {
			return st, err
		}
		r = glicko.System{}.Away(r, at.Sub(updated))
		st.Rating, st.RD = r.Value, r.RD
		return st, nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading leaderboard: %w", err)
	}
	return out, nil
}

var _ store.Players = (*Store)(nil)
