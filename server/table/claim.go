package table

import (
	"context"
	"fmt"
	"strings"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// DefaultWalkAway is how long the player to move at a table without a
// clock must have been away (no WebSocket, no event stream, no request)
// before the others may claim the game (Config.WalkAway).
const DefaultWalkAway = 5 * time.Minute

// attendance is who is at a table: for each seat, the WebSockets and event
// streams open for it, and when it was last seen (its last request, or
// when its last connection closed).
type attendance struct {
	seats []presence
	// gen counts the times a seat's player came or went while the game
	// is played: a watcher sent an update at an older gen is sent one
	// more, so that the others see at once who is connected.
	gen int
}

// presence is one seat's attendance: its connections open, and when it
// was last seen.
type presence struct {
	seen time.Time
	open int
	// remote holds the seat's watchers on other nodes of a cluster, each
	// with the time until which its node last vouched for it (Attend).
	remote map[string]time.Time
}

// here reports whether the seat has a connection open: on this node, or
// on another that has said so lately. A watcher whose vouching ran out
// (its node died, or lost touch) is forgotten.
func (p *presence) here(now time.Time) bool {
	if p.open > 0 {
		return true
	}
	for id, until := range p.remote {
		if now.Before(until) {
			return true
		}
		delete(p.remote, id)
	}
	return false
}

// size makes sure p has room for n seats, each new one seen at now, in
// one allocation of the size asked: a table keeps it as long as it lives.
func (p *attendance) size(n int, now time.Time) {
	if len(p.seats) >= n {
		return
	}
	s := make([]presence, n)
	copy(s, p.seats)
	for i := len(p.seats); i < n; i++ {
		s[i].seen = now
	}
	p.seats = s
}

// seenAt returns when each seat was last seen.
func (p *attendance) seenAt() []time.Time {
	at := make([]time.Time, len(p.seats))
	for i, s := range p.seats {
		at[i] = s.seen
	}
	return at
}

// touch notes a request from seat at now. t.mu must be held.
func (t *table) touch(seat game.Seat, now time.Time) {
	if seat < 0 {
		return
	}
	t.here.size(len(t.m.Seats), now)
	t.here.seats[seat].seen = now
}

// arrive and leave count seat's open connections. t.mu must be held.
func (t *table) arrive(seat game.Seat, now time.Time) {
	if seat < 0 {
		return
	}
	t.touch(seat, now)
	p := &t.here.seats[seat]
	was := p.here(now)
	p.open++
	if !was {
		t.attendanceChanged()
	}
}

func (t *table) leave(seat game.Seat, now time.Time) {
	if seat < 0 || int(seat) >= len(t.here.seats) {
		return
	}
	p := &t.here.seats[seat]
	p.open--
	p.seen = now
	if !p.here(now) {
		t.attendanceChanged()
	}
}

// attend notes that watcher, on another node, follows the table for seat
// until until, or, with until zero, no longer. t.mu must be held.
func (t *table) attend(seat game.Seat, watcher string, until, now time.Time) {
	if seat < 0 {
		return
	}
	t.touch(seat, now)
	p := &t.here.seats[seat]
	was := p.here(now)
	if until.IsZero() {
		delete(p.remote, watcher)
	} else {
		if p.remote == nil {
			p.remote = map[string]time.Time{}
		}
		p.remote[watcher] = until
	}
	if p.here(now) != was {
		t.attendanceChanged()
	}
}

// attendanceChanged tells the watchers that a seat's player has come or
// gone, while the game is played (before, nobody waits on anybody; after,
// nobody can). t.mu must be held.
func (t *table) attendanceChanged() {
	if !t.m.Started || !t.status.Live() {
		return
	}
	t.here.gen++
	t.broadcast()
}

// awayFor reports how long seat has been away at now: 0 while it has a
// connection open. t.mu must be held.
func (t *table) awayFor(seat int, now time.Time) time.Duration {
	t.here.size(len(t.m.Seats), now)
	if t.here.seats[seat].here(now) {
		return 0
	}
	return max(now.Sub(t.here.seats[seat].seen), 0)
}

// ClaimResult answers a claim: the table after the moves the server
// played for the absent players, the events they revealed to the
// claimer, and who was claimed against.
type ClaimResult struct {
	MoveResult
	Claimed []game.Seat `json:"claimed"`
}

// Claim lets a player at a table without a clock end the wait for a
// player to move who has been away for the walk-away time: the server
// plays resign for every such player, with a "claim" event saying why.
// It is refused (409, saying why) at a table with a clock, before play
// or after the end, when nobody to move has been away long enough, or
// when the asker alone is to move.
func (s *Service) Claim(ctx context.Context, p *auth.Principal, id string) (ClaimResult, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return ClaimResult{}, err
	}
	t.mu.Lock()
	seat := t.seatOf(p)
	now := s.now()
	t.touch(seat, now)
	var absent []forfeit
	var why []string
	switch {
	case seat < 0:
		err = refuse.Forbidden("only a player at this table may claim the game")
	case !t.m.Started:
		err = refuse.Conflict("the game has not started: %s", t.waitingFor(seat))
	case t.status == store.Finished:
		err = t.overRefusal()
	case t.tc.on():
		err = refuse.Conflict("this table has a clock of %s: when a player's time runs out the server plays for them, so there is nothing to claim", t.tc.String())
	default:
		toMove := t.st.ToMove()
		for _, w := range toMove {
			if w == seat || t.m.Seats[w].Computer != "" {
				continue
			}
			away := t.awayFor(int(w), now)
			name := t.cfg.Name(w)
			switch {
			case t.here.seats[w].here(now):
				why = append(why, name+" is here")
			case away >= s.cfg.WalkAway:
				absent = append(absent, forfeit{Seat: int(w), Why: forfeitClaim, By: int(seat), Away: int(away / time.Second)})
			default:
				why = append(why, fmt.Sprintf("%s has been away for %s; you may claim once %s has been away %s, in %s", name, game.Span(away), name, game.Span(s.cfg.WalkAway), game.Span(s.cfg.WalkAway-away)))
			}
		}
		if len(absent) == 0 {
			if len(why) == 0 {
				err = refuse.Conflict("it is your turn: nobody is keeping you waiting")
			} else {
				err = refuse.Conflict("you cannot claim the game yet: %s", strings.Join(why, "; "))
			}
		}
	}
	version := t.version()
	t.unlock()
	if err != nil {
		return ClaimResult{}, err
	}
	var out ClaimResult
	out.Claimed = []game.Seat{}
	for _, f := range absent {
		res, err := s.play(ctx, t, game.Seat(f.Seat), "resign", &version, &f)
		if err != nil {
			if len(out.Claimed) == 0 {
				return ClaimResult{}, err
			}
			break
		}
		// The claimer sees the events of the moves played for the others.
		t.mu.Lock()
		evs := []game.Event{}
		switch {
		case len(res.Events) == 1 && res.Events[0].Kind == "abort":
			evs = res.Events // public: the game was aborted instead
		case len(t.recent) > 0 && t.recent[len(t.recent)-1].version == res.Version:
			evs = t.visible(t.recent[len(t.recent)-1].events, seat)
		}
		t.unlock()
		out.Events = append(out.Events, evs...)
		out.Claimed = append(out.Claimed, game.Seat(f.Seat))
		version = res.Version
		out.Version, out.Status, out.ToMove = res.Version, res.Status, res.ToMove
		if res.Status == store.Finished {
			break
		}
	}
	if out.Events == nil {
		out.Events = []game.Event{}
	}
	if out.ToMove == nil {
		out.ToMove = []game.Seat{}
	}
	return out, nil
}

