package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

const tournamentColumns = "id, kind, name, description, game, rules, clock, rated, starts, ends, minutes, rounds, seats, password_hash, min_rated_games, creator, status, round, winners, created, creator_name, max_players"

// WriteTournament implements store.Tournaments.
func (s *Store) WriteTournament(ctx context.Context, id string, w store.TournamentWrite) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if err := fence(ctx, tx, store.TournamentLease+id, w.Epoch); err != nil {
			return err
		}
		if t := w.Event; t != nil {
			winners, err := json.Marshal(orEmpty(t.Winners))
			if err != nil {
				return fmt.Errorf("postgres: event %s's winners: %w", id, err)
			}
			var ends *time.Time
			if !t.Ends.IsZero() {
				ends = &t.Ends
			}
			args := []any{id, t.Kind, t.Name, t.Description, t.Game, t.Rules, t.Clock, t.Rated, t.Starts, ends,
				t.Minutes, t.Rounds, t.Seats, t.PasswordHash, t.MinRatedGames, t.Creator, string(t.Status), t.Round, string(winners), t.Created, t.CreatorName, t.MaxPlayers}
			q := "INSERT INTO tournaments (" + tournamentColumns + ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)"
			if !w.Create {
				q = "UPDATE tournaments SET kind = $2, name = $3, description = $4, game = $5, rules = $6, clock = $7, rated = $8, starts = $9, ends = $10, minutes = $11, rounds = $12, seats = $13, password_hash = $14, min_rated_games = $15, creator = $16, status = $17, round = $18, winners = $19, creator_name = $21, max_players = $22 WHERE id = $1 AND $20::timestamptz IS NOT NULL"
			}
			tag, err := tx.Exec(ctx, q, args...)
			switch {
			case w.Create && isConstraint(err):
				return fmt.Errorf("event %s: %w", id, store.ErrConflict)
			case err != nil:
				return fmt.Errorf("postgres: storing event %s: %w", id, err)
			case tag.RowsAffected() == 0:
				return fmt.Errorf("event %s: %w", id, store.ErrNotFound)
			}
		}
		for _, e := range w.Entrants {
			if _, err := tx.Exec(ctx, "INSERT INTO tournament_entrants (tournament, identity, name, points, games, streak, forfeits, byes, left_event, rating, joined, guest) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) "+
				"ON CONFLICT (tournament, identity) DO UPDATE SET name = EXCLUDED.name, points = EXCLUDED.points, games = EXCLUDED.games, streak = EXCLUDED.streak, forfeits = EXCLUDED.forfeits, byes = EXCLUDED.byes, left_event = EXCLUDED.left_event, rating = EXCLUDED.rating, joined = EXCLUDED.joined, guest = EXCLUDED.guest",
				id, e.Identity, e.Name, e.Points, e.Games, e.Streak, e.Forfeits, e.Byes, e.Left, e.Rating, e.Joined, e.Guest); err != nil {
				return fmt.Errorf("postgres: storing a player of event %s: %w", id, err)
			}
		}
		if r := w.Round; r != nil {
			_, err := tx.Exec(ctx, "INSERT INTO tournament_rounds (tournament, number, pairing, started) VALUES ($1, $2, $3, $4)", id, r.Number, string(r.Pairing), r.Started)
			if isConstraint(err) {
				return fmt.Errorf("round %d of event %s: %w", r.Number, id, store.ErrConflict)
			}
			if err != nil {
				return fmt.Errorf("postgres: storing round %d of event %s: %w", r.Number, id, err)
			}
		}
		for _, g := range w.Games {
			players, err := json.Marshal(orEmpty(g.Players))
			if err != nil {
				return fmt.Errorf("postgres: a game of event %s: %w", id, err)
			}
			var points *string
			if g.Points != nil {
				b, err := json.Marshal(g.Points)
				if err != nil {
					return fmt.Errorf("postgres: a game of event %s: %w", id, err)
				}
				p := string(b)
				points = &p
			}
			var ended *time.Time
			if !g.Ended.IsZero() {
				ended = &g.Ended
			}
			if _, err := tx.Exec(ctx, "INSERT INTO tournament_games (tournament, table_id, round, players, points, started, ended) VALUES ($1, $2, $3, $4, $5, $6, $7) "+
				"ON CONFLICT (tournament, table_id) DO UPDATE SET round = EXCLUDED.round, players = EXCLUDED.players, points = EXCLUDED.points, started = EXCLUDED.started, ended = EXCLUDED.ended",
				id, g.Table, g.Round, string(players), points, g.Started, ended); err != nil {
				return fmt.Errorf("postgres: storing a game of event %s: %w", id, err)
			}
		}
		if w.Log != nil {
			return logAction(ctx, tx, *w.Log)
		}
		return nil
	})
}

