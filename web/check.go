package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"parlour/game"
	"parlour/lexicon"
)

// MaxCheckSize caps a setup sent to be checked.
const MaxCheckSize = 16 << 10

// checkRequest asks whether a secret setup would pass the referee, so that
// an editor can say what is wrong while the player is still at it.
type checkRequest struct {
	Game  string                     `json:"game"`
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	Setup json.RawMessage            `json:"setup"`
}

// checkSetup runs the game's own setup check with the default lexicon and
// returns the setup in canonical form, or the referee's refusal.
func checkSetup(reg *game.Registry, body []byte) (json.RawMessage, error) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	var req checkRequest
	if err := d.Decode(&req); err != nil {
		return nil, fmt.Errorf("not a setup check (%q, %q and %q): %v", "game", "rules", "setup", err)
	}
	g, err := reg.Lookup(req.Game)
	if err != nil {
		return nil, err
	}
	if !g.HasSetup() {
		return nil, fmt.Errorf("%s has no secret setup", g.Title())
	}
	rules, err := game.Resolve(g.Options(), req.Rules)
	if err != nil {
		return nil, err
	}
	lo, _ := g.Players()
	players := []string{"you", "them"}[:max(1, min(2, lo))]
	cfg := game.Config{Players: players, Rules: rules, Lexicon: lexicon.Default()}
	return g.CheckSetup(cfg, 0, req.Setup)
}

// serveCheck answers POST /check-setup: 200 with the canonical setup, or
// 422 with the referee's words.
func (h *handler) serveCheck(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxCheckSize+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, "reading the setup: "+err.Error())
		return
	}
	if len(body) > MaxCheckSize {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a setup to check is at most %d KiB", MaxCheckSize>>10))
		return
	}
	setup, err := checkSetup(h.reg, body)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	json.NewEncoder(w).Encode(map[string]json.RawMessage{"setup": setup})
}
