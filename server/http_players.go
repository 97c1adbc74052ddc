package server

import (
	"net/http"
	"strconv"

	"parlour/server/refuse"
	"parlour/server/table"
)

func (h *Handler) addKey(w http.ResponseWriter, r *http.Request) {
	var req KeyRequest
	if err := decodeJSON(r.Body, h.lim.MaxBody, &req); err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := h.signedIn(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	k, err := h.s.AddKey(r.Context(), p, req.Key)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, k)
}

func (h *Handler) listKeys(w http.ResponseWriter, r *http.Request) {
	p, err := h.signedIn(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	ks, err := h.s.Keys(r.Context(), p)
	h.reply(w, r, map[string]any{"keys": ks}, err)
}

func (h *Handler) deleteKey(w http.ResponseWriter, r *http.Request) {
	p, err := h.signedIn(r)
	if err == nil {
		err = h.s.DeleteKey(r.Context(), p, r.PathValue("fingerprint"))
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) profile(w http.ResponseWriter, r *http.Request) {
	p, err := h.s.Profile(r.Context(), r.PathValue("name"))
	h.reply(w, r, p, err)
}

func (h *Handler) history(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := DefaultHistoryPage
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > HistoryPageSize {
			h.fail(w, r, refuse.Bad("limit must be a number from 1 to %d", HistoryPageSize))
			return
		}
		limit = n
	}
	res, err := h.s.History(r.Context(), r.PathValue("name"), q.Get("game"), q.Get("before"), limit)
	h.reply(w, r, res, err)
}

func (h *Handler) myTables(w http.ResponseWriter, r *http.Request) {
	p, err := h.signedIn(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tables": h.s.MyTables(r.Context(), p)})
}

func (h *Handler) leaderboards(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"pools": table.Pools(h.s.games)})
}

func (h *Handler) leaderboard(w http.ResponseWriter, r *http.Request) {
	lb, err := h.s.Leaderboard(r.Context(), r.PathValue("pool"))
	h.reply(w, r, lb, err)
}
