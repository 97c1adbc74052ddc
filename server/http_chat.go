package server

import (
	"net/http"
	"strconv"

	"parlour/server/refuse"
	"parlour/server/table"
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
			h.fail(w, r, refuse.Bad("since must be a message number (0 or more), not %q", refuse.Clip(v)))
			return
		}
	}
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > table.MaxChatPage {
			h.fail(w, r, refuse.Bad("limit must be a number from 1 to %d", table.MaxChatPage))
			return
		}
	}
	page, err := h.s.ChatSince(r.Context(), p, r.PathValue("id"), since, limit)
	h.reply(w, r, page, err)
}

func (h *Handler) chat(w http.ResponseWriter, r *http.Request) {
	var req table.ChatRequest
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
		h.s.RateLimited()
		return refuse.TooMany("too many chat messages from your address: wait a moment")
	}
	return nil
}

func (h *Handler) mute(w http.ResponseWriter, r *http.Request) {
	var req table.MuteRequest
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

// parseChatFrom reads ?chat=N, the number of the last chat message a
// stream's client saw; -1 when not given.
func parseChatFrom(r *http.Request) (int, error) {
	s := r.URL.Query().Get("chat")
	if s == "" {
		return -1, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, refuse.Bad("chat must be a message number (0 or more), not %q", refuse.Clip(s))
	}
	return n, nil
}
