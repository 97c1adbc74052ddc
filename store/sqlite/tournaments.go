package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"parlour/store"
)

const tournamentCols = "id, kind, name, description, game, rules, clock, rated, starts, ends, minutes, rounds, seats, password_hash, min_rated_games, creator, status, round, winners, created, creator_name, max_players"

// WriteTournament implements store.Tournaments.
func (s *Store) WriteTournament(ctx context.Context, id string, w store.TournamentWrite) error {
	var winners []byte
	if t := w.Event; t != nil {
		var err error
		if winners, err = json.Marshal(nonNil(t.Winners)); err != nil {
			return fmt.Errorf("sqlite: event %s's winners: %w", id, err)
		}
	}
	games := make([][2][]byte, len(w.Games))
	for i, g := range w.Games {
		p, err := json.Marshal(nonNil(g.Players))
		if err != nil {
			return fmt.Errorf("sqlite: a game of event %s: %w", id, err)
		}
		games[i][0] = p
		if g.Points != nil {
			if games[i][1], err = json.Marshal(g.Points); err != nil {
				return fmt.Errorf("sqlite: a game of event %s: %w", id, err)
			}
		}
	}
	return s.do(ctx, func(ex *execer) error {
		if t := w.Event; t != nil {
			args := []any{id, t.Kind, t.Name, t.Description, t.Game, t.Rules, t.Clock, boolInt(t.Rated), nanos(t.Starts), zeroNanos(t.Ends),
				int64(t.Minutes), int64(t.Rounds), int64(t.Seats), t.PasswordHash, int64(t.MinRatedGames), t.Creator, string(t.Status), int64(t.Round), string(winners), nanos(t.Created), t.CreatorName, int64(t.MaxPlayers)}
			q := "INSERT INTO tournaments (" + tournamentCols + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
			if !w.Create {
				q = "UPDATE tournaments SET kind = ?2, name = ?3, description = ?4, game = ?5, rules = ?6, clock = ?7, rated = ?8, starts = ?9, ends = ?10, minutes = ?11, rounds = ?12, seats = ?13, password_hash = ?14, min_rated_games = ?15, creator = ?16, status = ?17, round = ?18, winners = ?19, creator_name = ?21, max_players = ?22 WHERE id = ?1 AND ?20 = ?20"
			}
			n, err := ex.exec(q, args...)
			switch {
			case w.Create && isConstraint(err):
				return fmt.Errorf("event %s: %w", id, store.ErrConflict)
			case err != nil:
				return fmt.Errorf("sqlite: storing event %s: %w", id, err)
			case n == 0:
				return fmt.Errorf("event %s: %w", id, store.ErrNotFound)
			}
		}
		for _, e := range w.Entrants {
			if _, err := ex.exec("INSERT OR REPLACE INTO tournament_entrants (tournament, identity, name, points, games, streak, forfeits, byes, left_event, rating, joined, guest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				id, e.Identity, e.Name, int64(e.Points), int64(e.Games), int64(e.Streak), int64(e.Forfeits), int64(e.Byes), boolInt(e.Left), e.Rating, nanos(e.Joined), boolInt(e.Guest)); err != nil {
				return fmt.Errorf("sqlite: storing a player of event %s: %w", id, err)
			}
		}
		if r := w.Round; r != nil {
			_, err := ex.exec("INSERT INTO tournament_rounds (tournament, number, pairing, started) VALUES (?, ?, ?, ?)", id, int64(r.Number), string(r.Pairing), nanos(r.Started))
			if isConstraint(err) {
				return fmt.Errorf("round %d of event %s: %w", r.Number, id, store.ErrConflict)
			}
			if err != nil {
				return fmt.Errorf("sqlite: storing round %d of event %s: %w", r.Number, id, err)
			}
		}
		for i, g := range w.Games {
			var points any
			if g.Points != nil {
				points = string(games[i][1])
			}
			if _, err := ex.exec("INSERT OR REPLACE INTO tournament_games (tournament, table_id, round, players, points, started, ended) VALUES (?, ?, ?, ?, ?, ?, ?)",
				id, g.Table, int64(g.Round), string(games[i][0]), points, nanos(g.Started), zeroNanos(g.Ended)); err != nil {
				return fmt.Errorf("sqlite: storing a game of event %s: %w", id, err)
			}
		}
		if w.Log != nil {
			return logAction(ex, *w.Log)
		}
		return nil
	})
}

// Tournament implements store.Tournaments.
func (s *Store) Tournament(ctx context.Context, id string) (store.Tournament, error) {
	ts, err := s.tournaments(ctx, "SELECT "+tournamentCols+", 0 FROM tournaments WHERE id = ?", id)
	if err != nil {
		return store.Tournament{}, err
	}
	if len(ts) == 0 {
		return store.Tournament{}, fmt.Errorf("event %s: %w", id, store.ErrNotFound)
	}
	if err := s.tournamentParts(ctx, &ts[0]); err != nil {
		return store.Tournament{}, err
	}
	return ts[0], nil
}

