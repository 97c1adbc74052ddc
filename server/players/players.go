package players

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"parlour/account"
	"parlour/game"
	"parlour/glicko"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
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
	// Podiums are the latest events the player finished among the
	// winners of, the newest first.
	Podiums []Podium `json:"podiums,omitempty"`
	// Closed says a moderator closed the account: it keeps its games and
	// ratings but plays no more, and no leaderboard lists it.
	Closed bool `json:"closed,omitempty"`
}

// Podium is one event a player finished among its winners: its page is
// /tournaments/ID.
type Podium struct {
	Event string    `json:"event"`
	Name  string    `json:"name"`
	Game  string    `json:"game"`
	Kind  string    `json:"kind"`
	Place int       `json:"place"` // 1 for the winner
	Of    int       `json:"of"`    // players in the event
	At    time.Time `json:"at"`    // when it started
}

// MaxPodiums is how many of a player's podiums the profile shows.
const MaxPodiums = 20

// PoolRating is an account's standing in one pool. RD is the rating's
// deviation now: the one its last game left, grown by the time since.
type PoolRating struct {
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
	// Provisional is set while the RD is too high for leaderboards.
	Provisional bool `json:"provisional,omitempty"`
}

// RatingPoint is the rating after one rated game. Table is left out
// of a private table's point to any but its players.
type RatingPoint struct {
	Table  string    `json:"table,omitempty"`
	At     time.Time `json:"at"`
	Rating float64   `json:"rating"`
	RD     float64   `json:"rd"`
}

// AccountNamed returns the account called name, in any case, with the
// store's account side; a name nobody has is a refusal (not found).
func (s *Service) AccountNamed(ctx context.Context, name string) (store.Account, store.Players, error) {
	ps, err := s.players()
	if err != nil {
		return store.Account{}, nil, err
	}
	a, err := ps.AccountByKey(ctx, account.Key(name))
	if errors.Is(err, store.ErrNotFound) {
		return a, nil, refuse.NotFound("there is no player called %q", refuse.Clip(name))
	}
	return a, ps, err
}

// Profile returns the profile of the account called name, as p (nil for
// anyone) may see it.
func (s *Service) Profile(ctx context.Context, p *auth.Principal, name string) (_ Profile, err error) {
	defer s.reading("the player's profile", &err)
	a, ps, err := s.AccountNamed(ctx, name)
	if err != nil {
		return Profile{}, err
	}
	out := Profile{Name: a.Name, Created: a.Created, Ratings: map[string]PoolRating{}, History: map[string][]RatingPoint{},
		Closed: a.Hash == ClosedHash}
	rs, err := ps.Ratings(ctx, a.Identity)
	if err != nil {
		return Profile{}, err
	}
	now := s.tables.Now()
	for _, r := range rs {
		// The RD shown is the stored one grown by the time since the
		// pool's last game: a rating long unused is uncertain again.
		g := glicko.System{}.Away(glicko.Rating{Value: r.Rating, RD: r.RD, Volatility: r.Volatility}, now.Sub(r.Updated))
		out.Ratings[r.Pool] = PoolRating{Rating: round1(g.Value), RD: round1(g.RD), Games: r.Games,
			Provisional: glicko.Provisional(g)}
		pts, err := ps.RatingHistory(ctx, a.Identity, r.Pool, historyPoints, viewer(p))
		if err != nil {
			return Profile{}, err
		}
		line := make([]RatingPoint, len(pts))
		for i, pt := range pts {
			line[i] = RatingPoint{Table: pt.Table, At: pt.At, Rating: round1(pt.Rating), RD: round1(pt.RD)}
			if pt.Hidden {
				line[i].Table = ""
			}
		}
		out.History[r.Pool] = line
	}
	if out.Games, err = ps.FinishedGames(ctx, a.Identity); err != nil {
		return Profile{}, err
	}
	if ts, ok := s.st.(store.Tournaments); ok {
		placed, err := ts.TournamentsPlaced(ctx, a.Identity, MaxPodiums)
		if err != nil {
			return Profile{}, err
		}
		for _, t := range placed {
			out.Podiums = append(out.Podiums, Podium{Event: t.ID, Name: t.Name, Game: t.Game, Kind: t.Kind,
				Place: slices.Index(t.Winners, a.Identity) + 1, Of: t.Players, At: t.Starts})
		}
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
	// Refund is the points given back since for a game lost to a
	// player a moderator closed for cheating.
	Refund float64 `json:"refund,omitempty"`
	// Daily names the daily puzzle the game was an attempt at,
	// "quizl/2026-12-03"; absent for any other game.
	Daily string `json:"daily,omitempty"`
	// Event names the tournament that paired the game (its round in a
	// Swiss); absent for any other game. The event scores the game by
	// its own rules: an aborted one counts all the same.
	Event *game.Tournament `json:"event,omitempty"`
	// Record is the path of the game's record.
	Record string `json:"record"`
	// Forfeited says the server played for the player: "timeout", their
	// time ran out, or "claim", they were away and the game was claimed.
	Forfeited string `json:"forfeited,omitempty"`
}

// Opponent is another seat of a finished game.
type Opponent struct {
	Name string `json:"name"`
	// Kind is "account" (Name, the account's name now, leads to a
	// profile), "guest", "computer" or "deleted".
	Kind  string `json:"kind"`
	Level string `json:"level,omitempty"`
	// Forfeited is as PlayedGame's, for this seat.
	Forfeited string `json:"forfeited,omitempty"`
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
		return time.Time{}, "", refuse.Bad("before must be the next of a previous page, not %q", refuse.Clip(s))
	}
	return time.Unix(0, ns).UTC(), id, nil
}

