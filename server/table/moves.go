package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// MoveRequest is the body of POST /api/v1/tables/{id}/moves.
type MoveRequest struct {
	Move string `json:"move"`
	// Version, when given, makes the move conditional on the table being
	// at that version (see Service.Move).
	Version *int `json:"version,omitempty"`
	// Wait asks for the answer once it is the mover's turn again or the
	// game is over (see Service.Move).
	Wait bool `json:"wait,omitempty"`
}

// MaxMoveLen caps a move's text, in bytes: the longest notation (a Salvo
// outline) is well under it.
const MaxMoveLen = 256

// MoveResult answers a move: the table's new version and the events the
// move revealed to the mover.
type MoveResult struct {
	Version int `json:"version"`
	// Status is the table's status after the move, ToMove the seats to
	// move next.
	Status store.Status `json:"status"`
	ToMove []game.Seat  `json:"to_move"`
	Events []game.Event `json:"events"`
	// TimedOut is set when a move asked with "wait" waited the server's
	// longest wait without the mover's turn coming round: the answer
	// holds what there is, and the client asks again (GET the table, or
	// follow its events).
	TimedOut bool `json:"timed_out,omitempty"`
	// Repeated is set when the move, conditional on a version, had
	// already been made at that version by the same seat: its first
	// answer was lost (the connection broke, or the node that ran the
	// table died before answering) and it was asked again. Nothing
	// changed this time; Version is the one the move made, and Events
	// are its events when the table still has them.
	Repeated bool `json:"repeated,omitempty"`
}

// Move plays req.Move for the asker's seat at table id. When req.Version
// is not nil the move is refused unless the table is at that version, so
// that a client retrying after a lost answer cannot play a move twice.
// With req.Wait it then answers once it is the mover's turn again or the
// game is over, with every event the mover may see since (its own move's
// first, then the other seats' replies, computer seats' included); past
// the server's longest wait it answers with what there is, TimedOut set.
func (s *Service) Move(ctx context.Context, p *auth.Principal, id string, req MoveRequest) (MoveResult, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return MoveResult{}, err
	}
	t.mu.Lock()
	seat, daily := t.seatOf(p), t.m.Daily
	t.unlock()
	if seat < 0 {
		return MoveResult{}, refuse.Forbidden("you hold no seat at this table")
	}
	if daily != "" && s.cfg.DailyGoesOn != nil && !strings.EqualFold(strings.TrimSpace(req.Move), AbortResign) {
		if err := s.cfg.DailyGoesOn(ctx, daily); err != nil {
			return MoveResult{}, err
		}
	}
	res, err := s.move(ctx, t, seat, req.Move, req.Version)
	if err != nil || !req.Wait {
		return res, err
	}
	return s.awaitMoved(ctx, t, seat, res)
}

func (s *Service) move(ctx context.Context, t *table, seat game.Seat, text string, expect *int) (MoveResult, error) {
	res, err := s.play(ctx, t, seat, text, expect, nil)
	if errors.Is(err, errOverdue) {
		// Another seat's time ran out before this move came, and the
		// clock's timer has not played for it yet: the clock's move
		// comes first (it may end the game), then this one is looked
		// at again.
		s.clockFired(t)
		if res, err = s.play(ctx, t, seat, text, expect, nil); errors.Is(err, errOverdue) {
			return MoveResult{}, errStillOverdue
		}
	}
	if errors.Is(err, errLate) {
		// The clock's timer has not played for the seat yet (it fires
		// in its own goroutine, and may wait for this very lock): play
		// now, so that the refusal can say what became of the game.
		t.mu.Lock()
		n := len(t.moves)
		t.unlock()
		s.clockFired(t)
		t.mu.Lock()
		defer t.unlock()
		return MoveResult{}, t.lateRefusal(seat, n)
	}
	return res, err
}

