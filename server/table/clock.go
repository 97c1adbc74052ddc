package table

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"parlour/analysis"
	"parlour/game"
	"parlour/server/refuse"
	"parlour/store"
)

// Clock is the time a Service keeps: the times of moves and chat, the
// deadlines of tables with a clock, and how long a player has been away.
// Tests pass one they move by hand (Config.Clock); the default is the
// system's.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed (at once
	// when d <= 0) and returns a Timer that can stop it.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a call a Clock has scheduled.
type Timer interface {
	// Stop keeps the call from happening, reporting whether it did.
	Stop() bool
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// now is the service's time, to the microsecond: the times it keeps (of
// moves, chat, deadlines) come back from the store as they were sent,
// and PostgreSQL keeps no finer time than that.
func (s *Service) now() time.Time { return s.cfg.Clock.Now().Truncate(time.Microsecond) }

// Now returns the time as the service keeps it (Config.Clock, to the
// microsecond), for the parts above the tables that stamp what they
// store with it.
func (s *Service) Now() time.Time { return s.now() }

// tableClock is the clock of a table whose rules set one (game.Clock):
// how long a turn may take, or how much time each seat has left, and when
// each seat's turn began. The server keeps no deadline of its own in the
// store: they follow from the time play started (meta.StartedAt) and the
// stored times of the moves, so a restart finds them again (see
// deriveDue).
type tableClock struct {
	kind game.ClockKind // "": no clock
	// turn is the time a turn may take (turn and correspondence clocks).
	turn time.Duration
	// initial and increment are a Fischer clock's: each seat's time for
	// the whole game, and what each move made on its turn adds.
	initial, increment time.Duration
	// due holds, for each seat that is to move, when its turn began;
	// zero for the others.
	due []time.Time
	// left holds, at a Fischer clock once play started, each seat's time
	// left when its turn began (due), or now for a seat not to move.
	left  []time.Duration
	timer Timer
	// setupBy is the table's meta.SetupBy moved on by the time the
	// server was down since the table was made (Service.Resumed), set
	// as it is restored; kept here, not in the description, so that the
	// description stored again does not move it on twice.
	setupBy time.Time
}

// newTableClock returns the clock that rules r set, or nil for none:
// most tables have none, and a table keeps a pointer rather than a clock
// (TestSizes).
func newTableClock(r game.Rules) *tableClock {
	gc, ok := game.ClockOf(r)
	if !ok {
		return nil
	}
	c := &tableClock{kind: gc.Kind}
	switch gc.Kind {
	case game.ClockTurn:
		c.turn = time.Duration(gc.Seconds) * time.Second
	case game.ClockCorrespondence:
		c.turn = time.Duration(gc.Days) * 24 * time.Hour
	case game.ClockFischer:
		c.initial, c.increment = time.Duration(gc.Initial)*time.Second, time.Duration(gc.Increment)*time.Second
	}
	return c
}

// on reports whether the table has a clock.
func (c *tableClock) on() bool { return c != nil && c.kind != "" }

// ticking reports whether the clock's timer is set.
func (c *tableClock) ticking() bool { return c != nil && c.timer != nil }

// stop stops the clock's timer, if set.
func (c *tableClock) stop() {
	if c.ticking() {
		c.timer.Stop()
		c.timer = nil
	}
}

// String says the clock as a player reads it, as game.Clock does.
func (c *tableClock) String() string {
	switch c.kind {
	case game.ClockFischer:
		return game.Clock{Kind: c.kind, Initial: int(c.initial / time.Second), Increment: int(c.increment / time.Second)}.String()
	case game.ClockCorrespondence:
		return game.Span(c.turn) + " a move"
	}
	return game.Span(c.turn) + " a turn"
}

// Forfeit reasons: why the server played a move for a seat.
const (
	forfeitTimeout = "timeout"
	forfeitClaim   = "claim"
)

// forfeit is a move the server played for a seat, kept in the table's
// description so that its event survives a restart: the record holds the
// move itself, an ordinary one, and nothing else.
type forfeit struct {
	// Move is the 1-based index of the move in the record.
	Move int    `json:"move"`
	Seat int    `json:"seat"`
	Why  string `json:"why"`
	// By is the seat that claimed the game (Why "claim"), Away how many
	// seconds the absent player had been away.
	By   int `json:"by,omitempty"`
	Away int `json:"away,omitempty"`
}

// analysed returns f as an analysis names it, and a history after it.
func (f forfeit) analysed() analysis.Forfeit {
	why := analysis.ForfeitTimeout
	if f.Why == forfeitClaim {
		why = analysis.ForfeitClaim
	}
	return analysis.Forfeit{Index: f.Move, Why: why}
}

// TimeoutEvent is the data of a "timeout" event: Seat ran out of time,
// and the server played Move for it. Clock is the seconds a turn may take
// (a turn or correspondence clock) or, with Kind "fischer", the seconds
// each seat had for the whole game; Kind is set for clocks other than
// seconds a turn.
type TimeoutEvent struct {
	Seat  game.Seat      `json:"seat"`
	Move  string         `json:"move"`
	Clock int            `json:"clock"`
	Kind  game.ClockKind `json:"kind,omitempty"`
}

// ClaimEvent is the data of a "claim" event: Seat had been away Away
// seconds while it was to move, and By claimed the game, so the server
// played Move (resign) for it.
type ClaimEvent struct {
	Seat game.Seat `json:"seat"`
	Move string    `json:"move"`
	By   game.Seat `json:"by"`
	Away int       `json:"away"`
}

// event returns the public event that says why the server played f's
// move, text.
func (t *table) forfeitEvent(f forfeit, text string) game.Event {
	name := t.cfg.Name(game.Seat(f.Seat))
	// What the server did for the seat, in words: "resign" is no word
	// one plays.
	did := name + " resigns"
	if text != "resign" {
		did = fmt.Sprintf("%s is made to play %s", name, text)
	}
	if f.Why == forfeitClaim {
		return game.Event{Kind: "claim", Text: fmt.Sprintf("%s was away for %s while it was their turn, and %s claimed the game: %s", name, game.Span(time.Duration(f.Away)*time.Second), t.cfg.Name(game.Seat(f.By)), did),
			Data: ClaimEvent{Seat: game.Seat(f.Seat), Move: text, By: game.Seat(f.By), Away: f.Away}}
	}
	data := TimeoutEvent{Seat: game.Seat(f.Seat), Move: text, Clock: int(t.tc.turn / time.Second)}
	if t.tc.kind != game.ClockTurn {
		data.Kind = t.tc.kind
	}
	if t.tc.kind == game.ClockFischer {
		data.Clock = int(t.tc.initial / time.Second)
	}
	return game.Event{Kind: "timeout", Text: fmt.Sprintf("%s ran out of time (%s): %s", name, t.tc.String(), did), Data: data}
}

// noted returns the events of move i (0-based), with the server's event
// first when the server played that move for its seat.
func (t *table) noted(i int, evs []game.Event) []game.Event {
	for _, f := range t.m.Forfeits {
		if f.Move == i+1 && i < len(t.moves) {
			return append([]game.Event{t.forfeitEvent(f, t.moves[i].text)}, evs...)
		}
	}
	return evs
}

// setTurns updates when each seat's turn began, after mover moved (or
// play started, mover game.Spectator) at at: a seat newly to move, and
// the mover if it moves again, start now; a seat still waiting keeps its
// start. At a Fischer clock, a seat whose turn ends (it moved, or is no
// longer to move) is charged the time its turn took, and the mover gains
// the increment for a move made on its turn.
func (c *tableClock) setTurns(toMove []game.Seat, mover game.Seat, at time.Time, seats int) {
	if c == nil {
		return
	}
	if c.kind == game.ClockFischer {
		if c.left == nil {
			c.left = make([]time.Duration, seats)
			for i := range c.left {
				c.left[i] = c.initial
			}
		}
		for i := 0; i < seats && i < len(c.due); i++ {
			if c.due[i].IsZero() || game.Seat(i) != mover && slices.Contains(toMove, game.Seat(i)) {
				continue // not running, or running on
			}
			c.left[i] = max(c.left[i]-at.Sub(c.due[i]), 0)
			if game.Seat(i) == mover {
				c.left[i] += c.increment
			}
		}
	}
	due := make([]time.Time, seats)
	for _, s := range toMove {
		if int(s) >= seats {
			continue
		}
		if s != mover && int(s) < len(c.due) && !c.due[s].IsZero() {
			due[s] = c.due[s]
		} else {
			due[s] = at
		}
	}
	c.due = due
}

// deadline returns seat's deadline, and false for a seat with none (not
// to move, a computer, or no clock).
func (t *table) deadline(seat int) (time.Time, bool) {
	if !t.tc.on() || seat >= len(t.tc.due) || t.tc.due[seat].IsZero() || t.m.Seats[seat].Computer != "" || t.status == store.Finished {
		return time.Time{}, false
	}
	if t.tc.kind == game.ClockFischer {
		return t.tc.due[seat].Add(t.tc.left[seat]), true
	}
	return t.tc.due[seat].Add(t.tc.turn), true
}

// deriveDue finds when each seat's turn began by replaying the record
// with its moves' stored times, after a restart. t.mu must be held or t
// not yet shared.
func (s *Service) deriveDue(t *table) error {
	rec := t.record()
	moves := rec.Moves
	rec.Moves = nil
	_, cfg, st, err := game.Start(s.games, rec, t.cfg.Lexicon)
	if err != nil {
		return err
	}
	start := t.created
	if !t.m.StartedAt.IsZero() {
		start = t.m.StartedAt
	}
	times := make([]time.Time, len(moves))
	for i, mv := range moves {
		times[i] = start
		if mv.At != nil {
			times[i] = *mv.At
		}
	}
	// The clock stood still while no server ran: the turns are replayed
	// on a time that leaves those spans out, and the turns under way are
	// then moved on by all of them, into the present.
	still := stoodStill(s.run.gaps, start, times)
	clock := func(at time.Time) time.Time { return at.Add(-stood(still, at)) }
	t.tc.setTurns(st.ToMove(), game.Spectator, clock(start), len(t.m.Seats))
	for i, mv := range moves {
		seat, _ := cfg.SeatOf(mv.By)
		if _, err := st.Apply(seat, mv.Move); err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
		t.tc.setTurns(st.ToMove(), seat, clock(times[i]), len(t.m.Seats))
	}
	if len(still) > 0 {
		last := still[len(still)-1].To
		shift := stood(still, last)
		for i, d := range t.tc.due {
			if !d.IsZero() {
				t.tc.due[i] = d.Add(shift)
			}
		}
	}
	return nil
}

// armClock sets t's timer for its earliest deadline, or stops it when
// there is none. t.mu must be held.
func (s *Service) armClock(t *table) {
	t.tc.stop()
	if !t.tc.on() || t.st == nil || t.status == store.Finished || s.ctx.Err() != nil {
		return
	}
	var next time.Time
	for i := range t.m.Seats {
		if d, ok := t.deadline(i); ok && (next.IsZero() || d.Before(next)) {
			next = d
		}
	}
	if next.IsZero() {
		return
	}
	t.tc.timer = s.cfg.Clock.AfterFunc(next.Sub(s.now()), func() { s.clockFired(t) })
}

// startClock starts the turns of the seats that move first, when play
// starts at. t.mu must be held.
func (s *Service) startClock(t *table, at time.Time) {
	if !t.tc.on() || t.st == nil {
		return
	}
	t.tc.setTurns(t.st.ToMove(), game.Spectator, at, len(t.m.Seats))
	s.armClock(t)
}

// clockMoved notes that seat moved at at. t.mu must be held.
func (s *Service) clockMoved(t *table, seat game.Seat, at time.Time) {
	t.tc.setTurns(t.st.ToMove(), seat, at, len(t.m.Seats))
	s.armClock(t)
}

// maxForfeits bounds the moves one firing of a table's clock plays: one
// for each seat whose time ran out, and a retry when another move came
// first.
const maxForfeits = 64

// clockFired plays, for every seat whose time has run out, what its game
// lets it give up with (game.ForfeitMove: resign, or Word Fight's cannot),
// as an ordinary move with a "timeout" event before the referee's.
func (s *Service) clockFired(t *table) {
	for tries := 0; tries < maxForfeits; tries++ {
		if s.ctx.Err() != nil {
			return
		}
		t.mu.Lock()
		if t.st == nil || t.status == store.Finished {
			t.unlock()
			return
		}
		now := s.now()
		seat := -1
		for i := range t.m.Seats {
			if d, ok := t.deadline(i); ok && !d.After(now) {
				seat = i
				break
			}
		}
		if seat < 0 {
			s.armClock(t)
			t.unlock()
			return
		}
		version := t.version()
		mv := game.ForfeitMove(t.st, game.Seat(seat))
		t.unlock()
		_, err := s.play(s.ctx, t, game.Seat(seat), mv, &version, &forfeit{Seat: seat, Why: forfeitTimeout})
		if refuse.Status(err) == http.StatusServiceUnavailable {
			s.clockRetry(t, seat, err)
			return
		}
		if err != nil && mv != "resign" && !s.staleVersion(t, version) {
			// The game refused what it said it would take: resign.
			_, err = s.play(s.ctx, t, game.Seat(seat), "resign", &version, &forfeit{Seat: seat, Why: forfeitTimeout})
		}
		if refuse.Status(err) == http.StatusServiceUnavailable {
			s.clockRetry(t, seat, err)
			return
		}
		if err != nil && !s.staleVersion(t, version) {
			s.log.Error("playing for a seat whose time ran out", "table", t.id, "seat", seat, "move", mv, "err", err)
			return
		}
	}
}

// errLate is play's refusal of a seat's own move that came once its
// deadline had passed, before the clock's timer played for it: a move a
// moment late must not stand, nor earn a Fischer increment that would
// put time back on a clock that had run out.
var errLate = errors.New("the move came after the seat's time ran out")

// errOverdue is play's refusal, for now, of a seat's own move that came
// once another seat's deadline had passed, before the clock's timer
// played for that seat: the clock ended that seat's turn first, and its
// move (a resignation, an abort) may end the game, so a resignation or
// an abort that came later must not take the game's end from it (move
// and Abort let the clock play, then look again).
var errOverdue = errors.New("another seat's time ran out before the move came")

// errStillOverdue refuses a request that waited for the clock to play
// for a seat whose time ran out, when the clock could not (the store
// was away: clockRetry tries again).
var errStillOverdue = refuse.Unavailable("a player's time has run out and the server could not yet play for them: try again in a moment")

// overdue reports whether some seat's deadline has passed at now
// without the clock having played for it yet. t.mu must be held.
func (t *table) overdue(now time.Time) bool {
	for i := range t.m.Seats {
		if d, ok := t.deadline(i); ok && !d.After(now) {
			return true
		}
	}
	return false
}

// overRefusal refuses a request that needs the game in play, once it is
// over, saying how it ended when the server ended it (a clock, a claim,
// an abort): the player whose request came too late learns why. t.mu
// must be held.
func (t *table) overRefusal() error {
	if a := t.m.Aborted; a != nil {
		return refuse.Conflict("the game is over: %s", t.abortEvent(game.Seat(a.Seat), a.Why).Text)
	}
	if n := len(t.m.Forfeits); n > 0 && t.m.Forfeits[n-1].Move == len(t.moves) {
		f := t.m.Forfeits[n-1]
		return refuse.Conflict("the game is over: %s", t.forfeitEvent(f, t.moves[f.Move-1].text).Text)
	}
	return refuse.Conflict("the game is over")
}

// lateRefusal says to seat, whose move came after its time ran out and
// for which the clock has played (clockFired) since the table had moves
// moves, what became of the game. t.mu must be held.
func (t *table) lateRefusal(seat game.Seat, moves int) error {
	what := "the server plays for you"
	if a := t.m.Aborted; a != nil && a.Seat == int(seat) && a.Why == AbortTimeout {
		what = "the game is aborted, without a result"
	}
	for _, f := range t.m.Forfeits {
		// Several seats' times may have run out at once (Word Fight):
		// the seat's own move among those the clock played.
		if f.Seat == int(seat) && f.Why == forfeitTimeout && f.Move > moves && f.Move <= len(t.moves) {
			what = "the server played " + t.moves[f.Move-1].text + " for you"
			if t.moves[f.Move-1].text == "resign" {
				what = "the server resigned for you"
			}
		}
	}
	return refuse.Conflict("your time ran out (%s) before this move came: %s", t.tc, what)
}

// clockRetry arms t's clock to fire again once storeRetry has passed,
// after the store could not save the move played for seat.
func (s *Service) clockRetry(t *table, seat int, err error) {
	s.log.Warn("the move for a seat whose time ran out was not saved; trying again", "table", t.id, "seat", seat, "in", storeRetry, "err", err)
	t.mu.Lock()
	defer t.unlock()
	t.tc.stop()
	if t.tc.on() && s.ctx.Err() == nil {
		t.tc.timer = s.cfg.Clock.AfterFunc(storeRetry, func() { s.clockFired(t) })
	}
}

// clockInfo adds the clock and each seat's deadline or time left to in.
// t.mu must be held.
func (t *table) clockInfo(in *Info, now time.Time) {
	if !t.tc.on() {
		return
	}
	in.Clock = &ClockInfo{Turn: int(t.tc.turn / time.Second), Now: now.UTC()}
	switch t.tc.kind {
	case game.ClockFischer:
		in.Clock.Kind = game.ClockFischer
		inc := int(t.tc.increment / time.Second)
		in.Clock.Initial, in.Clock.Increment = int(t.tc.initial/time.Second), &inc
	case game.ClockCorrespondence:
		in.Clock.Kind = game.ClockCorrespondence
		in.Clock.Days = int(t.tc.turn / (24 * time.Hour))
	}
	for i := range in.Seats {
		if d, ok := t.deadline(i); ok {
			d = d.UTC()
			left := max(d.Sub(now), 0).Seconds()
			in.Seats[i].Deadline, in.Seats[i].TimeLeft = &d, &left
		} else if t.tc.kind == game.ClockFischer && t.status != store.Finished && t.m.Seats[i].Computer == "" && in.Seats[i].Kind != "computer" && !t.out(i) {
			// A Fischer clock that is not running still shows the
			// seat's time, while the game lasts: its own, or all of it
			// before play.
			left := t.tc.initial.Seconds()
			if i < len(t.tc.left) {
				left = t.tc.left[i].Seconds()
			}
			in.Seats[i].TimeLeft = &left
		}
	}
}

// out says whether seat i is out of a game that goes on without it
// (game.Leaver): its clock, which will never run again, is not shown.
// t.mu must be held.
func (t *table) out(i int) bool {
	l, ok := t.st.(game.Leaver)
	return ok && l.Out(game.Seat(i))
}

// ClockInfo is a table's clock as its public information shows it: the
// seconds a turn may take, and the server's time when the information
// was made, against which clients measure each seat's deadline. Kind is
// set for a clock other than seconds a turn: "fischer", with Initial and
// Increment (Turn 0), or "correspondence", with Days (and Turn the same
// time in seconds). A Fischer clock's Increment is there when it is 0
// too, as its kind promises.
type ClockInfo struct {
	Turn      int            `json:"turn"`
	Now       time.Time      `json:"now"`
	Kind      game.ClockKind `json:"kind,omitempty"`
	Initial   int            `json:"initial,omitempty"`
	Increment *int           `json:"increment,omitempty"`
	Days      int            `json:"days,omitempty"`
}
