package server

import (
	"net/http"

	"parlour/server/auth"
	"parlour/server/refuse"
)

func (h *Handler) abort(w http.ResponseWriter, r *http.Request) {
	p, err := h.seated(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	res, err := h.s.Abort(r.Context(), p, r.PathValue("id"))
	h.reply(w, r, res, err)
}

func (h *Handler) claim(w http.ResponseWriter, r *http.Request) {
	p, err := h.seated(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	res, err := h.s.Claim(r.Context(), p, r.PathValue("id"))
	h.reply(w, r, res, err)
}

func (h *Handler) leave(w http.ResponseWriter, r *http.Request) {
	p, err := h.seated(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	res, err := h.s.Leave(r.Context(), p, r.PathValue("id"))
	h.reply(w, r, res, err)
}

func (h *Handler) invitation(w http.ResponseWriter, r *http.Request) {
	addr := h.clientAddr(r)
	if !h.codeMisses.OK(addr) {
		h.s.RateLimited()
		h.fail(w, r, refuse.TooMany("too many invite codes that lead nowhere from your address: check the code, and try again in a minute"))
		return
	}
	in, err := h.s.Invitation(r.Context(), r.PathValue("code"))
	if refuse.Status(err) == http.StatusNotFound || refuse.Status(err) == http.StatusBadRequest {
		h.codeMisses.Allow(addr)
	}
	h.reply(w, r, in, err)
}

// newRatedAllowed applies the per-address cap on rated games that new
// accounts start, for a join of table id or an accept of challenge id.
func (h *Handler) newRatedAllowed(r *http.Request, p *auth.Principal, id string, challenge bool) error {
	if rated, young := h.s.RatedFor(r.Context(), p, id, challenge); rated && young && !h.newRated.Allow(h.clientAddr(r)) {
		h.s.RateLimited()
		return refuse.TooMany("new accounts from your address have started too many rated games today: play casual games, or wait a day")
	}
	return nil
}
