package games

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"parlour/game"
	"parlour/lexicon"
)

// MaxReplayRecord caps a record sent to the replay viewer, in bytes.
const MaxReplayRecord = 1 << 20

// MaxReplayMoves caps the moves of a record the replay viewer steps
// through, so that one upload cannot ask for an unbounded answer.
const MaxReplayMoves = 2000

// MaxReplayAnswer caps the views the viewer gets for one record, in bytes
// of JSON: every seat's view after every move adds up fast on a large
// Word Fight board.
const MaxReplayAnswer = 16 << 20

// ReplayStep is one move of a replayed record: who made it, the move, the
// events it caused (to every seat) and every seat's view after it.
type ReplayStep struct {
	By     string       `json:"by"`
	Seat   game.Seat    `json:"seat"`
	Move   string       `json:"move"`
	Events []game.Event `json:"events"`
	Views  []any        `json:"views"`
}

// ReplayAnswer is what the replay viewer gets for a record.
type ReplayAnswer struct {
	Game    string       `json:"game"`
	Title   string       `json:"title"`
	Players []string     `json:"players"`
	Start   []any        `json:"start"` // every seat's view before the first move
	Steps   []ReplayStep `json:"steps"`
	Result  game.Result  `json:"result"`
	// Refused says why the referee stopped, when a move or a setup of the
	// record is not legal; Steps then end before it.
	Refused string `json:"refused,omitempty"`
}

// Replay re-referees a record (RECORDS.md), given as the bytes of its
// JSON, and returns every seat's view before and after each move. The
// record holds every secret already, so every seat's view is the
// sender's to see. A body that is not a record at all is refused with an
// error wrapping game.ErrNotRecord; a record whose game, lexicon or setup
// cannot be played is refused with another error; a record whose move is
// refused is an answer, with Refused saying why.
func Replay(reg *game.Registry, body []byte) (*ReplayAnswer, error) {
	return Helpers{Reg: reg}.Replay(body)
}

// Replay is the package's Replay, with h's word lists: a record of a
// table on one of them replays too.
func (h Helpers) Replay(body []byte) (*ReplayAnswer, error) {
	reg := h.Reg
	rec, err := game.DecodeBytes(bytes.TrimSpace(body))
	if err != nil {
		return nil, err
	}
	if len(rec.Moves) > MaxReplayMoves {
		return nil, fmt.Errorf("the record has %d moves; the viewer steps through at most %d", len(rec.Moves), MaxReplayMoves)
	}
	name := rec.Lexicon
	if name == "" {
		name = "en"
	}
	if !slices.Contains(lexicon.Names(), name) && !slices.ContainsFunc(h.House, func(l *lexicon.Lexicon) bool { return l.Name() == name }) {
		return nil, fmt.Errorf("the record uses the word list %q, which this server does not hold", clipText(name))
	}
	lex, err := h.lexiconNamed(name)
	if err != nil {
		return nil, fmt.Errorf("loading the word list %s: %w", name, err)
	}
	g, cfg, st, err := game.Start(reg, rec, lex)
	if err != nil {
		return nil, err
	}
	ans := &ReplayAnswer{Game: g.Name(), Title: g.Title(), Players: cfg.Players, Steps: []ReplayStep{}}
	views := func() []any {
		v := make([]any, len(cfg.Players))
		for i := range v {
			v[i] = st.View(game.Seat(i))
		}
		return v
	}
	// Views are values built afresh by each call, but marshal them now so
	// that later moves cannot change what an earlier step shows.
	size := 0
	snap := func(vs []any) ([]any, error) {
		out := make([]any, len(vs))
		for i, v := range vs {
			b, err := json.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("encoding a view: %w", err)
			}
			if size += len(b); size > MaxReplayAnswer {
				return nil, fmt.Errorf("the record is too long for the viewer to step through (its views pass %d MiB); parlour replay reads it", MaxReplayAnswer>>20)
			}
			out[i] = json.RawMessage(b)
		}
		return out, nil
	}
	if ans.Start, err = snap(views()); err != nil {
		return nil, err
	}
	for i, m := range rec.Moves {
		s, evs, err := game.ReplayMove(g, cfg, st, i, m)
		if err != nil {
			ans.Refused = err.Error()
			break
		}
		vs, err := snap(views())
		if err != nil {
			return nil, err
		}
		if evs == nil {
			evs = []game.Event{}
		}
		ans.Steps = append(ans.Steps, ReplayStep{By: cfg.Players[s], Seat: s, Move: m.Move, Events: evs, Views: vs})
	}
	if ans.Refused == "" {
		// An abort stands after the moves; it changes no view.
		if st, err = game.ReplayAbort(cfg, rec, st); err != nil {
			ans.Refused = err.Error()
		}
	}
	ans.Result = st.Result()
	return ans, nil
}
