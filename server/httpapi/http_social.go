package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"parlour/server/auth"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/server/seek"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
)

func (h *Handler) challenge(r *http.Request, p *auth.Principal, req social.ChallengeRequest) (social.Challenge, error) {
	addr := h.clientAddr(r)
	if !h.challengesByAddr.OK(addr) {
		h.tables.RateLimited()
		return social.Challenge{}, refuse.TooMany("too many challenges from your address: wait a minute")
	}
	info, err := h.social.Challenge(r.Context(), p, req)
	if err == nil {
		h.challengesByAddr.Allow(addr) // only challenges made count
	}
	return info, err
}

func (h *Handler) listChallenges(r *http.Request, p *auth.Principal) (map[string]any, error) {
	in, out, err := h.social.Challenges(r.Context(), p)
	return map[string]any{"in": in, "out": out}, err
}

func (h *Handler) accept(r *http.Request, p *auth.Principal) (table.Seated, error) {
	return h.startRated(r, p, r.PathValue("id"), table.ByChallenge, func() (table.Seated, error) {
		return h.social.Accept(r.Context(), p, r.PathValue("id"))
	})
}

func (h *Handler) decline(r *http.Request, p *auth.Principal) (social.Challenge, error) {
	return h.social.Decline(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) withdraw(r *http.Request, p *auth.Principal) (social.Challenge, error) {
	return h.social.Withdraw(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) online(r *http.Request, p *auth.Principal) (social.Online, error) {
	viewer := ""
	if p != nil {
		viewer = p.Identity
	}
	return h.social.OnlineTo(r.Context(), viewer) // less those who block the asker
}

func (h *Handler) settings(r *http.Request, p *auth.Principal) (players.Settings, error) {
	return h.players.Settings(r.Context(), p)
}

func (h *Handler) setSettings(r *http.Request, p *auth.Principal, req players.SettingsRequest) (players.Settings, error) {
	return h.players.SetSettings(r.Context(), p, req)
}

// stream serves GET /api/v1/stream: NDJSON, one StreamEvent a line, and
// an empty line every keep-alive. It opens with the asker's open
// challenges (as "challenge" lines), their seeks waiting ("seek") and
// their tables under way (as "gameStart" lines, and a "tournamentGame"
// line after each an event seated them at), then follows; it ends when
// the client goes away or the server shuts down. An open stream counts
// as being online.
func (h *Handler) stream(w http.ResponseWriter, r *http.Request) {
	p, err := h.signedIn(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	release, err := h.holdStream(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer release()
	// Subscribed before the opening lines are read, so that nothing
	// between them and the follow is missed (it may come twice).
	events, unsubscribe := h.social.Subscribe(p.Identity)
	defer unsubscribe()
	defer h.social.Hold(p.Identity)()
	var opening []social.StreamEvent
	if _, ok := h.st.(store.Challenges); ok {
		// A guest's stream has no challenges, and opens all the same.
		in, out, err := h.social.Challenges(r.Context(), p)
		if err != nil && refuse.Status(err) != http.StatusForbidden {
			h.fail(w, r, err)
			return
		}
		for _, c := range append(in, out...) {
			opening = append(opening, social.StreamEvent{Type: "challenge", Challenge: &c})
		}
	}
	if h.seeks != nil {
		for _, sk := range h.seeks.Waiting(r.Context(), p.Identity) {
			opening = append(opening, seek.SeekLine(sk))
		}
	}
	// Tables on a node that does not answer now are left out: their
	// gameStart lines come again at the stream's next opening.
	tables, _ := h.players.Seated(r.Context(), p.Identity)
	for _, t := range tables {
		// The challenge that opened the table, if any, as the line its
		// acceptance sent said: a challenger whose stream was away then
		// learns here that it was accepted, and where to play it.
		opening = append(opening, social.StreamEvent{Type: "gameStart", Table: &social.StreamTable{ID: t.ID, Game: t.Game, Seat: t.Seat, Rated: t.Rated, Challenge: t.Challenge}})
		if e := t.Event; e != nil {
			// The pairing again, as the event sent it: a stream that fell
			// behind or was opened since would not know this table is
			// the player's game in it.
			opening = append(opening, social.StreamEvent{Type: "tournamentGame", Tournament: &social.TournamentGame{
				Event: e.ID, Name: e.Name, Round: e.Round, Table: t.ID, Seat: t.Seat, Game: t.Game}})
		}
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	for _, ev := range opening {
		if e.Encode(ev) != nil {
			return
		}
	}
	if rc.Flush() != nil {
		return
	}
	ctx, unwatch := h.sessionContext(r, p)
	defer unwatch()
	tick := time.NewTicker(h.keepAlive)
	defer tick.Stop()
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				e.Encode(map[string]string{"error": "this stream fell behind; reconnect, and read GET /api/v1/challenges for what you missed"})
				return
			}
			if e.Encode(ev) != nil {
				return
			}
		case <-tick.C:
			if _, err := w.Write([]byte("\n")); err != nil {
				return
			}
		case <-ctx.Done():
			if errors.Is(context.Cause(ctx), errSessionEnded) {
				e.Encode(sessionEndedLine)
			}
			return
		case <-h.closing.Done():
			e.Encode(map[string]string{"error": table.ShuttingDown})
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}
