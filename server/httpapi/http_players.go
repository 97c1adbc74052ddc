package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"parlour/server/auth"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/server/table"
)

func (h *Handler) addKey(r *http.Request, p *auth.Principal, req players.KeyRequest) (players.KeyInfo, error) {
	if _, _, err := players.ParseKey(req.Key); err == nil && req.Password != "" {
		// The password it checks counts against the sign-in limits, as a
		// password change's does. A key refused before the password is
		// looked at costs nothing: a player pasting the wrong line must
		// not be told they tried to sign in too often.
		if err := h.passwordCheckAllowed(r, p); err != nil {
			return players.KeyInfo{}, err
		}
	}
	return h.players.AddKey(r.Context(), p, req)
}

func (h *Handler) listKeys(r *http.Request, p *auth.Principal) (map[string]any, error) {
	ks, err := h.players.Keys(r.Context(), p)
	return map[string]any{"keys": ks}, err
}

func (h *Handler) deleteKey(r *http.Request, p *auth.Principal) (noContent, error) {
	return noContent{}, h.players.DeleteKey(r.Context(), p, r.PathValue("fingerprint"))
}

func (h *Handler) profile(r *http.Request, p *auth.Principal) (players.Profile, error) {
	return h.players.Profile(r.Context(), p, r.PathValue("name"))
}

func (h *Handler) history(r *http.Request, p *auth.Principal) (players.History, error) {
	limit, err := historyLimit(r)
	if err != nil {
		return players.History{}, err
	}
	q := r.URL.Query()
	return h.players.History(r.Context(), p, r.PathValue("name"), q.Get("game"), q.Get("before"), limit)
}

// exportGames serves GET /api/v1/players/{name}/games/export[?game=G]:
// every finished game of the account's public history, newest first, one
// record a line (application/x-ndjson), for a player's own archive or a
// program's study. A private table's game is there only for a player
// who sat at it (players.History). An attempt at a daily puzzle whose
// day is not over is left out, as its record is refused to everyone but
// its player until midnight. A failure after the first line ends the
// stream with an {"error"} line.
func (h *Handler) exportGames(w http.ResponseWriter, r *http.Request) {
	ctx, name, gameName, p := r.Context(), r.PathValue("name"), r.URL.Query().Get("game"), h.viewer(r)
	page, err := h.players.History(ctx, p, name, gameName, "", players.HistoryPageSize)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	file := page.Name
	if gameName != "" && len(page.Games) > 0 {
		file += "-" + page.Games[0].Game
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Content-Disposition", `attachment; filename="`+file+`-games.ndjson"`)
	// It holds the reader's private games, as every answer that may is
	// kept from caches (jsonHeader).
	w.Header().Set("Cache-Control", "no-store")
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	for {
		for _, g := range page.Games {
			rec, err := h.tables.Record(ctx, nil, g.Table)
			var no *refuse.Error
			if g.Daily != "" && errors.As(err, &no) && no.Status == http.StatusForbidden {
				continue
			}
			if err == nil {
				err = e.Encode(rec)
			}
			if err != nil {
				e.Encode(map[string]string{"error": refuse.Said(h.log, err)})
				return
			}
		}
		if page.Next == "" {
			return
		}
		if page, err = h.players.History(ctx, p, name, gameName, page.Next, players.HistoryPageSize); err != nil {
			e.Encode(map[string]string{"error": refuse.Said(h.log, err)})
			return
		}
	}
}

func (h *Handler) ownHistory(r *http.Request, p *auth.Principal) (players.History, error) {
	limit, err := historyLimit(r)
	if err != nil {
		return players.History{}, err
	}
	q := r.URL.Query()
	return h.players.OwnHistory(r.Context(), p, q.Get("game"), q.Get("before"), limit)
}

// historyLimit reads a history page's limit= (players.DefaultHistoryPage
// when absent).
func historyLimit(r *http.Request) (int, error) {
	l := r.URL.Query().Get("limit")
	if l == "" {
		return players.DefaultHistoryPage, nil
	}
	n, err := strconv.Atoi(l)
	if err != nil || n < 1 || n > players.HistoryPageSize {
		return 0, refuse.Bad("limit must be a number from 1 to %d", players.HistoryPageSize)
	}
	return n, nil
}

func (h *Handler) myTables(r *http.Request, p *auth.Principal) (map[string]any, error) {
	return map[string]any{"tables": h.players.MyTables(r.Context(), p)}, nil
}

// searchPlayers serves GET /api/v1/players?q=PREFIX[&limit=N]: the
// players whose names begin with PREFIX.
func (h *Handler) searchPlayers(r *http.Request, _ *auth.Principal) (players.Found, error) {
	q := r.URL.Query()
	if !q.Has("q") {
		return players.Found{}, refuse.Bad("say whom to find: ?q= and the start of their name")
	}
	limit := players.SearchSize
	if l := q.Get("limit"); l != "" {
		limit, _ = strconv.Atoi(l) // Search refuses what is not a number in range
	}
	return h.players.Search(r.Context(), q.Get("q"), limit)
}

func (h *Handler) leaderboards(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"pools": table.Pools(h.games)})
}

func (h *Handler) leaderboard(r *http.Request, _ *auth.Principal) (players.Leaderboard, error) {
	return h.players.Leaderboard(r.Context(), r.PathValue("pool"))
}