// viewer returns the identity p speaks for whole, to be shown a private
// table's game when it sat at it; "" for nil (anyone) or a seat's token.
func viewer(p *auth.Principal) string {
	if p == nil || p.Table != "" {
		return ""
	}
	return p.Identity
}

// History returns a page of the finished games of the account called
// name, as p (nil for anyone) may see them: a private table's game only
// when p sat at it. Of gameName only, when not empty; after cursor
// before, when not empty.
func (s *Service) History(ctx context.Context, p *auth.Principal, name, gameName, before string, limit int) (_ History, err error) {
	defer s.reading("the player's games", &err)
	a, ps, err := s.AccountNamed(ctx, name)
	if err != nil {
		return History{}, err
	}
	page := store.HistoryPage{Identity: a.Identity, Limit: limit, Public: true, Viewer: viewer(p)}
	return s.historyOf(ctx, ps, page, a.Name, gameName, before)
}

// OwnHistory returns a page of the finished games of p's identity, a
// guest's as well as an account's, as History does an account's: a guest
// has no public history, but may read its own (the SSH door's guest,
// whose client keeps no list between sessions). The page's name is the
// account's, or empty for a guest.
func (s *Service) OwnHistory(ctx context.Context, p *auth.Principal, gameName, before string, limit int) (_ History, err error) {
	defer s.reading("your games", &err)
	ps, err := s.players()
	if err != nil {
		return History{}, err
	}
	name := ""
	if a, err := ps.AccountOf(ctx, p.Identity); err == nil {
		name = a.Name
	} else if !errors.Is(err, store.ErrNotFound) {
		return History{}, err
	}
	return s.historyOf(ctx, ps, store.HistoryPage{Identity: p.Identity, Limit: limit}, name, gameName, before)
}

// historyOf returns page of the finished games of page.Identity, whose
// account (if any) is called name: of gameName only, when not empty;
// after cursor before, when not empty.
func (s *Service) historyOf(ctx context.Context, ps store.Players, page store.HistoryPage, name, gameName, before string) (_ History, err error) {
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
	stored := make([]table.Stored, len(rows))
	var ids []string
	for i, g := range rows {
		if stored[i], err = table.StoredOf(g.Table, g.Meta); err != nil {
			return History{}, err
		}
		for _, st := range stored[i].Seats {
			if st.Identity != "" {
				ids = append(ids, st.Identity)
			}
		}
	}
	accounts, err := ps.AccountNames(ctx, ids)
	if err != nil {
		return History{}, err
	}
	out := History{Name: name, Games: []PlayedGame{}}
	for i, g := range rows {
		pg := PlayedGame{Table: g.Table, Game: g.Game, Ended: g.Ended, Seat: g.Seat, Result: string(g.Result),
			Opponents: []Opponent{}, Daily: stored[i].Daily, Event: stored[i].Event, Record: "/api/v1/tables/" + g.Table + "/record"}
		if g.Pool != "" {
			pg.Rated, pg.Pool, pg.Before, pg.After, pg.Refund = true, g.Pool, round1(g.Before), round1(g.After), round1(g.Refund)
		}
		if pg.Result == "" {
			// A game that ended before results were indexed: its
			// record says.
			if pg.Result, err = s.tables.ResultOf(ctx, g.Table, g.Seat); err != nil {
				return History{}, err
			}
		}
		for j, st := range stored[i].Seats {
			if j == g.Seat {
				pg.Forfeited = st.Forfeited
				continue
			}
			o := Opponent{Name: st.Name, Kind: "guest", Forfeited: st.Forfeited}
			switch {
			case st.Computer != "":
				o.Kind, o.Level = "computer", st.Computer
			case accounts[st.Identity] != "":
				// The account's name now, which its profile answers
				// to: a guest who signed up since sat under another.
				o.Name, o.Kind = accounts[st.Identity], "account"
			case strings.HasPrefix(st.Name, DeletedName):
				o.Kind = "deleted"
			}
			pg.Opponents = append(pg.Opponents, o)
		}
		out.Games = append(out.Games, pg)
	}
	if len(rows) == page.Limit {
		last := rows[len(rows)-1]
		out.Next = fmt.Sprintf("%d.%s", last.Ended.UnixNano(), last.Table)
	}
	return out, nil
}

