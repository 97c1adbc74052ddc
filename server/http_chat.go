package server

import (
	"net/http"

	"parlour/server/auth"
	"strconv"

	"parlour/server/refuse"
)

func (h *Handler) chatPage(r *http.Request, p *auth.Principal) (ChatPage, error) {
	q := r.URL.Query()
	since, limit := 0, 100
	var err error
	if v := q.Get("since"); v != "" {
		if since, err = strconv.Atoi(v); err != nil || since < 0 {
			return ChatPage{}, refuse.Bad("since must be a message number (0 or more), not %q", clip(v))
		}
	}
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > maxChatPage {
			return ChatPage{}, refuse.Bad("limit must be a number from 1 to %d", maxChatPage)
		}
	}
	return h.s.ChatSince(r.Context(), p, r.PathValue("id"), since, limit)
}

func (h *Handler) chat(r *http.Request, p *auth.Principal, req ChatRequest) (ChatLine, error) {
	if err := h.chatAllowed(h.clientAddr(r)); err != nil {
		return ChatLine{}, err
	}
	return h.s.Chat(r.Context(), p, r.PathValue("id"), req)
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

func (h *Handler) mute(r *http.Request, p *auth.Principal, req MuteRequest) (map[string][]string, error) {
	muted, err := h.s.Mute(r.Context(), p, r.PathValue("id"), req)
	return map[string][]string{"muted": append([]string{}, muted...)}, err
}
