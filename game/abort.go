package game

import (
	"fmt"
	"time"
)

// Abort is how a record says its game was aborted: who aborted it, and
// when. An abort is not a move (in Nymphabet ABORT is a word), so it
// stands beside the record's moves, which stay as they were played.
type Abort struct {
	By string     `json:"by"`
	At *time.Time `json:"at,omitempty"`
}

// Abortable reports whether a play of cfg's players with moves so far may
// be aborted: it seats two or more players and one of them has not yet
// made a move of their own. Until then nobody has shown their hand, so
// ending the game without a result wrongs nobody; afterwards a game ends
// only by its rules or by a resignation that loses it. A one-seat play
// (solitaire, practice, a daily puzzle) has nobody to abort against: it
// is resigned, never aborted. The caller checks that the play is still in
// progress. Setups are not moves.
func Abortable(cfg Config, moves []Move) bool {
	return AbortableBy(len(cfg.Players), len(moves), func(i int) Seat {
		if s, ok := cfg.SeatOf(moves[i].By); ok {
			return s
		}
		return Spectator
	})
}

// AbortableBy is Abortable for a play of n players that has made moves
// moves so far, move i by the seat mover(i) returns: for a caller that
// keeps its moves by seat rather than by name, as a table in memory does.
// A table asks each time it describes itself, on every move, so the
// seats come by index rather than from an iterator, whose loop would put
// its state on the heap: up to eight players, no allocation.
func AbortableBy(n, moves int, mover func(i int) Seat) bool {
	if n < 2 {
		return false
	}
	var few [8]bool
	moved := few[:]
	if n > len(few) {
		moved = make([]bool, n)
	}
	left := n
	for i := range moves {
		if s := mover(i); s >= 0 && int(s) < n && !moved[s] {
			moved[s] = true
			if left--; left == 0 {
				return false
			}
		}
	}
	return true
}

// AbortRefusal returns why a play of cfg with moves so far and result res
// may not be aborted now, in a player's words, or nil when it may.
func AbortRefusal(cfg Config, moves []Move, res Result) error {
	switch {
	case res.Status.Over():
		return fmt.Errorf("the game is over")
	case len(cfg.Players) < 2:
		return fmt.Errorf("a game of one player cannot be aborted: resign it instead")
	case !Abortable(cfg, moves):
		return fmt.Errorf("every player has made a move, so the game can no longer be aborted: resign it instead")
	}
	return nil
}

// AbortPlay returns st ended without a result, aborted by seat by: it takes
// no more moves, has nobody to move, and its Result has status Aborted,
// no winners and no scores. Its views are st's as they stood.
func AbortPlay(st State, by Seat) State { return abortedState{st, by} }

// AbortedBy reports who aborted st, when AbortPlay made it.
func AbortedBy(st State) (Seat, bool) {
	a, ok := st.(abortedState)
	return a.by, ok
}

type abortedState struct {
	State
	by Seat
}

func (abortedState) ToMove() []Seat { return nil }

func (abortedState) Apply(Seat, string) ([]Event, error) {
	return nil, fmt.Errorf("%w: the game was aborted", ErrNotYourTurn)
}

func (abortedState) Result() Result { return Result{Status: Aborted, Winners: []Seat{}} }
