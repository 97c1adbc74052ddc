package web

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"parlour/game"
	"parlour/lexicon"
)

// MaxCheckSize caps a setup sent to be checked, and a request for a random
// setup.
const MaxCheckSize = 16 << 10

// checkRequest asks whether a secret setup would pass the referee, so that
// an editor can say what is wrong while the player is still at it.
type checkRequest struct {
	Game  string                     `json:"game"`
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	// Lexicon is the table's lexicon (see lexiconNamed).
	Lexicon string          `json:"lexicon,omitempty"`
	Setup   json.RawMessage `json:"setup"`
}

// checkSetup runs the game's own setup check with the table's lexicon and
// returns the setup in canonical form, or the referee's refusal.
func checkSetup(reg *game.Registry, body []byte) (json.RawMessage, error) {
	var req checkRequest
	more, err := decodeStrict(body, &req)
	if err != nil {
		return nil, fmt.Errorf("not a setup check (%q, %q, %q and %q): %v", "game", "rules", "lexicon", "setup", err)
	}
	if more {
		return nil, fmt.Errorf("there is more after the setup check")
	}
	g, cfg, err := setupConfig(reg, req.Game, req.Rules, req.Lexicon)
	if err != nil {
		return nil, err
	}
	return g.CheckSetup(cfg, 0, req.Setup)
}

// setupConfig finds a game with a secret setup and the configuration of a
// table with rules and the lexicon called lex, seen from its first seat.
func setupConfig(reg *game.Registry, name string, raw map[string]json.RawMessage, lex string) (game.Game, game.Config, error) {
	g, err := reg.Lookup(name)
	if err != nil {
		return nil, game.Config{}, err
	}
	l, err := lexiconNamed(lex)
	if err != nil {
		return nil, game.Config{}, err
	}
	if !g.HasSetup() {
		return nil, game.Config{}, fmt.Errorf("%s has no secret setup", g.Title())
	}
	rules, err := game.Resolve(g.Options(), raw)
	if err != nil {
		return nil, game.Config{}, err
	}
	lo, _ := g.Players()
	players := []string{"you", "them"}[:max(1, min(2, lo))]
	return g, game.Config{Players: players, Rules: rules, Lexicon: l}, nil
}

// lexiconNamed returns the embedded lexicon called name, as a table's view
// names it ("" for the default). Only the embedded lexicons are offered: a
// name is never taken as a path to a file.
func lexiconNamed(name string) (*lexicon.Lexicon, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return lexicon.Default(), nil
	}
	if !slices.Contains(lexicon.Names(), name) {
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		return nil, fmt.Errorf("there is no lexicon %q (there are %s)", name, strings.Join(lexicon.Names(), ", "))
	}
	return lexicon.Load(name)
}

// randomRequest asks for a random legal setup under a table's rules; a
// seed makes the answer repeatable.
type randomRequest struct {
	Game  string                     `json:"game"`
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	// Lexicon is the table's lexicon (see lexiconNamed).
	Lexicon string  `json:"lexicon,omitempty"`
	Seed    *uint64 `json:"seed,omitempty"`
}

// randomSetup makes the game's own random setup (Game.AutoSetup) for the
// first seat, from the request's seed or, without one, a fresh random one.
func randomSetup(reg *game.Registry, body []byte) (json.RawMessage, error) {
	var req randomRequest
	more, err := decodeStrict(body, &req)
	if err != nil {
		return nil, fmt.Errorf("not a request for a random setup (%q, %q, %q and %q): %v", "game", "rules", "lexicon", "seed", err)
	}
	if more {
		return nil, fmt.Errorf("there is more after the request for a random setup")
	}
	g, cfg, err := setupConfig(reg, req.Game, req.Rules, req.Lexicon)
	if err != nil {
		return nil, err
	}
	var seed uint64
	if req.Seed != nil {
		seed = *req.Seed
	} else {
		var b [8]byte
		rand.Read(b[:]) // never fails (crypto/rand panics rather than return an error)
		seed = binary.LittleEndian.Uint64(b[:])
	}
	setup, err := g.AutoSetup(cfg, 0, seed)
	if err != nil {
		return nil, fmt.Errorf("making a random setup for %s: %w", g.Title(), err)
	}
	return setup, nil
}

// readSmall reads a request body of at most limit bytes, or answers the
// request with an error (saying what) and returns false.
func readSmall(w http.ResponseWriter, r *http.Request, limit int, what string) ([]byte, bool) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, "reading "+what+": "+err.Error())
		return nil, false
	}
	if len(body) > limit {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%s is at most %d KiB", what, limit>>10))
		return nil, false
	}
	return body, true
}

// serveCheck answers POST /check-setup: 200 with the canonical setup, or
// 422 with the referee's words.
func (h *handler) serveCheck(w http.ResponseWriter, r *http.Request) {
	body, ok := readSmall(w, r, MaxCheckSize, "a setup to check")
	if !ok {
		return
	}
	setup, err := checkSetup(h.reg, body)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	json.NewEncoder(w).Encode(map[string]json.RawMessage{"setup": setup})
}

// serveRandom answers POST /random-setup: 200 with a random legal setup
// under the rules, or 422 saying why there is none.
func (h *handler) serveRandom(w http.ResponseWriter, r *http.Request) {
	body, ok := readSmall(w, r, MaxCheckSize, "a request for a random setup")
	if !ok {
		return
	}
	setup, err := randomSetup(h.reg, body)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	json.NewEncoder(w).Encode(map[string]json.RawMessage{"setup": setup})
}
