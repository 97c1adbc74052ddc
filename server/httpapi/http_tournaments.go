package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/protocol"
	"parlour/server/refuse"
	"parlour/server/tournament"
)

// The events' routes (docs/tournaments.md): an event made, listed, read
// with its standings, joined, left, started early or cancelled by its
// creator, and its finished games' records exported as NDJSON.
func (h *Handler) tournamentRoutes() {
	h.mux.HandleFunc("POST /api/v1/tournaments", h.postTournament)
	h.mux.HandleFunc("GET /api/v1/tournaments", handle(h, byAnyone, http.StatusOK, h.listTournaments))
	h.mux.HandleFunc("GET /api/v1/tournaments/{id}", handle(h, byIdentity, http.StatusOK, h.getTournament))
	h.mux.HandleFunc("POST /api/v1/tournaments/{id}/join", h.joinTournament)
	h.mux.HandleFunc("POST /api/v1/tournaments/{id}/leave", handle(h, bySignedIn, http.StatusOK, h.leaveTournament))
	h.mux.HandleFunc("POST /api/v1/tournaments/{id}/start", handle(h, bySignedIn, http.StatusOK, h.startTournament))
	h.mux.HandleFunc("POST /api/v1/tournaments/{id}/cancel", handle(h, bySignedIn, http.StatusOK, h.cancelTournament))
	h.mux.HandleFunc("GET /api/v1/tournaments/{id}/export", h.exportTournament)
}

// noTournaments refuses every events' route on a server built without
// them.
func noTournaments() error {
	return refuse.With(http.StatusNotImplemented, "this server runs no tournaments")
}

// postTournament serves POST /api/v1/tournaments: 201 with the event.
func (h *Handler) postTournament(w http.ResponseWriter, r *http.Request) {
	if h.tournaments == nil {
		h.fail(w, r, noTournaments())
		return
	}
	req, err := protocol.DecodeTournamentRequest(r.Body, h.lim.MaxBody)
	var p *auth.Principal
	if err == nil {
		p, err = h.signedIn(r)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	ev, err := h.tournaments.Create(r.Context(), p, req)
	h.answer(w, r, http.StatusCreated, ev, err)
}

// listTournaments serves GET /api/v1/tournaments[?status=created|started|finished].
func (h *Handler) listTournaments(r *http.Request, _ *auth.Principal) (map[string][]tournament.Event, error) {
	if h.tournaments == nil {
		return nil, noTournaments()
	}
	evs, err := h.tournaments.List(r.Context(), r.URL.Query().Get("status"))
	return map[string][]tournament.Event{"tournaments": evs}, err
}

// TournamentWait is the longest GET /api/v1/tournaments/{id}?version=N
// waits for the event to change: under the idle timeouts of the proxies
// in front of most servers.
const TournamentWait = 25 * time.Second

// getTournament serves GET /api/v1/tournaments/{id}[?version=N]: with a
// version, the answer waits (up to TournamentWait) while the event is
// still at that version, so that a page or program follows the event
// with one request at a time rather than polling.
func (h *Handler) getTournament(r *http.Request, p *auth.Principal) (tournament.Event, error) {
	if h.tournaments == nil {
		return tournament.Event{}, noTournaments()
	}
	id := r.PathValue("id")
	if q := r.URL.Query().Get("version"); q != "" {
		seen, err := strconv.Atoi(q)
		if err != nil {
			return tournament.Event{}, refuse.Bad("the version is the number an answer gave, not %q", refuse.Clip(q))
		}
		v, changed, err := h.tournaments.Mark(r.Context(), id)
		if err != nil {
			return tournament.Event{}, err
		}
		if v == seen && changed != nil {
			release, err := h.holdStream(r)
			if err != nil {
				return tournament.Event{}, err
			}
			t := time.NewTimer(TournamentWait)
			select {
			case <-changed:
			case <-t.C:
			case <-r.Context().Done():
			case <-h.closing.Done():
			}
			t.Stop()
			release()
		}
	}
	return h.tournaments.GetFor(r.Context(), p, id)
}

// joinTournament serves POST /api/v1/tournaments/{id}/join {"password"?}:
// any identity joins (a guest a casual event), with its body read
// strictly and allowed to be empty.
func (h *Handler) joinTournament(w http.ResponseWriter, r *http.Request) {
	if h.tournaments == nil {
		h.fail(w, r, noTournaments())
		return
	}
	req, err := protocol.DecodeJoinTournamentRequest(r.Body, h.lim.MaxBody)
	var p *auth.Principal
	if err == nil {
		p, err = h.signedIn(r)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	ev, err := h.tournaments.Join(r.Context(), p, r.PathValue("id"), req.Password)
	h.reply(w, r, ev, err)
}

func (h *Handler) leaveTournament(r *http.Request, p *auth.Principal) (tournament.Event, error) {
	if h.tournaments == nil {
		return tournament.Event{}, noTournaments()
	}
	return h.tournaments.Leave(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) startTournament(r *http.Request, p *auth.Principal) (tournament.Event, error) {
	if h.tournaments == nil {
		return tournament.Event{}, noTournaments()
	}
	return h.tournaments.Start(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) cancelTournament(r *http.Request, p *auth.Principal) (tournament.Event, error) {
	if h.tournaments == nil {
		return tournament.Event{}, noTournaments()
	}
	return h.tournaments.Cancel(r.Context(), p, r.PathValue("id"))
}

// exportTournament serves GET /api/v1/tournaments/{id}/export: every
// finished game of the event, one record a line (application/x-ndjson).
// A failure after the first line ends the stream with an {"error"} line.
func (h *Handler) exportTournament(w http.ResponseWriter, r *http.Request) {
	if h.tournaments == nil {
		h.fail(w, r, noTournaments())
		return
	}
	id := r.PathValue("id")
	if _, err := h.tournaments.Get(r.Context(), id); err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Content-Disposition", `attachment; filename="`+id+`.ndjson"`)
	w.Header().Set("Cache-Control", "no-store") // it grows as the event's games end
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	err := h.tournaments.Export(r.Context(), id, func(rec *game.Record) error { return e.Encode(rec) })
	if err != nil {
		e.Encode(map[string]string{"error": refuse.Said(h.log, err)})
	}
}
