// What keeps a rated leaderboard from being farmed, beyond the aborting
// of games that end before each player has moved: a cap on the rated
// games two players play together in a day, and one on the rated games
// that new accounts from one address start. What remains (collusion
// between real accounts, sandbagging) is for moderation: docs/ratings.md.

package table

import (
	"context"
	"slices"
	"time"

	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// RatedPerPair is how many rated games two players may finish together in
// a day; the next is refused until the first of them is a day old.
// Friends who play all evening still play casual games.
const RatedPerPair = 10

// NewAccountAge and NewRatedPerAddr cap the rated games accounts younger
// than NewAccountAge start from one address: NewRatedPerAddr at once, then
// as many again over a day. Sock puppets cost nothing to make; one real
// newcomer starts a few rated games a day.
const (
	NewAccountAge   = 7 * 24 * time.Hour
	NewRatedPerAddr = 20
)

// pairCap refuses a rated game between identities a and b when they have
// played Config.RatedPerPair rated games together in the last day: those
// finished (aborted ones left out) and those still under way (under, from
// ratedUnderWay), so that tables opened side by side do not slip past it.
func (s *Service) pairCap(ctx context.Context, a, b string, under [][]string) error {
	limit := s.cfg.RatedPerPair
	if limit == 0 {
		limit = RatedPerPair
	}
	if limit < 0 {
		return nil
	}
	ps, err := s.Players()
	if err != nil {
		return nil // no accounts kept, so no rated games either
	}
	n, err := ps.RatedTogether(ctx, a, b, s.now().Add(-24*time.Hour))
	if err != nil {
		return s.readFailed("your rated games", err)
	}
	for _, seats := range under {
		if slices.Contains(seats, a) && slices.Contains(seats, b) {
			n++
		}
	}
	if n >= limit {
		return refuse.TooMany("you two have played %d rated games together in the last day: play casual games until the first of them is a day old", n)
	}
	return nil
}

// loaded returns the tables in memory, for a caller that takes their
// locks in turn once it has let go of s.mu, which it must hold to call
// loaded. A table's lock is never taken under s.mu: a table may hold its
// lock through a write to the disk, or through the computer's making of
// its rematch's hidden setup, and s.mu's writers would wait behind it;
// and a table inserting its rematch takes s.mu under its own lock, so
// that waiting for it under s.mu would never end.
func (s *Service) loaded() []*table {
	ts := make([]*table, 0, len(s.tables))
	for _, t := range s.tables {
		ts = append(ts, t)
	}
	return ts
}

// ratedUnderWay returns the identities seated at each rated table whose
// game is not finished, for pairCap. Every such table is in memory, or
// parked. It takes each table's lock in turn, never under s.mu (a table
// may hold its lock through a write to the disk, and s.mu's writers
// would wait behind it), so its caller must hold no table's lock.
func (s *Service) ratedUnderWay() [][]string {
	var out [][]string
	s.mu.RLock()
	ts := s.loaded()
	for _, p := range s.parked {
		if p.in.Rated {
			out = append(out, slices.Clone(p.who))
		}
	}
	s.mu.RUnlock()
	for _, t := range ts {
		t.mu.Lock()
		if t.m.Rated && t.status != store.Finished {
			ids := make([]string, len(t.m.Seats))
			for i, st := range t.m.Seats {
				ids[i] = st.Identity
			}
			out = append(out, ids)
		}
		t.unlock()
	}
	return out
}

// Start is how a player comes to a game, for RatedFor.
type Start int

const (
	ByJoin      Start = iota // joining a table, id the table's
	ByChallenge              // accepting a challenge, id the challenge's
	ByRematch                // asking for a finished table's rematch, id that table's
)

// RatedFor reports whether p starting a game by, at table or challenge
// id, would start a rated game, and whether p's account is younger than
// NewAccountAge; the doors count such starts per address. A rematch
// starts one when it makes the next table: a rated table's rematch is
// rated.
func (s *Service) RatedFor(ctx context.Context, p *auth.Principal, id string, by Start) (rated, young bool) {
	if p == nil {
		return false, false
	}
	if by == ByChallenge {
		cs, ok := s.st.(store.Challenges)
		if !ok {
			return false, false
		}
		c, err := cs.Challenge(ctx, id)
		if err != nil || !c.Rated {
			return false, false
		}
	} else {
		t, err := s.table(ctx, id)
		if err != nil {
			return false, false
		}
		t.mu.Lock()
		if by == ByRematch {
			rated = t.m.Rated && t.status == store.Finished && t.m.Rematch == "" && t.seatOf(p) >= 0
		} else {
			rated = t.m.Rated && !t.m.Started
		}
		t.unlock()
		if !rated {
			return false, false
		}
	}
	return true, s.Young(ctx, p)
}

// Young reports whether p's account is younger than NewAccountAge: the
// rated games such accounts start are counted per address.
func (s *Service) Young(ctx context.Context, p *auth.Principal) bool {
	if p == nil {
		return false
	}
	ps, err := s.Players()
	if err != nil {
		return false
	}
	a, err := ps.AccountOf(ctx, p.Identity)
	return err == nil && s.now().Sub(a.Created) < NewAccountAge
}
