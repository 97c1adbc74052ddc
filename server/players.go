package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"parlour/account"
	"parlour/glicko"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// historyPoints is how many of the latest rated games of each pool a
// profile charts.
const historyPoints = 200

// Profile is what anybody may know of an account: its ratings and their
// history, pool by pool, and how many games it has finished.
type Profile struct {
	Name    string                `json:"name"`
	Created time.Time             `json:"created"`
	Ratings map[string]PoolRating `json:"ratings"`
	// History holds, by pool, the rating after each of the latest rated
	// games, oldest first: the points of a rating chart.
	History map[string][]RatingPoint `json:"history"`
	Games   int                      `json:"games"`
}

// PoolRating is an account's standing in one pool.
type PoolRating struct {
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
	// Provisional is set while the RD is too high for leaderboards.
	Provisional bool `json:"provisional,omitempty"`
}

// RatingPoint is the rating after one rated game.
type RatingPoint struct {
	Table  string    `json:"table"`
	At     time.Time `json:"at"`
	Rating float64   `json:"rating"`
	RD     float64   `json:"rd"`
}

// accountNamed returns the account called name, in any case.
func (s *Service) accountNamed(ctx context.Context, name string) (store.Account, store.Players, error) {
	ps, err := s.players()
	if err != nil {
		return store.Account{}, nil, err
	}
	a, err := ps.AccountByKey(ctx, account.Key(name))
	if errors.Is(err, store.ErrNotFound) {
		return a, nil, refuse.NotFound("there is no player called %q", clip(name))
	}
	return a, ps, err
}

// Profile returns the profile of the account called name.
func (s *Service) Profile(ctx context.Context, name string) (_ Profile, err error) {
	defer s.reading("the player's profile", &err)
	a, ps, err := s.accountNamed(ctx, name)
	if err != nil {
		return Profile{}, err
	}
	out := Profile{Name: a.Name, Created: a.Created, Ratings: map[string]PoolRating{}, History: map[string][]RatingPoint{}}
	rs, err := ps.Ratings(ctx, a.Identity)
	if err != nil {
		return Profile{}, err
	}
	for _, r := range rs {
		out.Ratings[r.Pool] = PoolRating{Rating: round1(r.Rating), RD: round1(r.RD), Games: r.Games,
			Provisional: glicko.Provisional(glicko.Rating{Value: r.Rating, RD: r.RD, Volatility: r.Volatility})}
		pts, err := ps.RatingHistory(ctx, a.Identity, r.Pool, historyPoints)
		if err != nil {
			return Profile{}, err
		}
		line := make([]RatingPoint, len(pts))
		for i, p := range pts {
			line[i] = RatingPoint{Table: p.Table, At: p.At, Rating: round1(p.Rating), RD: round1(p.RD)}
		}
		out.History[r.Pool] = line
	}
	if out.Games, err = ps.FinishedGames(ctx, a.Identity); err != nil {
		return Profile{}, err
	}
	return out, nil
}

// HistoryPageSize is how many games a page of a player's history holds
// at most, and DefaultHistoryPage how many when the asker does not say.
const (
	HistoryPageSize    = 100
	DefaultHistoryPage = 20
)

// PlayedGame is one finished game in a player's history.
type PlayedGame struct {
	Table string    `json:"table"`
	Game  string    `json:"game"`
	Ended time.Time `json:"ended"`
	Seat  int       `json:"seat"`
	// Result is "win", "loss", "draw" or "aborted" (the game ended
	// without a result before every player had moved).
	Result    string     `json:"result"`
	Opponents []Opponent `json:"opponents"`
	// Rated games name their pool and the player's rating change.
	Rated  bool    `json:"rated,omitempty"`
	Pool   string  `json:"pool,omitempty"`
	Before float64 `json:"rating_before,omitempty"`
	After  float64 `json:"rating_after,omitempty"`
	// Record is the path of the game's record.
	Record string `json:"record"`
}

// Opponent is another seat of a finished game.
type Opponent struct {
	Name string `json:"name"`
	// Kind is "account" (Name leads to a profile), "guest", "computer"
	// or "deleted".
	Kind  string `json:"kind"`
	Level string `json:"level,omitempty"`
}

// History is a page of a player's finished games, newest first. Next,
// when set, is the before= that asks for the following page.
type History struct {
	Name  string       `json:"name"`
	Games []PlayedGame `json:"games"`
	Next  string       `json:"next,omitempty"`
}

// parseBefore reads a history cursor: "NANOS.TABLE", as Next gives it.
func parseBefore(s string) (time.Time, string, error) {
	n, id, ok := strings.Cut(s, ".")
	ns, err := strconv.ParseInt(n, 10, 64)
	if !ok || err != nil || ns <= 0 || !auth.ValidID(id) {
		return time.Time{}, "", refuse.Bad("before must be the next of a previous page, not %q", clip(s))
	}
	return time.Unix(0, ns).UTC(), id, nil
}