// play is move, and when fo is not nil a move the server plays for seat
// (its time ran out, or its game was claimed): fo is then kept in the
// table's description, written with the move, and its event comes first
// among the move's.
func (s *Service) play(ctx context.Context, t *table, seat game.Seat, text string, expect *int, fo *forfeit) (MoveResult, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return MoveResult{}, refuse.Bad("the move is empty")
	}
	if len(text) > MaxMoveLen {
		return MoveResult{}, refuse.Bad("a move may be at most %d characters", MaxMoveLen)
	}
	start := time.Now()
	t.mu.Lock()
	defer t.unlock()
	if t.gone {
		return MoveResult{}, ErrMoved
	}
	t.lastUse = start
	if t.doubt {
		if err := s.settleDoubt(ctx, t); err != nil {
			return MoveResult{}, err
		}
	}
	if expect != nil && t.m.Started && *expect < t.version() {
		res, ok, err := t.repeated(s.games, seat, text, *expect)
		if err != nil {
			return MoveResult{}, err
		}
		if ok {
			return res, nil
		}
	}
	switch {
	case t.m.Cancelled != "":
		return MoveResult{}, t.closed()
	case !t.m.Started && strings.EqualFold(text, "resign"):
		// There is no game to give up yet: say how to give up the seat.
		return MoveResult{}, refuse.Conflict("the game has not started (%s): to give up your seat, leave the table", t.waitingFor(seat))
	case !t.m.Started:
		return MoveResult{}, refuse.Conflict("the game has not started: %s", t.waitingFor(seat))
	case t.status == store.Finished:
		return MoveResult{}, t.overRefusal()
	case expect != nil && *expect != t.version():
		return MoveResult{}, refuse.Conflict("the table is at version %d, not %d: look again before moving", t.version(), *expect)
	}
	if d, ok := t.deadline(int(seat)); ok && fo == nil && !d.After(s.now()) {
		// The seat's time ran out before its move came: the move is
		// the clock's, not the seat's (move plays it).
		return MoveResult{}, errLate
	}
	if fo == nil && t.overdue(s.now()) {
		return MoveResult{}, errOverdue
	}
	if n, ok := t.st.(game.Normalizer); ok {
		// The record keeps the move in its notation; a move that cannot
		// be read is left for Apply to refuse.
		if c, err := n.Normalize(seat, text); err == nil {
			text = c
		}
	}
	if why, ok := t.abortsInstead(text, fo); ok {
		// Before every player has moved, giving up loses nothing: the
		// game ends without a result.
		res, err := s.abort(ctx, t, seat, why)
		if err != nil {
			return MoveResult{}, err
		}
		return t.abortedMove(res, seat, why), nil
	}
	evs, err := t.st.Apply(seat, text)
	if err != nil {
		s.metrics.movesRefused.Add(1)
		if errors.Is(err, game.ErrNotYourTurn) {
			return MoveResult{}, refuse.Conflict("%v", err)
		}
		return MoveResult{}, refuse.Unprocessable("%v", err)
	}
	now := s.now().UTC()
	mv := store.Move{Seq: len(t.moves) + 1, Seat: int(seat), Text: text, At: now, Epoch: t.epoch}
	var update *store.Update
	old := t.m // only a finishing move, or one played for a seat, changes the description: see below
	if finished := t.st.Result().Status == game.Finished; finished || fo != nil {
		old = t.m.clone()
		status := store.Playing
		if finished {
			t.finishSet()
			status = store.Finished
		}
		if fo != nil {
			fo.Move = mv.Seq
			t.m.Forfeits = append(slices.Clip(t.m.Forfeits), *fo)
		}
		b, err := json.Marshal(t.m)
		if err != nil {
			t.m = old
			return MoveResult{}, err
		}
		update = &store.Update{Status: status, Meta: b}
		if finished {
			update.End = t.gameEnd(now)
		}
	}
	if err := s.st.AppendMove(ctx, t.id, mv, update); err != nil {
		s.fenced(t, err)
		// The state ran ahead of the store: rebuild it from the record.
		t.m = old
		if _, st, _, rerr := game.Replay(s.games, t.record(), t.cfg.Lexicon); rerr == nil {
			t.st = st
		} else {
			s.log.Error("rebuilding table after a failed write", "table", t.id, "err", rerr)
		}
		// A write that failed may yet have been committed (PostgreSQL's
		// connection broke as it committed): the next move reads the
		// table back first.
		t.doubt = true
		return MoveResult{}, s.saveFailed("the move", err)
	}
	var end *store.GameEnd
	if update != nil {
		end = update.End
	}
	return s.accept(t, seat, text, now, evs, fo, end, start), nil
}

