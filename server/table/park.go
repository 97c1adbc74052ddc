package table

// Parking: a game in play that nobody uses leaves memory, as a finished
// one does, and what stays is only what the lists need. Anything else
// that asks for the table reads it back from its record (Service.table),
// which is how every table comes back after a restart; the seats' times
// of last presence, which the record does not keep, come back from what
// stayed, so that a player who walked away can still be claimed against
// on time.

import (
	"slices"
	"time"

	"parlour/store"
)

// DefaultParkAfter is how long a game in play goes unused before it
// leaves memory (Config.ParkAfter). Reading a table back costs about as
// much as a move or two, while a table in memory holds some 20 KB for as
// long as it stays: a minute keeps in memory every game whose players
// are moving, however slowly they think, and lets go of those left for
// later.
const DefaultParkAfter = time.Minute

// parked is what stays in memory of a table in play that left it: its
// information as the lists show it, who holds each seat, and when each
// seat's player was last here. It does not change while the table is
// away: anything that would change it brings the table back first.
type parked struct {
	in Info
	// who holds each seat's identity ("" for an open seat or a
	// computer).
	who []string
	// seen is when each seat's player was last at the table.
	seen []time.Time
	// rating is the mean rating of a rated table's players, once looked
	// up (rated says so).
	rating float64
	rated  bool
	// challenge names the challenge that opened the table, if any
	// (SeatedTable.Challenge).
	challenge string
}

// usedAt returns when t was last used: looked up, or played at. t.mu must
// be held.
func (t *table) usedAt() time.Time {
	if n := t.looked.Load(); n > t.lastUse.UnixNano() {
		return time.Unix(0, n)
	}
	return t.lastUse
}

// mayPark reports whether t is a game in play that may leave memory once
// unused: nobody follows it or waits at it, it has no clock to run, none
// of its computer seats is making a move (one whose turn it is always
// is), no write of it is in doubt, and this node runs every table (a
// node of a cluster keeps the tables whose lease it holds). A computer
// seat comes back as after a restart: a new player, from the seat's
// view. t.mu must be held.
func (s *Service) mayPark(t *table) bool {
	if s.cfg.ParkAfter < 0 || t.status != store.Playing || t.gone || t.doubt {
		return false
	}
	if _, single := s.place.(Here); !single {
		return false
	}
	return t.watchers == 0 && t.movers == 0 && len(t.held) == 0 && !t.tc.ticking() && !t.tc.on() &&
		!t.botWorking()
}

// park takes t out of memory, keeping what the lists need. s.mu and t.mu
// must be held, and t must be the table's copy in s.tables: the write
// lock on s.mu means no request is between looking t up and locking it
// but one that looked it up before t.looked says, which park's caller
// checked. A request that held t from before all the same finds it gone,
// and changes nothing.
func (s *Service) park(t *table) {
	p := &parked{in: t.info(), who: make([]string, len(t.m.Seats)), rating: t.rating, rated: t.rated, challenge: t.m.Challenge}
	// The stub keeps a set of its own: the table's may lie in the
	// allocation of its packed parts, which would otherwise stay too.
	p.in.Set = p.in.Set.Clone()
	for i, st := range t.m.Seats {
		p.who[i] = st.Identity
	}
	t.here.size(len(t.m.Seats), s.now())
	p.seen = t.here.seenAt()
	delete(s.tables, t.id)
	s.parked[t.id] = p
	t.gone = true
}

// unpark carries what stayed of table id while it was away to t, its
// copy read back from the record, and forgets it. s.mu must be held;
// t is not yet anybody else's.
func (s *Service) unpark(t *table) {
	p, ok := s.parked[t.id]
	if !ok {
		return
	}
	delete(s.parked, t.id)
	if len(p.seen) == len(t.m.Seats) {
		t.here.size(len(t.m.Seats), s.now())
		for i, at := range p.seen {
			t.here.seats[i].seen = at
		}
	}
	t.rating, t.rated = p.rating, p.rated
}

// seatedParked adds to out the parked tables where identity holds a seat.
// s.mu must be held.
func (s *Service) seatedParked(identity string, out []SeatedTable) []SeatedTable {
	if identity == "" {
		return out // nobody's: "" marks the seats no person holds
	}
	for _, p := range s.parked {
		if i := slices.Index(p.who, identity); i >= 0 {
			out = append(out, SeatedTable{Info: p.info(s.now()), Seat: i, Challenge: p.challenge})
		}
	}
	return out
}

// info returns the parked table's information at now, in slices of its
// own: as the table gave it when it left, but for the time left before
// an absent player's game may be claimed.
func (p *parked) info(now time.Time) Info {
	in := p.in
	in.Seats = slices.Clone(p.in.Seats)
	in.ToMove = slices.Clone(p.in.ToMove)
	for i := range in.Seats {
		if at := in.Seats[i].ClaimAt; at != nil {
			left := max(at.Sub(now), 0).Seconds()
			in.Seats[i].ClaimIn = &left
		}
	}
	return in
}

// listed returns the parked table's information at now as the lobby
// lists it (table.listed): nobody watches it.
func (p *parked) listed(now time.Time) Info {
	in := p.info(now)
	n := 0
	in.Spectators = &n
	if p.rated {
		r := p.rating
		in.Rating = &r
	}
	return in
}

// Parked reports how many games in play are out of memory here, waiting
// for somebody to use them.
func (s *Service) Parked() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.parked)
}
