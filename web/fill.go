package web

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/games/quizl/bot"
)

// fillTimeout bounds the strong grid maker, which plays each filling it
// tries against a panel of solvers.
const fillTimeout = 20 * time.Second

// fillRequest asks for a Quizl grid around a password the player chose,
// kept on the line they wrote it on: only the other 20 squares are filled.
type fillRequest struct {
	Game  string                     `json:"game"`
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	// Lexicon is the table's lexicon (see lexiconNamed).
	Lexicon  string `json:"lexicon,omitempty"`
	Password string `json:"password"`
	// Line is where the password lies: 0-4 for rows 5-9, 5-9 for
	// columns 0-4 (quizl.Line).
	Line *int `json:"line"`
	// Maker is "random" for a random filling, or the level of the
	// computer's grid maker ("easy", "medium", "strong") for a deceptive
	// one. It defaults to "random".
	Maker string  `json:"maker,omitempty"`
	Seed  *uint64 `json:"seed,omitempty"`
}

// fillAnswer is the filled grid, in the record's notation, and whether
// the grid maker had to fall back to a random filling.
type fillAnswer struct {
	Setup  json.RawMessage `json:"setup"`
	Random bool            `json:"random,omitempty"`
}

// fillSetup fills a Quizl grid around the request's password and line,
// at random or with the computer's grid maker of the level asked.
func fillSetup(ctx context.Context, reg *game.Registry, body []byte) (fillAnswer, error) {
	var req fillRequest
	more, err := decodeStrict(body, &req)
	if err != nil {
		return fillAnswer{}, fmt.Errorf("not a request to fill a grid (%q, %q, %q, %q and %q): %v", "game", "password", "line", "maker", "seed", err)
	}
	if more {
		return fillAnswer{}, fmt.Errorf("there is more after the request to fill a grid")
	}
	if strings.ToLower(strings.TrimSpace(req.Game)) != "quizl" {
		return fillAnswer{}, fmt.Errorf("only a Quizl grid can be filled around a password, not %q", clipText(req.Game))
	}
	_, cfg, err := setupConfig(reg, "quizl", req.Rules, req.Lexicon)
	if err != nil {
		return fillAnswer{}, err
	}
	pw := strings.ToUpper(strings.TrimSpace(req.Password))
	if pw == "" {
		return fillAnswer{}, fmt.Errorf("write your password first: the computer fills the squares around it")
	}
	if err := quizl.CheckPassword(pw, cfg.Lexicon); err != nil {
		return fillAnswer{}, err
	}
	if req.Line == nil || *req.Line < 0 || *req.Line >= quizl.Lines {
		return fillAnswer{}, fmt.Errorf("say which line holds the password: a row (5-9) or a column (0-4)")
	}
	line := quizl.Line(*req.Line)
	var seed uint64
	if req.Seed != nil {
		seed = *req.Seed
	} else {
		var b [8]byte
		rand.Read(b[:]) // never fails
		seed = binary.LittleEndian.Uint64(b[:])
	}
	var g *quizl.Grid
	var random bool
	switch maker := strings.ToLower(strings.TrimSpace(req.Maker)); maker {
	case "", "random":
		g, err = quizl.RandomGridOn(pw, line, cfg.Lexicon, seed)
	case game.Easy, game.Medium, game.Strong:
		ctx, cancel := context.WithTimeout(ctx, fillTimeout)
		defer cancel()
		g, random, err = bot.GridOn(ctx, pw, line, maker, seed, cfg.Lexicon)
	default:
		return fillAnswer{}, fmt.Errorf("the grid maker is random, easy, medium or strong, not %q", clipText(maker))
	}
	if err != nil {
		return fillAnswer{}, fmt.Errorf("filling a grid around %s on %s: %w", pw, line, err)
	}
	return fillAnswer{Setup: g.Setup(), Random: random}, nil
}

// clipText shortens what a request said for an error message.
func clipText(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// serveFill answers POST /fill-setup: 200 with the grid, or 422 saying
// what is wrong with the request in a player's words.
func (h *handler) serveFill(w http.ResponseWriter, r *http.Request) {
	body, ok := readSmall(w, r, MaxCheckSize, "a request to fill a grid")
	if !ok {
		return
	}
	ans, err := fillSetup(r.Context(), h.reg, body)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	json.NewEncoder(w).Encode(ans)
}
