package httpapi

import (
	"net/http"

	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
)

func (h *Handler) abort(r *http.Request, p *auth.Principal) (table.AbortResult, error) {
	return h.tables.Abort(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) claim(r *http.Request, p *auth.Principal) (table.ClaimResult, error) {
	return h.tables.Claim(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) leave(r *http.Request, p *auth.Principal) (table.Left, error) {
	return h.tables.Leave(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) invitation(r *http.Request, _ *auth.Principal) (table.Invitation, error) {
	addr := h.clientAddr(r)
	if !h.codeMisses.OK(addr) {
		h.tables.RateLimited()
		return table.Invitation{}, refuse.TooMany("too many invite codes that lead nowhere from your address: check the code, and try again in a minute")
	}
	in, err := h.tables.Invitation(r.Context(), r.PathValue("code"))
	if refuse.Status(err) == http.StatusNotFound || refuse.Status(err) == http.StatusBadRequest {
		h.codeMisses.Allow(addr)
	}
	return in, err
}

// startRated applies the per-address cap on rated games that new
// accounts start to start, a join or a rematch of table id or an accept
// of challenge id: refused once the address has started its share, and
// counted only when start succeeds, so that a request refused for any
// other reason (a challenge of one's own, a seat already taken, a
// block) uses none of it (newRatedTurn).
func (h *Handler) startRated(r *http.Request, p *auth.Principal, id string, by table.Start, start func() (table.Seated, error)) (table.Seated, error) {
	rated, young := h.tables.RatedFor(r.Context(), p, id, by)
	done, err := h.newRatedTurn(h.clientAddr(r), rated && young)
	if err != nil {
		return table.Seated{}, err
	}
	seated, err := start()
	done(err == nil)
	return seated, err
}
