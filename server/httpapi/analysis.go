package httpapi

import "net/http"

// analysis serves GET /api/v1/tables/{id}/analysis from the service's
// analyses (server/analyses): the engines' analysis of a finished game
// (docs/analysis.md), 404 for no such table and 409 while the game goes
// on. The body is sent as the cache keeps it, encoded once.
func (h *Handler) analysis(w http.ResponseWriter, r *http.Request) {
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
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(body)
}