// History returns a page of the finished games of the account called
// name: of gameName only, when not empty; after cursor before, when not
// empty.
func (s *Service) History(ctx context.Context, name, gameName, before string, limit int) (_ History, err error) {
	defer s.reading("the player's games", &err)
	a, ps, err := s.accountNamed(ctx, name)
	if err != nil {
		return History{}, err
	}
	page := store.HistoryPage{Identity: a.Identity, Limit: limit}
	if gameName != "" {
		g, err := s.games.Lookup(strings.ToLower(gameName))
		if err != nil {
			return History{}, refuse.Bad("%v", err)
		}
		page.Game = g.Name()
	}
	if before != "" {
		if page.Before, page.BeforeTable, err = parseBefore(before); err != nil {
			return History{}, err
		}
	}
	rows, err := ps.History(ctx, page)
	if err != nil {
		return History{}, err
	}
	metas := make([]meta, len(rows))
	var ids []string
	for i, g := range rows {
		if err := json.Unmarshal(g.Meta, &metas[i]); err != nil {
			return History{}, fmt.Errorf("table %s: reading description: %w", g.Table, err)
		}
		for _, st := range metas[i].Seats {
			if st.Identity != "" {
				ids = append(ids, st.Identity)
			}
		}
	}
	accounts, err := ps.AccountNames(ctx, ids)
	if err != nil {
		return History{}, err
	}
	out := History{Name: a.Name, Games: []PlayedGame{}}
	for i, g := range rows {
		pg := PlayedGame{Table: g.Table, Game: g.Game, Ended: g.Ended, Seat: g.Seat, Result: string(g.Result),
			Opponents: []Opponent{}, Record: "/api/v1/tables/" + g.Table + "/record"}
		if g.Pool != "" {
			pg.Rated, pg.Pool, pg.Before, pg.After = true, g.Pool, round1(g.Before), round1(g.After)
		}
		if pg.Result == "" {
			// A game that ended before results were indexed: its
			// record says.
			if pg.Result, err = s.resultOf(ctx, g.Table, g.Seat); err != nil {
				return History{}, err
			}
		}
		for j, st := range metas[i].Seats {
			if j == g.Seat {
				continue
			}
			o := Opponent{Name: st.Name, Kind: "guest"}
			switch {
			case st.Computer != "":
				o.Kind, o.Level = "computer", st.Computer
			case accounts[st.Identity] != "":
				o.Kind = "account"
			case strings.HasPrefix(st.Name, DeletedName):
				o.Kind = "deleted"
			}
			pg.Opponents = append(pg.Opponents, o)
		}
		out.Games = append(out.Games, pg)
	}
	if len(rows) == limit {
		last := rows[len(rows)-1]
		out.Next = fmt.Sprintf("%d.%s", last.Ended.UnixNano(), last.Table)
	}
	return out, nil
}

// resultOf reads seat's result at finished table id from its record.
func (s *Service) resultOf(ctx context.Context, id string, seat int) (string, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return "", err
	}
	t.mu.Lock()
	defer t.unlock()
	if t.st == nil || !t.st.Result().Status.Over() {
		return "", fmt.Errorf("table %s is in a history but not finished", id)
	}
	for _, e := range t.gameEnd(time.Time{}).Seats {
		if e.Seat == seat {
			return string(e.Result), nil
		}
	}
	return "", fmt.Errorf("table %s has no person at seat %d", id, seat)
}

// SeatedTable is a table under way where the asker holds a seat.
type SeatedTable struct {
	TableInfo
	// Seat is the asker's seat at it.
	Seat int `json:"seat"`
}

// seatedAt returns the tables under way where identity holds a seat,
// newest first. Every table under way is in memory.
func (s *Service) seatedAt(identity string) []SeatedTable {
	out := []SeatedTable{}
	p := &auth.Principal{Identity: identity}
	s.mu.RLock()
	for _, t := range s.tables {
		t.mu.Lock()
		if seat := t.seatOf(p); seat >= 0 && t.status != store.Finished {
			out = append(out, SeatedTable{TableInfo: t.info(), Seat: int(seat)})
		}
		t.unlock()
	}
	s.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out
}

// MyTables returns the tables under way where p's identity (a guest's or
// an account's) holds a seat: the "my games" of a home page. Clustered,
// the other nodes are asked for theirs; one that does not answer in time
// is left out (its tables come back at the next ask).
func (s *Service) MyTables(ctx context.Context, p *auth.Principal) []SeatedTable {
	out, _ := s.seated(ctx, p.Identity)
	return out
}
