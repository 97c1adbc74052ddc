package server

import (
	"net/http"
	"strconv"

	"parlour/server/refuse"
)

func (h *Handler) chatPage(w http.ResponseWriter, r *http.Request) {
	p, err := h.principal(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	since, limit := 0, 100
	if v := q.Get("since"); v != "" {
		if since, err = strconv.Atoi(v); err != nil || since < 0 {
			h.fail(w, r, refuse.Bad("since must be a message number (0 or more), not %q", clip(v)))
			return
		}
	}
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > maxChatPage {
			h.fail(w, r, refuse.Bad("limit must be a number from 1 to %d", maxChatPage))
			return
		}
	}
	page, err := h.s.ChatSince(r.Context(), p, r.PathValue("id"), since, limit)
	h.reply(w, r, page, err)
}

func (h *Handler) chat(w http.ResponseWriter, r *http.Request) {
	var req ChatRequest
	if err := decodeJSON(r.Body, h.lim.MaxBody, &req); err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := h.principal(r)
	if err == nil {
		err = h.chatAllowed(h.clientAddr(r))
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	line, err := h.s.Chat(r.Context(), p, r.PathValue("id"), req)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, line)
}

// chatAllowed applies the per-address limit on chat messages, which the
// doors apply since only they know the address.
func (h *Handler) chatAllowed(addr string) error {
	if !h.chatByAddr.Allow(addr) {
		h.s.metrics.limited.Add(1)
		return refuse.TooMany("too many chat messages from your address: wait a moment")
	}
	return nil
}

func (h *Handler) mute(w http.ResponseWriter, r *http.Request) {
	var req MuteRequest
	if err := decodeJSON(r.Body, h.lim.MaxBody, &req); err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := h.principal(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	muted, err := h.s.Mute(r.Context(), p, r.PathValue("id"), req)
	h.reply(w, r, map[string][]string{"muted": append([]string{}, muted...)}, err)
}
