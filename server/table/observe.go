package table

import "parlour/store"

// Observer hears of the games that start and finish at the service's
// tables: the player stream listens, and so will tournaments. The service
// calls it outside every table's lock, on the goroutine that made the
// change, in the order the changes were made; it must not block, since
// the request that started or finished the game waits for it.
type Observer interface {
	// Started says that the last open seat of a table was taken (by an
	// acceptance, a join, or at its creation): its game is its players'
	// to play.
	Started(GameNote)
	// Finished says that a game ended as end says, for each seat.
	Finished(GameNote, *store.GameEnd)
}

// TurnObserver is an Observer that also hears whose turn it is: after
// each move of a game under way, and when play starts. The mail tells a
// player who is not there to see it that their seat is to move. Like an
// Observer it is called outside the table's lock and must not block; it
// may hear of the same turn twice (a start that is also the table's
// last seat taken).
type TurnObserver interface {
	Observer
	// Turn says that the seats of n are to move.
	Turn(n GameNote, seats []int)
	// HearsTurns reports whether Turn would do anything now (the mail
	// when the server sends mail): the service builds a move's note for
	// Turn only then, since most servers send none and every move asks.
	HearsTurns() bool
}

// DesertObserver is an Observer that also hears of a table made for its
// players (a pairing's) that one of them left before play began, which
// closed it: no game was played, and seat's player did not show up. An
// event scores that as a forfeit. Like an Observer it is called outside
// the table's lock and must not block.
type DesertObserver interface {
	Observer
	Deserted(n GameNote, seat int)
}

// RematchObserver is an Observer that also hears of a rematch offered:
// the first player to ask for the next game of a finished table made
// its table. The player stream tells the others, who may have left the
// end screen where the offer shows. Like an Observer it is called
// outside the table's lock; the request that asked waits for it, so it
// must be quick.
type RematchObserver interface {
	Observer
	// Rematched says that n.By asked for the game after n.Table and
	// that its table, n.Next, waits for the others.
	Rematched(n RematchNote)
}

// RematchNote is what a RematchObserver hears of a rematch offered: the
// finished table as a GameNote, the table of the next game, and the seat
// at the finished table that asked for it, with its name there.
type RematchNote struct {
	GameNote
	Next string
	By   int
	Name string
}

// NextSeat returns the seat at the next game's table of the player at
// seat i of the finished one: everyone moves one seat on, the last seat
// coming first, so that the first move changes hands.
func (n RematchNote) NextSeat(i int) int { return nextSeat(i, len(n.Seats)) }

// nextSeat returns the seat at a rematch of the player at seat i of n.
func nextSeat(i, n int) int { return (i + 1) % n }

// GameNote is what an Observer hears of a table: the facts a listener
// needs to tell the players and who sits where. It is not a table's
// public description (Info), which names no identity.
type GameNote struct {
	Table     string
	Game      string
	Rated     bool
	Challenge string
	// Seats holds the identity at each seat, "" for a computer's.
	Seats []string
	// Guests marks the seats whose players sat down as guests: nobody
	// follows a guest.
	Guests []bool
	// Private is set for a table kept out of the lobby.
	Private bool
	// Event is the id of the tournament the game is of, if any.
	Event string
}

// note returns what an Observer hears of t. t.mu must be held.
func (t *table) note() GameNote {
	n := GameNote{Table: t.id, Game: t.g.Name(), Rated: t.m.Rated, Challenge: t.m.Challenge, Seats: make([]string, len(t.m.Seats)), Private: t.m.Private}
	if t.m.Event != nil {
		n.Event = t.m.Event.ID
	}
	for i, st := range t.m.Seats {
		n.Seats[i] = st.Identity
		if st.Player == "guest" {
			if n.Guests == nil {
				n.Guests = make([]bool, len(t.m.Seats))
			}
			n.Guests[i] = true
		}
	}
	return n
}

// started tells the observers that t's game is its players' to play, once
// t.mu is let go (t.unlock). t.mu must be held.
func (s *Service) started(t *table) {
	n := t.note()
	for _, o := range s.observers {
		t.after = append(t.after, func() { o.Started(n) })
	}
	s.turned(t)
}

// deserted tells the DesertObservers that seat's player left t, a
// pairing's table, before play began, once t.mu is let go. t.mu must be
// held.
func (s *Service) deserted(t *table, seat int) {
	n := t.note()
	for _, o := range s.observers {
		if do, ok := o.(DesertObserver); ok {
			t.after = append(t.after, func() { do.Deserted(n, seat) })
		}
	}
}

// turned tells the TurnObservers which seats of t are to move, once t.mu
// is let go, when t's game is under way. t.mu must be held.
func (s *Service) turned(t *table) {
	if t.st == nil || t.status != store.Playing {
		return
	}
	var n *GameNote
	for _, o := range s.observers {
		to, ok := o.(TurnObserver)
		if !ok || !to.HearsTurns() {
			continue
		}
		if n == nil {
			note := t.note()
			n = &note
		}
		seats := []int{}
		for _, seat := range t.st.ToMove() {
			seats = append(seats, int(seat))
		}
		note := *n
		t.after = append(t.after, func() { to.Turn(note, seats) })
	}
}

// finished tells the observers that t's game ended as end says, once t.mu
// is let go (t.unlock). t.mu must be held.
func (s *Service) finished(t *table, end *store.GameEnd) {
	s.noteIdle(t)
	if end == nil {
		return
	}
	n := t.note()
	for _, o := range s.observers {
		t.after = append(t.after, func() { o.Finished(n, end) })
	}
}

// rematched tells the RematchObservers that seat by of t asked for the
// game after it, at the table next, once t.mu is let go. t.mu must be
// held.
func (s *Service) rematched(t *table, next string, by int) {
	var n *RematchNote
	for _, o := range s.observers {
		ro, ok := o.(RematchObserver)
		if !ok {
			continue
		}
		if n == nil {
			n = &RematchNote{GameNote: t.note(), Next: next, By: by, Name: t.m.Seats[by].Name}
		}
		note := *n
		t.after = append(t.after, func() { ro.Rematched(note) })
	}
}

// unlock lets go of t.mu, then runs what was left to do after it (the
// observers' calls), in order: a listener that takes a lock of its own,
// or reads the table, cannot deadlock with the change that called it.
func (t *table) unlock() {
	if t.after == nil {
		t.mu.Unlock()
		return
	}
	after := t.after
	t.after = nil
	t.mu.Unlock()
	for _, f := range after {
		f()
	}
}