// Tournament implements store.Tournaments.
func (s *Store) Tournament(ctx context.Context, id string) (store.Tournament, error) {
	ts, err := s.tournaments(ctx, "SELECT "+tournamentColumns+", 0 FROM tournaments WHERE id = $1", id)
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
	ts, err := s.tournaments(ctx, "SELECT "+tournamentColumns+", (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament = t.id AND (NOT e.left_event OR e.games > 0 OR e.byes > 0)) FROM tournaments t WHERE status = $1 ORDER BY "+order+" LIMIT $2", string(status), limit)
	if err != nil {
		return nil, err
	}
	return ts, s.winnerNames(ctx, ts)
}

// TournamentsPlaced implements store.Tournaments.
func (s *Store) TournamentsPlaced(ctx context.Context, identity string, limit int) ([]store.Tournament, error) {
	ts, err := s.tournaments(ctx, "SELECT "+tournamentColumns+", (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament = t.id AND (NOT e.left_event OR e.games > 0 OR e.byes > 0)) FROM tournaments t WHERE status = $1 AND jsonb_exists(t.winners::jsonb, $2) ORDER BY starts DESC, id LIMIT $3", string(store.TournamentFinished), identity, limit)
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
		rows, err := s.pool.Query(ctx, "SELECT identity, name FROM tournament_entrants WHERE tournament = $1 AND identity = ANY($2)", t.ID, t.Winners)
		if err != nil {
			return fmt.Errorf("postgres: reading event %s's winners: %w", t.ID, err)
		}
		names := map[string]string{}
		var id, name string
		if _, err := pgx.ForEachRow(rows, []any{&id, &name}, func() error {
			names[id] = name
			return nil
		}); err != nil {
			return fmt.Errorf("postgres: reading event %s's winners: %w", t.ID, err)
		}
		for _, w := range t.Winners {
			t.WinnerNames = append(t.WinnerNames, names[w])
		}
	}
	return nil
}

// LiveTournaments implements store.Tournaments.
func (s *Store) LiveTournaments(ctx context.Context) ([]store.Tournament, error) {
	ts, err := s.tournaments(ctx, "SELECT "+tournamentColumns+", 0 FROM tournaments WHERE status NOT IN ($1, $2) ORDER BY starts, id", string(store.TournamentFinished), string(store.TournamentCancelled))
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
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT COUNT(*) FROM tournaments WHERE creator = $1 AND created >= $2 AND status <> $3", creator, since, string(store.TournamentCancelled)).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: counting %s's events: %w", creator, err)
	}
	return n, nil
}

