package server

import (
	"errors"
	"net/http"

	"parlour/server/auth"
)

func (h *Handler) dailyToday(r *http.Request, p *auth.Principal) (Daily, error) {
	return h.s.DailyToday(r.Context(), p, r.PathValue("game"))
}

// dailyStart answers a refused attempt with the refusal itself (409 and a
// DailyRefusal, which says when the next puzzle comes), not as an error,
// and so writes its own answer rather than go through handle.
func (h *Handler) dailyStart(w http.ResponseWriter, r *http.Request) {
	p, err := h.wholeIdentity(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	res, err := h.s.DailyStart(r.Context(), p, r.PathValue("game"))
	var dr *DailyRefusal
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

func (h *Handler) dailyBoard(r *http.Request, _ *auth.Principal) (DailyBoard, error) {
	return h.s.DailyLeaderboard(r.Context(), r.PathValue("game"), r.PathValue("date"))
}

func (h *Handler) playerDaily(r *http.Request, _ *auth.Principal) (map[string]DailyRecord, error) {
	return h.s.PlayerDaily(r.Context(), r.PathValue("name"))
}