// awayInfo adds, while the game is played, whether each person's seat
// has a connection open and, if not, when it was last seen; and, at a
// table without a clock, for each such person to move, since when and
// until when they must stay away before the others may claim the game.
// t.mu must be held.
func (t *table) awayInfo(in *Info, now time.Time) {
	if t.st == nil || !t.m.Started || !t.status.Live() {
		return
	}
	t.here.size(len(t.m.Seats), now)
	for i, s := range t.m.Seats {
		if i >= len(in.Seats) || s.Computer != "" || s.open() {
			continue
		}
		here := t.here.seats[i].here(now)
		in.Seats[i].Connected = &here
		if !here {
			seen := t.here.seats[i].seen.UTC()
			in.Seats[i].AbsentSince = &seen
		}
	}
	if t.tc.on() {
		return
	}
	for _, w := range t.st.ToMove() {
		if int(w) >= len(in.Seats) || t.m.Seats[w].Computer != "" || t.here.seats[w].here(now) {
			continue
		}
		seen := t.here.seats[w].seen.UTC()
		in.Seats[w].AwaySince = &seen
		if t.conf != nil && t.conf.WalkAway > 0 {
			at := seen.Add(t.conf.WalkAway)
			si := &in.Seats[w]
			si.ClaimAt = &at
			left := max(at.Sub(now), 0).Seconds()
			si.ClaimIn = &left
		}
	}
}