func (s *Store) tournaments(ctx context.Context, q string, args ...any) ([]store.Tournament, error) {
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading events: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Tournament, error) {
		var t store.Tournament
		var ends *time.Time
		var status, winners string
		var players int64
		if err := row.Scan(&t.ID, &t.Kind, &t.Name, &t.Description, &t.Game, &t.Rules, &t.Clock, &t.Rated, &t.Starts, &ends,
			&t.Minutes, &t.Rounds, &t.Seats, &t.PasswordHash, &t.MinRatedGames, &t.Creator, &status, &t.Round, &winners, &t.Created, &t.CreatorName, &t.MaxPlayers, &players); err != nil {
			return t, err
		}
		t.Starts, t.Created = utc(t.Starts), utc(t.Created)
		if ends != nil {
			t.Ends = utc(*ends)
		}
		t.Status, t.Players = store.TournamentStatus(status), int(players)
		return t, json.Unmarshal([]byte(winners), &t.Winners)
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading events: %w", err)
	}
	return out, nil
}

// tournamentParts reads t's entrants, rounds and games into it.
func (s *Store) tournamentParts(ctx context.Context, t *store.Tournament) error {
	rows, err := s.pool.Query(ctx, "SELECT identity, name, points, games, streak, forfeits, byes, left_event, rating, joined, guest FROM tournament_entrants WHERE tournament = $1 ORDER BY joined, identity", t.ID)
	if err == nil {
		t.Entrants, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Entrant, error) {
			var e store.Entrant
			err := row.Scan(&e.Identity, &e.Name, &e.Points, &e.Games, &e.Streak, &e.Forfeits, &e.Byes, &e.Left, &e.Rating, &e.Joined, &e.Guest)
			e.Joined = utc(e.Joined)
			return e, err
		})
	}
	if err != nil {
		return fmt.Errorf("postgres: reading event %s's players: %w", t.ID, err)
	}
	rows, err = s.pool.Query(ctx, "SELECT number, pairing, started FROM tournament_rounds WHERE tournament = $1 ORDER BY number", t.ID)
	if err == nil {
		t.Pairings, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.TournamentRound, error) {
			var r store.TournamentRound
			var pairing string
			err := row.Scan(&r.Number, &pairing, &r.Started)
			r.Pairing, r.Started = []byte(pairing), utc(r.Started)
			return r, err
		})
	}
	if err != nil {
		return fmt.Errorf("postgres: reading event %s's rounds: %w", t.ID, err)
	}
	rows, err = s.pool.Query(ctx, "SELECT table_id, round, players, points, started, ended FROM tournament_games WHERE tournament = $1 ORDER BY started, table_id", t.ID)
	if err == nil {
		t.Games, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.TournamentGame, error) {
			var g store.TournamentGame
			var players string
			var points *string
			var ended *time.Time
			if err := row.Scan(&g.Table, &g.Round, &players, &points, &g.Started, &ended); err != nil {
				return g, err
			}
			g.Started = utc(g.Started)
			if ended != nil {
				g.Ended = utc(*ended)
			}
			if err := json.Unmarshal([]byte(players), &g.Players); err != nil {
				return g, err
			}
			if points != nil {
				return g, json.Unmarshal([]byte(*points), &g.Points)
			}
			return g, nil
		})
	}
	if err != nil {
		return fmt.Errorf("postgres: reading event %s's games: %w", t.ID, err)
	}
	return nil
}

// orEmpty is s, or an empty slice for nil, so that it is stored as [].
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

var _ store.Tournaments = (*Store)(nil)

// renameInEvents gives identity the name name in the events it made or
// played in, inside tx: an account a moderator renamed, or its owner
// deleted, leaves no event under its old name (the winners are kept by
// identity, and read their names from here).
func renameInEvents(ctx context.Context, tx pgx.Tx, identity, name string) error {
	if _, err := tx.Exec(ctx, "UPDATE tournament_entrants SET name = $1 WHERE identity = $2", name, identity); err != nil {
		return fmt.Errorf("postgres: renaming a player in the events: %w", err)
	}
	if _, err := tx.Exec(ctx, "UPDATE tournaments SET creator_name = $1 WHERE creator = $2", name, identity); err != nil {
		return fmt.Errorf("postgres: renaming a player in the events: %w", err)
	}
	return nil
}