// ListTournaments implements store.Tournaments.
func (s *Store) ListTournaments(ctx context.Context, status store.TournamentStatus, limit int) ([]store.Tournament, error) {
	order := "starts, id"
	if status == store.TournamentFinished {
		order = "starts DESC, id"
	}
	ts, err := s.tournaments(ctx, "SELECT "+tournamentCols+", (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament = t.id AND (e.left_event = 0 OR e.games > 0 OR e.byes > 0)) FROM tournaments t WHERE status = ? ORDER BY "+order+" LIMIT ?", string(status), limit)
	if err != nil {
		return nil, err
	}
	return ts, s.winnerNames(ctx, ts)
}

// TournamentsPlaced implements store.Tournaments.
func (s *Store) TournamentsPlaced(ctx context.Context, identity string, limit int) ([]store.Tournament, error) {
	ts, err := s.tournaments(ctx, "SELECT "+tournamentCols+", (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament = t.id AND (e.left_event = 0 OR e.games > 0 OR e.byes > 0)) FROM tournaments t WHERE status = ? AND EXISTS (SELECT 1 FROM json_each(t.winners) w WHERE w.value = ?) ORDER BY starts DESC, id LIMIT ?", string(store.TournamentFinished), identity, limit)
	if err != nil {
		return nil, err
	}
	return ts, s.winnerNames(ctx, ts)
}

// winnerNames reads the names of each event's winners from its entrants.
func (s *Store) winnerNames(ctx context.Context, ts []store.Tournament) error {
	for i := range ts {
		t := &ts[i]
		if len(t.Winners) == 0 {
			continue
		}
		names := map[string]string{}
		rows, err := s.db.QueryContext(ctx, "SELECT e.identity, e.name FROM tournaments t, json_each(t.winners) w JOIN tournament_entrants e ON e.tournament = t.id AND e.identity = w.value WHERE t.id = ?", t.ID)
		if err != nil {
			return fmt.Errorf("sqlite: reading event %s's winners: %w", t.ID, err)
		}
		for rows.Next() {
			var id, name string
			if err := rows.Scan(&id, &name); err != nil {
				rows.Close()
				return fmt.Errorf("sqlite: reading event %s's winners: %w", t.ID, err)
			}
			names[id] = name
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("sqlite: reading event %s's winners: %w", t.ID, err)
		}
		for _, w := range t.Winners {
			t.WinnerNames = append(t.WinnerNames, names[w])
		}
	}
	return nil
}

