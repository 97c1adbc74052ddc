package table

import (
	"context"
	"math"
	"slices"
	"time"

	"parlour/glicko"
	"parlour/server/refuse"
	"parlour/store"
)

// maxLive is the most games in play the featured game is chosen among:
// the newest, as the lobby lists them.
const maxLive = 500

// ratingLookup bounds the store's answer about a rated table's players
// when the lobby first shows it: a lobby that waited on a slow store
// would stall every node that asks it.
const ratingLookup = 2 * time.Second

// Featured is the game the lobby features: the highest-rated game in
// play, or, when no rated game is, the most-watched one.
type Featured struct {
	// Table is the table as the lobby lists it, with its spectators and,
	// when rated, its rating.
	Table Info `json:"table"`
	// Rating is the mean rating of its players that featured a rated
	// game; absent when the game was featured for its spectators.
	Rating *float64 `json:"rating,omitempty"`
	// Spectators is how many follow it without a seat.
	Spectators int `json:"spectators"`
}

// NoLiveGame is the refusal of Featured when no public game is in play.
const NoLiveGame = "no game is being played just now"

// Feature returns the featured game among the public games in play on
// every node: the rated one whose players' mean rating is highest; when
// none is rated, the one with most spectators (the newest among equals).
func (s *Service) Feature(ctx context.Context) (Featured, error) {
	live, err := s.LobbyGame(ctx, store.Playing, "", maxLive)
	if err != nil {
		return Featured{}, err
	}
	best := -1
	for i, in := range live {
		if best < 0 || better(in, live[best]) {
			best = i
		}
	}
	if best < 0 {
		return Featured{}, refuse.NotFound(NoLiveGame)
	}
	f := Featured{Table: live[best], Rating: live[best].Rating}
	if n := live[best].Spectators; n != nil {
		f.Spectators = *n
	}
	return f, nil
}

// better reports whether a is a better game to feature than b, which
// comes before it in the lobby's order (newest first): a rated game
// beats a casual one, a higher rating a lower, and among casual games
// more spectators fewer.
func better(a, b Info) bool {
	switch {
	case a.Rating != nil && b.Rating == nil:
		return true
	case a.Rating == nil && b.Rating != nil:
		return false
	case a.Rating != nil:
		return *a.Rating > *b.Rating
	}
	return count(a.Spectators) > count(b.Spectators)
}

func count(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

// liveRow is a table the lobby lists, in memory (t) or parked (p), with
// its information as listed.
type liveRow struct {
	t  *table
	p  *parked
	in Info
}

// listed returns t's information as the lobby lists it: with its
// spectators, and the rating of a rated game in play once known. t.mu
// must be held.
func (t *table) listed() Info {
	in := t.info()
	n := int(t.spectators)
	in.Spectators = &n
	if t.rated {
		r := t.rating
		in.Rating = &r
	}
	return in
}

// rateLive sets the rating of the rated games of rows whose rating is
// not known yet, reading their players' ratings in the table's pool from
// the store: the ratings of a game in play change only when it ends, so
// each table asks once. A player new to the pool counts at the rating
// every newcomer starts at. A store that cannot answer leaves the rating
// out, to be asked again.
func (s *Service) rateLive(rows []liveRow) {
	ps, ok := s.st.(store.Players)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, ratingLookup)
	defer cancel()
	for i := range rows {
		r := &rows[i]
		if !r.in.Rated || r.in.Rating != nil {
			continue
		}
		pool, ids := r.rated()
		if len(ids) == 0 {
			continue
		}
		sum := 0.0
		for _, id := range ids {
			rs, err := ps.Ratings(ctx, id)
			if err != nil {
				s.log.Warn("reading a rated game's ratings for the lobby", "table", r.in.ID, "err", err)
				return
			}
			v := glicko.DefaultRating
			if j := slices.IndexFunc(rs, func(x store.Rating) bool { return x.Pool == pool }); j >= 0 {
				v = rs[j].Rating
			}
			sum += v
		}
		mean := math.Round(sum/float64(len(ids))*10) / 10
		if r.t != nil {
			r.t.mu.Lock()
			r.t.rating, r.t.rated = mean, true
			r.t.unlock()
		} else {
			s.mu.Lock()
			r.p.rating, r.p.rated = mean, true
			s.mu.Unlock()
		}
		r.in.Rating = &mean
	}
}

// rated returns the rating pool of the row's table and the identities of
// its players.
func (r liveRow) rated() (pool string, ids []string) {
	if r.t == nil {
		for _, id := range r.p.who {
			if id != "" {
				ids = append(ids, id)
			}
		}
		return r.p.in.Pool, ids
	}
	r.t.mu.Lock()
	defer r.t.unlock()
	for _, st := range r.t.m.Seats {
		if st.Identity != "" {
			ids = append(ids, st.Identity)
		}
	}
	return r.t.m.Pool, ids
}

// abandoned reports whether t is a game in play that everybody has left:
// it has no clock running (one would end it), and no person's seat has
// had a connection open or sent a request for longer than walkAway (the
// time after which an absent player's game may be claimed). Nobody will
// see a move there, so the lists of games to watch leave it out; it
// stays its players' to come back to. t.mu must be held.
func (t *table) abandoned(now time.Time, walkAway time.Duration) bool {
	if t.status != store.Playing || t.tc.on() {
		return false
	}
	t.here.size(len(t.m.Seats), now)
	people := 0
	for i, st := range t.m.Seats {
		if st.Identity == "" || st.Computer != "" {
			continue
		}
		people++
		if t.here.seats[i].here(now) || now.Sub(t.here.seats[i].seen) <= walkAway {
			return false
		}
	}
	return people > 0
}

// abandoned is table.abandoned for a parked table, which has no clock and
// no connection open.
func (p *parked) abandoned(now time.Time, walkAway time.Duration) bool {
	people := 0
	for i, id := range p.who {
		if id == "" || i >= len(p.seen) || i < len(p.in.Seats) && p.in.Seats[i].Kind != "person" {
			continue
		}
		people++
		if now.Sub(p.seen[i]) <= walkAway {
			return false
		}
	}
	return people > 0
}
