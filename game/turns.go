package game

import (
	"errors"
	"fmt"

	"parlour/lexicon"
)

// Turn is one move of a record as its mover lived it: the mover's view
// just before the move, the mover's view just after it, and the events of
// the move the mover saw. The engines annotate a finished game from turns
// alone, so an annotation can only use what the mover could see then.
//
// After is the view once the move was applied; after the game's last move
// every view reveals everything, so analysers should read from After only
// what the move itself told its mover (its events, or what the view
// records of that move).
type Turn struct {
	// Index is the move's 1-based index into the record's moves.
	Index  int
	Seat   Seat
	By     string
	Move   string
	Before any
	After  any
	// Events are the move's events that the mover may see.
	Events []Event
}

// ErrInProgress is returned by Turns for a record of a game that has not
// ended: analysing it would help a player in a game still being played.
var ErrInProgress = errors.New("the game is still in progress")

// Turns replays rec with lex and returns its configuration, its result and
// every move as its mover saw it. It refuses a record that does not replay
// (the *Refusal of Replay, for its abort too), one whose game was
// aborted, and, wrapping ErrInProgress, one whose game has not ended.
func Turns(reg *Registry, rec *Record, lex *lexicon.Lexicon) (Config, Result, []Turn, error) {
	g, cfg, st, err := Start(reg, rec, lex)
	if err != nil {
		return cfg, Result{}, nil, err
	}
	turns := make([]Turn, 0, len(rec.Moves))
	for i, m := range rec.Moves {
		var before any
		if s, ok := cfg.SeatOf(m.By); ok {
			before = st.View(s)
		}
		s, evs, err := ReplayMove(g, cfg, st, i, m)
		if err != nil {
			return cfg, Result{}, nil, err
		}
		turns = append(turns, Turn{
			Index: i + 1, Seat: s, By: cfg.Players[s], Move: m.Move,
			Before: before, After: st.View(s), Events: VisibleTo(evs, s),
		})
	}
	if st, err = ReplayAbort(cfg, rec, st); err != nil {
		return cfg, Result{}, nil, err
	}
	if by, ok := AbortedBy(st); ok {
		return cfg, st.Result(), turns, fmt.Errorf("the game was aborted by %s before every player had moved: there is nothing to analyse", cfg.Players[by])
	}
	res := st.Result()
	if res.Status != Finished {
		return cfg, res, turns, fmt.Errorf("%w after %s: analysis waits for the end", ErrInProgress, Count(len(rec.Moves), "move", "moves"))
	}
	return cfg, res, turns, nil
}
