package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"parlour/game"
	"parlour/lexicon"
)

// MaxReplaySize caps a record uploaded to the replay viewer.
const MaxReplaySize = 1 << 20

// MaxReplayMoves caps the moves of a record the replay viewer steps
// through, so that one upload cannot ask for an unbounded answer.
const MaxReplayMoves = 2000

// MaxReplayAnswer caps the views the viewer gets for one record, in bytes
// of JSON: every seat's view after every move adds up fast on a large
// Word Fight board.
const MaxReplayAnswer = 16 << 20

// replayStep is one move of a replayed record: who made it, the move, the
// events it caused (to every seat) and every seat's view after it.
type replayStep struct {
	By     string       `json:"by"`
	Seat   game.Seat    `json:"seat"`
	Move   string       `json:"move"`
	Events []game.Event `json:"events"`
	Views  []any        `json:"views"`
}

// replayAnswer is what the replay viewer gets for a record.
type replayAnswer struct {
	Game    string       `json:"game"`
	Title   string       `json:"title"`
	Players []string     `json:"players"`
	Start   []any        `json:"start"` // every seat's view before the first move
	Steps   []replayStep `json:"steps"`
	Result  game.Result  `json:"result"`
	// Refused says why the referee stopped, when a move or a setup of the
	// record is not legal; Steps then end before it.
	Refused string `json:"refused,omitempty"`
}

// replay re-referees a record and returns every seat's view before and
// after each move. The record holds every secret already, so every seat's
// view is the uploader's to see.
func replay(reg *game.Registry, body []byte) (*replayAnswer, error) {
	rec, err := game.DecodeBytes(body)
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
	switch name {
	case "en", "en-common", "en-large":
	default:
		return nil, fmt.Errorf("the record uses the word list %q, which this server does not hold", name)
	}
	lex, err := lexicon.Load(name)
	if err != nil {
		return nil, fmt.Errorf("loading the word list %s: %w", name, err)
	}
	g, cfg, st, err := game.Start(reg, rec, lex)
	if err != nil {
		return nil, err
	}
	ans := &replayAnswer{Game: g.Name(), Title: g.Title(), Players: cfg.Players, Steps: []replayStep{}}
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
		s, ok := cfg.SeatOf(m.By)
		if !ok {
			ans.Refused = (&game.Refusal{Move: i + 1, By: m.By, Err: fmt.Errorf("%q is not a player", m.By)}).Error()
			break
		}
		evs, err := st.Apply(s, m.Move)
		if err != nil {
			ans.Refused = (&game.Refusal{Move: i + 1, By: cfg.Players[s], Err: err}).Error()
			break
		}
		vs, err := snap(views())
		if err != nil {
			return nil, err
		}
		if evs == nil {
			evs = []game.Event{}
		}
		ans.Steps = append(ans.Steps, replayStep{By: cfg.Players[s], Seat: s, Move: m.Move, Events: evs, Views: vs})
	}
	ans.Result = st.Result()
	return ans, nil
}

// serveReplay answers POST /replay.
func (h *handler) serveReplay(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxReplaySize+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, "reading the record: "+err.Error())
		return
	}
	if len(body) > MaxReplaySize {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the record is larger than %d KiB", MaxReplaySize>>10))
		return
	}
	ans, err := replay(h.reg, bytes.TrimSpace(body))
	if err != nil {
		status := http.StatusUnprocessableEntity
		if errors.Is(err, game.ErrNotRecord) {
			status = http.StatusBadRequest
		}
		writeError(w, status, err.Error())
		return
	}
	json.NewEncoder(w).Encode(ans)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