// LiveTournaments implements store.Tournaments.
func (s *Store) LiveTournaments(ctx context.Context) ([]store.Tournament, error) {
	ts, err := s.tournaments(ctx, "SELECT "+tournamentCols+", 0 FROM tournaments WHERE status NOT IN (?, ?) ORDER BY starts, id", string(store.TournamentFinished), string(store.TournamentCancelled))
	if err != nil {
		return nil, err
	}
	for i := range ts {
		if err := s.tournamentParts(ctx, &ts[i]); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

// TournamentsCreated implements store.Tournaments.
func (s *Store) TournamentsCreated(ctx context.Context, creator string, since time.Time) (int, error) {
	var n int64
	if err := s.queryRow(ctx, "SELECT COUNT(*) FROM tournaments WHERE creator = ? AND created >= ? AND status != ?", creator, nanos(since), string(store.TournamentCancelled)).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: counting %s's events: %w", creator, err)
	}
	return int(n), nil
}

func (s *Store) tournaments(ctx context.Context, q string, args ...any) ([]store.Tournament, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading events: %w", err)
	}
	defer rows.Close()
	var out []store.Tournament
	for rows.Next() {
		var t store.Tournament
		var rated int64
		var starts, ends, created, minutes, rounds, seats, minRated, round, players, maxPlayers int64
		var status, winners string
		if err := rows.Scan(&t.ID, &t.Kind, &t.Name, &t.Description, &t.Game, &t.Rules, &t.Clock, &rated, &starts, &ends,
			&minutes, &rounds, &seats, &t.PasswordHash, &minRated, &t.Creator, &status, &round, &winners, &created, &t.CreatorName, &maxPlayers, &players); err != nil {
			return nil, fmt.Errorf("sqlite: reading events: %w", err)
		}
		t.Rated = rated != 0
		t.Starts, t.Created = fromNanos(starts), fromNanos(created)
		if ends != 0 {
			t.Ends = fromNanos(ends)
		}
		t.Minutes, t.Rounds, t.Seats, t.MinRatedGames, t.Round, t.Players, t.MaxPlayers = int(minutes), int(rounds), int(seats), int(minRated), int(round), int(players), int(maxPlayers)
		t.Status = store.TournamentStatus(status)
		if err := json.Unmarshal([]byte(winners), &t.Winners); err != nil {
			return nil, fmt.Errorf("sqlite: event %s's winners: %w", t.ID, err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// tournamentParts reads t's entrants, rounds and games into it.
func (s *Store) tournamentParts(ctx context.Context, t *store.Tournament) error {
	rows, err := s.db.QueryContext(ctx, "SELECT identity, name, points, games, streak, forfeits, byes, left_event, rating, joined, guest FROM tournament_entrants WHERE tournament = ? ORDER BY joined, identity", t.ID)
	if err != nil {
		return fmt.Errorf("sqlite: reading event %s's players: %w", t.ID, err)
	}
	for rows.Next() {
		var e store.Entrant
		var points, games, streak, forfeits, byes, left, joined, guest int64
		if err := rows.Scan(&e.Identity, &e.Name, &points, &games, &streak, &forfeits, &byes, &left, &e.Rating, &joined, &guest); err != nil {
			rows.Close()
			return fmt.Errorf("sqlite: reading event %s's players: %w", t.ID, err)
		}
		e.Points, e.Games, e.Streak, e.Forfeits, e.Byes, e.Left, e.Joined = int(points), int(games), int(streak), int(forfeits), int(byes), left != 0, fromNanos(joined)
		e.Guest = guest != 0
		t.Entrants = append(t.Entrants, e)
	}
	if err := closeRows(rows); err != nil {
		return fmt.Errorf("sqlite: reading event %s's players: %w", t.ID, err)
	}

	rows, err = s.db.QueryContext(ctx, "SELECT number, pairing, started FROM tournament_rounds WHERE tournament = ? ORDER BY number", t.ID)
	if err != nil {
		return fmt.Errorf("sqlite: reading event %s's rounds: %w", t.ID, err)
	}
	for rows.Next() {
		var r store.TournamentRound
		var number, started int64
		var pairing string
		if err := rows.Scan(&number, &pairing, &started); err != nil {
			rows.Close()
			return fmt.Errorf("sqlite: reading event %s's rounds: %w", t.ID, err)
		}
		r.Number, r.Pairing, r.Started = int(number), []byte(pairing), fromNanos(started)
		t.Pairings = append(t.Pairings, r)
	}
	if err := closeRows(rows); err != nil {
		return fmt.Errorf("sqlite: reading event %s's rounds: %w", t.ID, err)
	}

	rows, err = s.db.QueryContext(ctx, "SELECT table_id, round, players, points, started, ended FROM tournament_games WHERE tournament = ? ORDER BY started, table_id", t.ID)
	if err != nil {
		return fmt.Errorf("sqlite: reading event %s's games: %w", t.ID, err)
	}
	for rows.Next() {
		var g store.TournamentGame
		var round, started, ended int64
		var players string
		var points sql.NullString
		if err := rows.Scan(&g.Table, &round, &players, &points, &started, &ended); err != nil {
			rows.Close()
			return fmt.Errorf("sqlite: reading event %s's games: %w", t.ID, err)
		}
		g.Round, g.Started = int(round), fromNanos(started)
		if ended != 0 {
			g.Ended = fromNanos(ended)
		}
		err := json.Unmarshal([]byte(players), &g.Players)
		if err == nil && points.Valid {
			err = json.Unmarshal([]byte(points.String), &g.Points)
		}
		if err != nil {
			rows.Close()
			return fmt.Errorf("sqlite: reading event %s's games: %w", t.ID, err)
		}
		t.Games = append(t.Games, g)
	}
	if err := closeRows(rows); err != nil {
		return fmt.Errorf("sqlite: reading event %s's games: %w", t.ID, err)
	}
	return nil
}

// closeRows closes rows and returns the error that ended them, if any.
func closeRows(rows *sql.Rows) error {
	return errors.Join(rows.Err(), rows.Close())
}

// zeroNanos is t in nanoseconds, with the zero time as 0.
func zeroNanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return nanos(t)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// nonNil is s, or an empty slice for nil, so that it is stored as [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

var _ store.Tournaments = (*Store)(nil)

// renameInEvents gives identity the name name in the events it made or
// played in, inside the writer's transaction: an account a moderator
// renamed, or its owner deleted, leaves no event under its old name (the
// winners are kept by identity, and read their names from here).
func renameInEvents(ex *execer, identity, name string) error {
	if _, err := ex.exec("UPDATE tournament_entrants SET name = ? WHERE identity = ?", name, identity); err != nil {
		return fmt.Errorf("sqlite: renaming a player in the events: %w", err)
	}
	if _, err := ex.exec("UPDATE tournaments SET creator_name = ? WHERE creator = ?", name, identity); err != nil {
		return fmt.Errorf("sqlite: renaming a player in the events: %w", err)
	}
	return nil
}
