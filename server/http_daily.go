package server

import (
	"errors"
	"net/http"
)

func (h *Handler) dailyToday(w http.ResponseWriter, r *http.Request) {
	p, err := h.wholeIdentity(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	res, err := h.s.DailyToday(r.Context(), p, r.PathValue("game"))
	h.reply(w, r, res, err)
}

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

func (h *Handler) dailyBoard(w http.ResponseWriter, r *http.Request) {
	res, err := h.s.DailyLeaderboard(r.Context(), r.PathValue("game"), r.PathValue("date"))
	h.reply(w, r, res, err)
}

func (h *Handler) playerDaily(w http.ResponseWriter, r *http.Request) {
	res, err := h.s.PlayerDaily(r.Context(), r.PathValue("name"))
	h.reply(w, r, res, err)
}
