package httpapi

import (
	"errors"
	"net/http"

	"parlour/server/auth"
	"parlour/server/daily"
	"parlour/server/protocol"
)

func (h *Handler) dailyToday(r *http.Request, p *auth.Principal) (daily.Today, error) {
	return h.daily.Today(r.Context(), p, r.PathValue("game"))
}

// dailyStart answers a refused attempt with the refusal itself (409 and a
// daily.Refusal, which says when the next puzzle comes), not as an error,
// and so writes its own answer rather than go through handle.
func (h *Handler) dailyStart(w http.ResponseWriter, r *http.Request) {
	// The day's one attempt is not spent on a request it did not read.
	err := protocol.DecodeNone(r.Body, h.lim.MaxBody)
	var p *auth.Principal
	if err == nil {
		p, err = h.wholeIdentity(r)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	res, err := h.daily.Start(r.Context(), p, r.PathValue("game"))
	var dr *daily.Refusal
	if errors.As(err, &dr) {
		writeJSON(w, http.StatusConflict, dr)
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, res)
}

func (h *Handler) dailyBoard(r *http.Request, _ *auth.Principal) (daily.Board, error) {
	return h.daily.Leaderboard(r.Context(), r.PathValue("game"), r.PathValue("date"))
}

func (h *Handler) playerDaily(r *http.Request, _ *auth.Principal) (map[string]daily.Record, error) {
	return h.daily.Records(r.Context(), r.PathValue("name"))
}
