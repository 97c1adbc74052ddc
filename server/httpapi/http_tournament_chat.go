package httpapi

import (
	"net/http"
	"strconv"

	"parlour/server/auth"
	"parlour/server/chat"
	"parlour/server/protocol"
	"parlour/server/refuse"
)

// The events' chat (docs/tournaments.md): read by anybody, written by
// players with an account and by the event's own players.
func (h *Handler) tournamentChatRoutes() {
	h.mux.HandleFunc("GET /api/v1/tournaments/{id}/chat", handle(h, byViewer, http.StatusOK, h.tournamentChatPage))
	h.mux.HandleFunc("POST /api/v1/tournaments/{id}/chat", handleJSON(h, bySignedIn, http.StatusOK, h.tournamentChat))
	h.mux.HandleFunc("POST /api/v1/tournaments/{id}/chat/mute", handleJSON(h, bySignedIn, http.StatusOK, h.tournamentChatMute))
}

// tournamentChatPage serves GET /api/v1/tournaments/{id}/chat[?since=N&limit=L]:
// the lines after number N, oldest first, without those of the players
// the reader blocks, as at a table.
func (h *Handler) tournamentChatPage(r *http.Request, p *auth.Principal) (chat.RoomPage, error) {
	if h.tournaments == nil {
		return chat.RoomPage{}, noTournaments()
	}
	q := r.URL.Query()
	since, limit := 0, 100
	var err error
	if v := q.Get("since"); v != "" {
		if since, err = strconv.Atoi(v); err != nil || since < 0 {
			return chat.RoomPage{}, refuse.Bad("since must be a message number (0 or more), not %q", refuse.Clip(v))
		}
	}
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > chat.MaxPage {
			return chat.RoomPage{}, refuse.Bad("limit must be a number from 1 to %d", chat.MaxPage)
		}
	}
	room, err := h.tournaments.Room(r.Context(), r.PathValue("id"))
	if err != nil {
		return chat.RoomPage{}, err
	}
	var hidden map[string]bool
	if p != nil && h.rel != nil {
		if hidden, err = h.rel.Hidden(r.Context(), p.Identity); err != nil {
			return chat.RoomPage{}, refuse.ReadFailed(h.log, "your blocks", err)
		}
	}
	return room.Since(r.Context(), since, limit, hidden)
}

// tournamentChat serves POST /api/v1/tournaments/{id}/chat {"text"}.
func (h *Handler) tournamentChat(r *http.Request, p *auth.Principal, req protocol.TournamentChat) (chat.RoomLine, error) {
	if h.tournaments == nil {
		return chat.RoomLine{}, noTournaments()
	}
	room, err := h.tournaments.Room(r.Context(), r.PathValue("id"))
	if err != nil {
		return chat.RoomLine{}, err
	}
	// The door limits an address's lines, across tables and rooms.
	sent, err := h.chatAllowed(h.clientAddr(r))
	if err != nil {
		return chat.RoomLine{}, err
	}
	line, err := room.Post(r.Context(), p.Identity, "", req.Text)
	if err == nil {
		sent()
	}
	return line, err
}

// tournamentChatMute serves POST /api/v1/tournaments/{id}/chat/mute
// {"name", "muted"}: the event's creator mutes a writer, or lets them
// write again.
func (h *Handler) tournamentChatMute(r *http.Request, p *auth.Principal, req protocol.TournamentChatMute) (map[string]bool, error) {
	if h.tournaments == nil {
		return nil, noTournaments()
	}
	if err := req.Check(); err != nil {
		return nil, err
	}
	room, err := h.tournaments.Room(r.Context(), r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	who, err := h.tournaments.WriterNamed(r.Context(), r.PathValue("id"), req.Name)
	if err != nil {
		return nil, err
	}
	if err := room.Mute(r.Context(), p.Identity, who, *req.Muted); err != nil {
		return nil, err
	}
	return map[string]bool{"muted": *req.Muted}, nil
}