// accept makes a stored move part of the table: its moves, clock, recent
// steps, watchers, computer players, and at a game's end the players'
// streams. t.mu must be held.
func (s *Service) accept(t *table, seat game.Seat, text string, now time.Time, evs []game.Event, fo *forfeit, end *store.GameEnd, start time.Time) MoveResult {
	t.moves = append(t.moves, move{text: text, at: now.UnixNano(), seat: int32(seat)})
	t.status = t.deriveStatus()
	if fo != nil {
		evs = append([]game.Event{t.forfeitEvent(*fo, text)}, evs...)
	} else {
		t.touch(seat, now)
	}
	if t.tc.on() {
		s.clockMoved(t, seat, now)
	}
	st := step{version: t.version(), seat: seat, move: text, events: evs}
	t.remember(st)
	t.broadcast()
	s.scheduleBots(t)
	s.metrics.movesAccepted.Add(1)
	s.metrics.moveLatency.observe(time.Since(start))
	if t.status == store.Finished {
		s.log.Info("game over", "table", t.id, "moves", len(t.moves))
		s.finished(t, end)
	}
	s.turned(t)
	s.noteIdle(t)
	ev := t.visible(evs, seat)
	if ev == nil {
		ev = []game.Event{}
	}
	return MoveResult{Version: st.version, Events: ev, ToMove: append([]game.Seat{}, t.st.ToMove()...), Status: t.status}
}

// repeated answers seat's move text, conditional on version v, when the
// table already took that very move from that seat at v: a client whose
// answer was lost asks again (and a node that forwarded the move to an
// owner which died before answering asks the new owner again), and hears
// that the move was made, not that the table has moved on. Only one move
// is ever made at a version, so nothing can be played twice. t.mu must
// be held. The answer holds the move's events as seat saw them, from the
// recent steps or, for an older move, a replay of the record (reg).
func (t *table) repeated(reg *game.Registry, seat game.Seat, text string, v int) (MoveResult, bool, error) {
	i := v - t.m.Start // the move made at v, counted from 0
	if i < 0 || i >= len(t.moves) || int(seat) >= len(t.m.Seats) {
		return MoveResult{}, false, nil
	}
	if n, ok := t.st.(game.Normalizer); ok {
		if c, err := n.Normalize(seat, text); err == nil {
			text = c
		}
	}
	if mv := t.moves[i]; mv.seat != int32(seat) || mv.text != text {
		return MoveResult{}, false, nil
	}
	for _, fo := range t.m.Forfeits {
		if fo.Move == i+1 {
			return MoveResult{}, false, nil // the server played it, not the seat
		}
	}
	steps, err := t.steps(reg, i)
	if err != nil {
		return MoveResult{}, false, err
	}
	ev := []game.Event{}
	if e := t.visible(steps[0].events, seat); e != nil {
		ev = e
	}
	return MoveResult{Version: v + 1, Status: t.status, ToMove: append([]game.Seat{}, t.st.ToMove()...), Events: ev, Repeated: true}, true, nil
}

// settleDoubt reads t back from the store after a write of a move failed:
// when the store holds the move after all, its commit's answer was what
// got lost, and the table takes the move as played then (its watchers
// see it, the clock and computer seats go on from it); otherwise nothing
// was stored and nothing changes. Without it, the table would ask the
// store to take every later move under a number already taken, and
// refuse them all until a restart. t.mu must be held.
func (s *Service) settleDoubt(ctx context.Context, t *table) error {
	row, err := s.st.Table(ctx, t.id)
	if err != nil {
		return s.readFailed("the table", err)
	}
	t.doubt = false
	if t.st == nil {
		return nil
	}
	if len(row.Moves) == len(t.moves) && t.m.Aborted == nil {
		// The write in doubt may have been an abort's.
		return s.settleAbort(t, row)
	}
	if len(row.Moves) <= len(t.moves) {
		return nil
	}
	mv := row.Moves[len(t.moves)]
	var m meta
	if err := json.Unmarshal(row.Meta, &m); err != nil {
		return fmt.Errorf("table %s: reading its description back: %w", t.id, err)
	}
	if mv.Seat < 0 || mv.Seat >= len(t.m.Seats) {
		return fmt.Errorf("table %s: stored move %d by seat %d", t.id, mv.Seq, mv.Seat)
	}
	seat := game.Seat(mv.Seat)
	evs, err := t.st.Apply(seat, mv.Text)
	if err != nil {
		return fmt.Errorf("table %s: stored move %d %q does not apply: %w", t.id, mv.Seq, mv.Text, err)
	}
	s.log.Warn("a move whose write seemed to fail was stored; taking it", "table", t.id, "move", mv.Seq)
	t.m = m
	var fo *forfeit
	if n := len(m.Forfeits); n > 0 && m.Forfeits[n-1].Move == mv.Seq {
		f := m.Forfeits[n-1]
		fo = &f
	}
	var end *store.GameEnd
	if t.st.Result().Status == game.Finished {
		end = t.gameEnd(mv.At)
	}
	s.accept(t, seat, mv.Text, mv.At, evs, fo, end, time.Now())
	if len(row.Moves) > len(t.moves) {
		// More than the one move in doubt: another writer. Look again.
		t.doubt = true
	}
	return nil
}