// MyTables returns the tables under way where p's identity (a guest's or
// an account's) holds a seat: the "my games" of a home page. Clustered,
// the other nodes are asked for theirs; one that does not answer in time
// is left out (its tables come back at the next ask).
func (s *Service) MyTables(ctx context.Context, p *auth.Principal) []table.SeatedTable {
	out, _ := s.Seated(ctx, p.Identity)
	return out
}

// Leader is one line of a leaderboard.
type Leader struct {
	Rank   int     `json:"rank"`
	Name   string  `json:"name"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
}

// Leaderboard is a pool's best players: at least glicko.LeaderboardGames
// rated games and an RD below glicko.LeaderboardRD, as Lichess's, the RD
// grown by the time since each player's last game in the pool.
type Leaderboard struct {
	Pool    string   `json:"pool"`
	Players []Leader `json:"players"`
}

// Leaderboard returns pool's leaderboard.
func (s *Service) Leaderboard(ctx context.Context, pool string) (_ Leaderboard, err error) {
	defer s.reading("the leaderboard", &err)
	// Pools are named in lower case; a name typed as it is written
	// ("Quizl") means the same pool.
	if l := strings.ToLower(pool); slices.Contains(table.Pools(s.games), l) {
		pool = l
	}
	if !slices.Contains(table.Pools(s.games), pool) {
		return Leaderboard{}, refuse.NotFound("there is no rating pool %q (there are %s)", refuse.Clip(pool), strings.Join(table.Pools(s.games), ", "))
	}
	ps, err := s.players()
	if err != nil {
		return Leaderboard{}, err
	}
	rows, err := ps.Leaderboard(ctx, pool, glicko.LeaderboardGames, glicko.LeaderboardRD, LeaderboardSize, s.tables.Now())
	if err != nil {
		return Leaderboard{}, err
	}
	out := Leaderboard{Pool: pool, Players: []Leader{}}
	for i, r := range rows {
		out.Players = append(out.Players, Leader{Rank: i + 1, Name: r.Name, Rating: round1(r.Rating), RD: round1(r.RD), Games: r.Games})
	}
	return out, nil
}

// SearchSize is the most players Search lists, and its default.
const SearchSize = 20

// Found is a list of players a name being typed may mean.
type Found struct {
	Players []FoundPlayer `json:"players"`
}

// FoundPlayer is one player Search found: their account's name, as they
// spell it, the key to their profile (GET /api/v1/players/{name}).
type FoundPlayer struct {
	Name string `json:"name"`
}

// Search returns at most limit players whose account names begin with
// prefix, in any case, in the order of their names: a challenge or a
// profile asked for by a name half remembered. Guests have no name of
// their own to find, and a closed account is left out: nobody may play
// it. A prefix that no name could begin with is refused.
func (s *Service) Search(ctx context.Context, prefix string, limit int) (_ Found, err error) {
	defer s.reading("the players", &err)
	prefix = strings.TrimSpace(prefix)
	if err := account.CheckPrefix(prefix); err != nil {
		return Found{}, refuse.Bad("%s", err)
	}
	if limit < 1 || limit > SearchSize {
		return Found{}, refuse.Bad("limit must be a number from 1 to %d", SearchSize)
	}
	ps, err := s.players()
	if err != nil {
		return Found{}, err
	}
	as, err := ps.AccountsWithPrefix(ctx, account.Key(prefix), limit)
	if err != nil {
		return Found{}, err
	}
	out := Found{Players: []FoundPlayer{}}
	for _, a := range as {
		out.Players = append(out.Players, FoundPlayer{Name: a.Name})
	}
	return out, nil
}

// round1 rounds x to one decimal place, as ratings are shown.
func round1(x float64) float64 { return math.Round(x*10) / 10 }

// LeaderboardSize is how many players a leaderboard lists.
const LeaderboardSize = 50
