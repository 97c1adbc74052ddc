package table

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// Why a game was aborted (abortMeta.Why, AbortInfo.Why).
const (
	// AbortAsked: a seated player asked to abort it.
	AbortAsked = "abort"
	// AbortResign: a player resigned before every player had moved.
	AbortResign = "resign"
	// AbortTimeout: a player's time ran out before every player had
	// moved (on their first move, or another's).
	AbortTimeout = "timeout"
	// AbortClaim: a player walked away before every player had moved,
	// and the game was claimed.
	AbortClaim = "claim"
)

// abortMeta is how a table's description keeps an abort: the seat it
// ended for, why, and when.
type abortMeta struct {
	Seat int       `json:"seat"`
	Why  string    `json:"why"`
	At   time.Time `json:"at"`
}

// AbortInfo says, in a table's public information, who ended its game
// without a result and why: AbortAsked, AbortResign, AbortTimeout or
// AbortClaim.
type AbortInfo struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Why  string `json:"why"`
}

// abortInfo returns t's abort for its public information, or nil. t.mu
// must be held.
func (t *table) abortInfo() *AbortInfo {
	a := t.m.Aborted
	if a == nil || a.Seat < 0 || a.Seat >= len(t.m.Seats) {
		return nil
	}
	return &AbortInfo{Seat: a.Seat, Name: t.m.Seats[a.Seat].Name, Why: a.Why}
}

// AbortResult answers an abort: the table's new version, its status
// (finished) and its result (status "aborted", no winners).
type AbortResult struct {
	Version int          `json:"version"`
	Status  store.Status `json:"status"`
	Result  game.Result  `json:"result"`
}

// AbortEvent is the data of the "abort" event a move answer carries when
// the move (a resignation, or one the server played for a seat) aborted
// the game instead of being played.
type AbortEvent struct {
	Seat game.Seat `json:"seat"`
	Why  string    `json:"why"`
}

// Abort ends the game at table id without a result, at the word of a
// player seated there, while some player has not yet made a move of
// their own (game.Abortable). An aborted game changes no rating: nobody
// has shown their hand yet, so there is nothing to rate, and a game that
// cannot be won may still be left. It is refused with 403 for somebody
// not seated, 409 once every player has moved, before play or after the
// end, and for a one-seat table (resign there instead).
func (s *Service) Abort(ctx context.Context, p *auth.Principal, id string) (AbortResult, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return AbortResult{}, err
	}
	t.mu.Lock()
	if !t.gone && t.overdue(s.now()) {
		// A seat's time ran out before the abort came, and the clock's
		// timer has not played for it yet: the clock ended that turn
		// first (errOverdue).
		t.unlock()
		s.clockFired(t)
		t.mu.Lock()
		if !t.gone && t.overdue(s.now()) {
			t.unlock()
			return AbortResult{}, errStillOverdue
		}
	}
	defer t.unlock()
	seat := t.seatOf(p)
	if seat < 0 {
		return AbortResult{}, refuse.Forbidden("only a player at this table may abort its game")
	}
	t.touch(seat, s.now())
	return s.abort(ctx, t, seat, AbortAsked)
}

// abort ends t's game without a result for seat, why saying what
// brought it about. t.mu must be held.
func (s *Service) abort(ctx context.Context, t *table, seat game.Seat, why string) (AbortResult, error) {
	if t.gone {
		return AbortResult{}, ErrMoved
	}
	if t.doubt {
		if err := s.settleDoubt(ctx, t); err != nil {
			return AbortResult{}, err
		}
	}
	if err := t.closed(); err != nil {
		return AbortResult{}, err
	}
	switch {
	case !t.m.Started:
		return AbortResult{}, refuse.Conflict("the game has not started (%s): to give up your seat, leave the table", t.waitingFor(seat))
	case t.status == store.Finished:
		return AbortResult{}, t.overRefusal()
	}
	if err := game.AbortRefusal(t.cfg, t.gameMoves(), t.st.Result()); err != nil {
		return AbortResult{}, refuse.Conflict("%v", err)
	}
	now := s.now().UTC()
	old, oldSt := t.m.clone(), t.st
	t.m.Aborted = &abortMeta{Seat: int(seat), Why: why, At: now}
	t.m.Changes++
	t.st = game.AbortPlay(oldSt, seat)
	t.status = t.deriveStatus()
	end := t.gameEnd(now)
	desc, err := json.Marshal(t.m)
	if err == nil {
		err = s.st.Write(ctx, store.Batch{Update: &store.TableUpdate{ID: t.id, Status: t.status, Meta: desc, Epoch: s.place.Epoch(t.id), End: end}})
	}
	if err != nil {
		s.fenced(t, err)
		t.m, t.st = old, oldSt
		t.status = t.deriveStatus()
		// A write that failed may yet have been committed, as a move's
		// may: the next request reads the table back first
		// (settleDoubt), rather than play on past a stored end.
		t.doubt = true
		return AbortResult{}, s.saveFailed("the abort", err)
	}
	t.changedAt = now
	s.armClock(t) // stops it: the game is over
	t.broadcast()
	s.log.Info("game aborted", "table", t.id, "seat", seat, "why", why, "moves", len(t.moves))
	s.finished(t, end)
	return AbortResult{Version: t.version(), Status: t.status, Result: t.st.Result()}, nil
}

// abortsInstead reports whether move text by the table's seat, played
// by the seat itself (fo nil) or for it (fo), aborts the game rather
// than being played: a resignation, or a move played for a seat whose
// time ran out or which was claimed against, while some player has not
// yet moved. It returns why. t.mu must be held and the game in play.
func (t *table) abortsInstead(text string, fo *forfeit) (string, bool) {
	why := AbortResign
	switch {
	case fo != nil && fo.Why == forfeitClaim:
		why = AbortClaim
	case fo != nil:
		why = AbortTimeout
	case !strings.EqualFold(strings.TrimSpace(text), "resign"):
		return "", false
	}
	if t.st.Result().Status != game.InProgress || !t.abortable() {
		return "", false
	}
	return why, true
}

// abortedMove answers a move that aborted the game instead (see
// abortsInstead).
func (t *table) abortedMove(res AbortResult, seat game.Seat, why string) MoveResult {
	return MoveResult{Version: res.Version, Status: res.Status, ToMove: []game.Seat{},
		Events: []game.Event{t.abortEvent(seat, why)}}
}

// abortEvent is the "abort" event that tells a player their game ended
// without a result for seat, why saying what brought it about: the one
// event of a move that aborted the game, and the last of a wait the
// abort ended.
func (t *table) abortEvent(seat game.Seat, why string) game.Event {
	name := t.cfg.Name(seat)
	text := name + " aborted the game: it ends without a result"
	switch why {
	case AbortResign:
		text = name + " resigned before every player had moved: the game is aborted, without a result"
	case AbortTimeout:
		text = fmt.Sprintf("%s ran out of time before every player had moved: the game is aborted, without a result", name)
	case AbortClaim:
		text = name + " walked away before every player had moved: the game is aborted, without a result"
	}
	return game.Event{Kind: "abort", Text: text, Data: AbortEvent{Seat: seat, Why: why}}
}
