package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"parlour/analysis"
	"parlour/server/refuse"
)

// analysis serves GET /api/v1/tables/{id}/analysis from the service's
// analyses (server/analyses): the engines' analysis of a finished game
// (docs/analysis.md), 404 for no such table and 409 while the game goes
// on. The body is sent as the cache keeps it, encoded once; with
// ?format=text it is the move list in words that `parlour analyse`
// prints, for a front end that shows text (the terminal client).
func (h *Handler) analysis(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if format != "" && format != "json" && format != "text" {
		h.fail(w, r, refuse.Bad("format %q is not json or text", refuse.Clip(format)))
		return
	}
	p, err := h.principal(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	body, err := h.analyses.Get(r.Context(), p, r.PathValue("id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if format == "text" {
		var a analysis.Analysis
		var text bytes.Buffer
		if err := json.Unmarshal(body, &a); err != nil {
			h.fail(w, r, fmt.Errorf("reading the analysis kept for %s: %w", r.PathValue("id"), err))
			return
		}
		if g, err := h.games.Lookup(a.Game); err == nil && a.Title == "" {
			a.Title = g.Title() // an analysis kept before titles were
		}
		a.WriteText(&text)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(text.Bytes())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}
