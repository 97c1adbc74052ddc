package server

import (
	"net/http"

	"parlour/server/auth"
	"parlour/server/refuse"
)

func (h *Handler) abort(r *http.Request, p *auth.Principal) (AbortResult, error) {
	return h.s.Abort(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) claim(r *http.Request, p *auth.Principal) (ClaimResult, error) {
	return h.s.Claim(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) leave(r *http.Request, p *auth.Principal) (Left, error) {
	return h.s.Leave(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) invitation(r *http.Request, _ *auth.Principal) (Invitation, error) {
	addr := h.clientAddr(r)
	if !h.codeMisses.OK(addr) {
		h.s.metrics.limited.Add(1)
		return Invitation{}, refuse.TooMany("too many invite codes that lead nowhere from your address: check the code, and try again in a minute")
	}
	in, err := h.s.Invitation(r.Context(), r.PathValue("code"))
	if refuse.Status(err) == http.StatusNotFound || refuse.Status(err) == http.StatusBadRequest {
		h.codeMisses.Allow(addr)
	}
	return in, err
}

// newRatedAllowed applies the per-address cap on rated games that new
// accounts start, for a join of table id or an accept of challenge id.
func (h *Handler) newRatedAllowed(r *http.Request, p *auth.Principal, id string, challenge bool) error {
	if rated, young := h.s.ratedFor(r.Context(), p, id, challenge); rated && young && !h.newRated.Allow(h.clientAddr(r)) {
		h.s.metrics.limited.Add(1)
		return refuse.TooMany("new accounts from your address have started too many rated games today: play casual games, or wait a day")
	}
	return nil
}
