package httpapi

import (
	"net/http"

	"strconv"

	"parlour/server/auth"
	"parlour/server/table"

	"parlour/server/refuse"
)

func (h *Handler) chatPage(r *http.Request, p *auth.Principal) (table.ChatPage, error) {
	q := r.URL.Query()
	since, limit := 0, 100
	var err error
	if v := q.Get("since"); v != "" {
		if since, err = strconv.Atoi(v); err != nil || since < 0 {
			return table.ChatPage{}, refuse.Bad("since must be a message number (0 or more), not %q", refuse.Clip(v))
		}
	}
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > table.MaxChatPage {
			return table.ChatPage{}, refuse.Bad("limit must be a number from 1 to %d", table.MaxChatPage)
		}
	}
	return h.tables.ChatSince(r.Context(), p, r.PathValue("id"), since, limit)
}

func (h *Handler) chat(r *http.Request, p *auth.Principal, req table.ChatRequest) (table.ChatLine, error) {
	sent, err := h.chatAllowed(h.clientAddr(r))
	if err != nil {
		return table.ChatLine{}, err
	}
	line, err := h.tables.Chat(r.Context(), p, r.PathValue("id"), req)
	if err == nil {
		sent()
	}
	return line, err
}

// chatAllowed applies the per-address limit on chat messages, which the
// doors apply since only they know the address. Only messages sent
// count (sent, called once one is): a writer whose messages are refused,
// a muted one say, would otherwise silence everyone behind the same
// address.
func (h *Handler) chatAllowed(addr string) (sent func(), err error) {
	if !h.chatByAddr.OK(addr) {
		h.tables.RateLimited()
		return nil, refuse.TooMany("too many chat messages from your address: wait a moment")
	}
	return func() { h.chatByAddr.Allow(addr) }, nil
}

func (h *Handler) mute(r *http.Request, p *auth.Principal, req table.MuteRequest) (map[string][]string, error) {
	muted, err := h.tables.Mute(r.Context(), p, r.PathValue("id"), req)
	return map[string][]string{"muted": append([]string{}, muted...)}, err
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