// settleAbort takes the abort the store holds for t, from row, when the
// write of an abort seemed to fail but was committed (settleDoubt): the
// game is over without a result, as the store and every history already
// say. t.mu must be held.
func (s *Service) settleAbort(t *table, row store.Table) error {
	var m meta
	if err := json.Unmarshal(row.Meta, &m); err != nil {
		return fmt.Errorf("table %s: reading its description back: %w", t.id, err)
	}
	a := m.Aborted
	if a == nil {
		return nil
	}
	if a.Seat < 0 || a.Seat >= len(t.m.Seats) {
		return fmt.Errorf("table %s: stored abort by seat %d", t.id, a.Seat)
	}
	s.log.Warn("an abort whose write seemed to fail was stored; taking it", "table", t.id)
	t.m = m
	t.st = game.AbortPlay(t.st, game.Seat(a.Seat))
	t.status = t.deriveStatus()
	t.changedAt = a.At
	s.armClock(t) // stops it: the game is over
	t.broadcast()
	s.finished(t, t.gameEnd(a.At))
	return nil
}

// waitingFor says in words what keeps play from starting, to seat (-1:
// to someone who holds no seat), whose own setup it names first.
func (t *table) waitingFor(seat game.Seat) string {
	var open, setup []string
	mine := false
	for i, s := range t.m.Seats {
		switch {
		case s.open():
			open = append(open, s.Name)
		case t.g.HasSetup() && s.Setup == nil:
			if game.Seat(i) == seat {
				mine = true
			} else {
				setup = append(setup, s.Name)
			}
		}
	}
	switch {
	case len(open) > 0:
		return "waiting for players to join (" + strings.Join(open, ", ") + ")"
	case mine && len(setup) > 0:
		return "waiting for your setup, and for the setups of " + strings.Join(setup, ", ")
	case mine:
		return "waiting for your setup"
	case len(setup) > 0:
		return "waiting for the setups of " + strings.Join(setup, ", ")
	}
	return "starting"
}

// finishSet adds a finished game's scores to its set. It adds them to a
// copy: views already handed out hold the old set, and are encoded
// outside the table's lock.
func (t *table) finishSet() {
	if t.m.Set != nil {
		set := t.m.Set.Clone()
		set.Add(t.st.Result().Scores)
		t.m.Set = set
	}
}

// move is a move as a table keeps it in memory, 32 bytes: its seat
// rather than its player's name, and its time as a number rather than a
// time.Time of its own. A game.Move and the time it points to took 64
// bytes in two allocations, and a table keeps every move of its game for
// as long as its players think.
type move struct {
	text string
	at   int64 // Unix nanoseconds
	seat int32
}

// time returns when m was made, in UTC.
func (m move) time() time.Time { return time.Unix(0, m.at).UTC() }

// gameMoves returns t's moves as a record holds them. t.mu must be held.
func (t *table) gameMoves() []game.Move {
	if len(t.moves) == 0 {
		return nil
	}
	out, at := make([]game.Move, len(t.moves)), make([]time.Time, len(t.moves))
	for i, mv := range t.moves {
		at[i] = mv.time()
		out[i] = game.Move{By: t.m.Seats[mv.seat].Name, Move: mv.text, At: &at[i]}
	}
	return out
}

// abortable reports whether the game may be aborted so far
// (game.AbortableBy). t.mu must be held.
func (t *table) abortable() bool {
	return game.AbortableBy(len(t.cfg.Players), len(t.moves), func(i int) game.Seat { return game.Seat(t.moves[i].seat) })
}
