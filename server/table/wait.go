package table

import (
	"context"
	"slices"
	"time"

	"parlour/game"
	"parlour/store"
)

// DefaultMaxWait is how long a move or setup asked with "wait": true waits
// at most for the asker's turn (Config.MaxWait): past it the answer comes
// with what there is and says it timed out, and the client asks again.
// It is short of the idle timeouts of common proxies (60 s).
const DefaultMaxWait = 50 * time.Second

// turnState is where a wait stands: whether it is over, and the answer so
// far.
type turnState struct {
	version int
	status  store.Status
	toMove  []game.Seat
	started bool
	events  []game.Event
	waiting string
}

// awaitTurn waits, after version from, until seat may move at t (its turn
// has come, in a game that has started) or the game is over, or ctx ends,
// or the server's longest wait passes, or the server shuts down; it
// returns the events seat may see of every move after from, and timedOut
// when the wait ended before the turn. Its error is that of reading the
// table's moves, or the table's cancellation (410) when it is closed
// before its game began.
func (s *Service) awaitTurn(ctx context.Context, t *table, seat game.Seat, from int) (ts turnState, timedOut bool, err error) {
	t.mu.Lock()
	t.watchers++
	t.unlock()
	defer func() {
		t.mu.Lock()
		t.watchers--
		s.noteIdle(t)
		t.unlock()
	}()
	timer := time.NewTimer(s.cfg.MaxWait)
	defer timer.Stop()
	for {
		t.mu.Lock()
		ts, err = s.turnState(t, seat, from)
		if err == nil {
			// A table cancelled before its game began (a paired
			// player left, or it waited too long) will never start:
			// the wait ends with the reason, as every later request
			// about the table does, rather than run out saying that
			// play waits for a player who has gone.
			err = t.closed()
		}
		done := ts.status == store.Finished || (ts.started && slices.Contains(ts.toMove, seat))
		var ch <-chan struct{}
		if !done && err == nil {
			ch = t.awaitChange()
		}
		t.lastUse = time.Now()
		t.unlock()
		if done || err != nil {
			return ts, false, err
		}
		// The move or setup is in: whatever ends the wait, the answer
		// says what there is rather than an error.
		select {
		case <-ch:
		case <-timer.C:
			return ts, true, nil
		case <-ctx.Done():
			return ts, true, nil
		case <-s.ctx.Done():
			return ts, true, nil
		}
	}
}

// turnState reports t as seat sees it: the version, status, seats to move,
// and the events of every move after version from that seat may see. t.mu
// must be held.
func (s *Service) turnState(t *table, seat game.Seat, from int) (turnState, error) {
	ts := turnState{version: t.version(), status: t.status, started: t.m.Started, toMove: []game.Seat{}, events: []game.Event{}}
	if t.st != nil {
		ts.toMove = append(ts.toMove, t.st.ToMove()...)
	}
	if !t.m.Started {
		ts.waiting = t.waitingFor(seat)
		return ts, nil
	}
	first := max(from-t.m.Start, 0) // index of the first move after from
	if first < len(t.moves) {
		steps, err := t.steps(s.games, first)
		if err != nil {
			return ts, err
		}
		for _, st := range steps {
			ts.events = append(ts.events, t.visible(st.events, seat)...)
		}
	}
	if a := t.m.Aborted; a != nil && from < ts.version && a.Seat >= 0 && a.Seat < len(t.m.Seats) {
		// The game was aborted after from (an abort is the table's last
		// change, and no move): a waiter hears why, as the move that
		// aborted it would have said, rather than only that it is over.
		ts.events = append(ts.events, t.abortEvent(game.Seat(a.Seat), a.Why))
	}
	return ts, nil
}

// awaitMoved waits, after seat's move answered by res, for seat's turn to
// come again (awaitTurn), and adds what happened meanwhile to res: the
// move's own events are in res; the wait gathers the moves after.
func (s *Service) awaitMoved(ctx context.Context, t *table, seat game.Seat, res MoveResult) (MoveResult, error) {
	ts, timedOut, err := s.awaitTurn(ctx, t, seat, res.Version)
	if err != nil {
		return MoveResult{}, err
	}
	res.Version, res.Status, res.ToMove = ts.version, ts.status, ts.toMove
	res.Events = append(res.Events, ts.events...)
	res.TimedOut = timedOut
	return res, nil
}

// awaitSetup waits, after seat's setup answered by res, until play has
// started and it is seat's turn (awaitTurn), and adds the table as it then
// stands to res.
func (s *Service) awaitSetup(ctx context.Context, t *table, seat game.Seat, res SetupResult) (SetupResult, error) {
	ts, timedOut, err := s.awaitTurn(ctx, t, seat, res.Version)
	if err != nil {
		return SetupResult{}, err
	}
	res.fill(ts)
	res.TimedOut = timedOut
	return res, nil
}

// fill sets the table's state after a setup.
func (r *SetupResult) fill(ts turnState) {
	r.Version, r.Started, r.Status, r.ToMove, r.Waiting = ts.version, ts.started, ts.status, ts.toMove, ts.waiting
	if ts.started {
		r.Events = ts.events
	}
}
