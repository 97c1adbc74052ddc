package httpapi

import (
	"net/http"
	"strings"

	"parlour/server/auth"
	"parlour/server/protocol"
	"parlour/server/refuse"
	"parlour/server/seek"
)

// postSeek serves POST /api/v1/seeks: 201 with {"status": "waiting",
// "seek"} or, when it paired at once, {"status": "paired" or "computer",
// "table"} holding the asker's seat and its token. Seeks are limited per
// identity and per address; only seeks made count.
func (h *Handler) postSeek(w http.ResponseWriter, r *http.Request) {
	req, err := protocol.DecodeSeekRequest(r.Body, h.lim.MaxBody)
	var p *auth.Principal
	if err == nil {
		p, err = h.signedIn(r)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	addr := h.clientAddr(r)
	if !h.seeksByAddr.OK(addr) || !h.seeksByID.OK(p.Identity) {
		h.tables.RateLimited()
		h.fail(w, r, refuse.TooMany("too many seeks in a short time: wait a few seconds"))
		return
	}
	young := req.Rated && h.tables.Young(r.Context(), p)
	done, err := h.newRatedTurn(addr, young)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	ans, err := h.seeks.Seek(r.Context(), p, req)
	done(err == nil && ans.Status == "paired")
	if err == nil {
		h.seeksByAddr.Allow(addr)
		h.seeksByID.Allow(p.Identity)
	}
	h.answer(w, r, http.StatusCreated, ans, err)
}

// newRatedTurn waits for addr's turn to try a start that could begin a
// rated game for a young account (young), and refuses it when the
// address has started as many as the cap allows; done ends the turn,
// counting the game when one started. The check, the start and the count
// are one turn, so that starts side by side cannot all pass the check.
// Only what starts a game counts: a seek that waits starts nothing, and
// the seek or accept that pairs with it is the one counted.
func (h *Handler) newRatedTurn(addr string, young bool) (done func(started bool), err error) {
	if !young {
		return func(bool) {}, nil
	}
	end := h.newRatedTurns.Take(addr)
	if !h.newRated.OK(addr) {
		end()
		h.tables.RateLimited()
		return nil, refuse.TooMany("new accounts from your address have started too many rated games today: play casual games, or wait a day")
	}
	return func(started bool) {
		if started {
			h.newRated.Allow(addr)
		}
		end()
	}, nil
}

// acceptSeek serves POST /api/v1/seeks/{id}/accept: the asker pairs with
// a listed seek on its terms.
func (h *Handler) acceptSeek(r *http.Request, p *auth.Principal) (seek.Answer, error) {
	addr := h.clientAddr(r)
	if !h.seeksByAddr.OK(addr) || !h.seeksByID.OK(p.Identity) {
		h.tables.RateLimited()
		return seek.Answer{}, refuse.TooMany("too many seeks in a short time: wait a few seconds")
	}
	young := h.seeks.Rated(r.PathValue("id")) && h.tables.Young(r.Context(), p)
	done, err := h.newRatedTurn(addr, young)
	if err != nil {
		return seek.Answer{}, err
	}
	ans, err := h.seeks.Accept(r.Context(), p, r.PathValue("id"))
	done(err == nil)
	if err == nil {
		h.seeksByAddr.Allow(addr)
		h.seeksByID.Allow(p.Identity)
	}
	return ans, err
}

func (h *Handler) cancelSeek(r *http.Request, p *auth.Principal) (noContent, error) {
	return noContent{}, h.seeks.Cancel(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) mySeek(r *http.Request, p *auth.Principal) (seek.Mine, error) {
	return h.seeks.Get(r.Context(), p, r.PathValue("id"))
}

// listSeeks serves GET /api/v1/seeks[?game=NAME]: the seeks waiting,
// oldest first, as the asker may take them.
func (h *Handler) listSeeks(r *http.Request, p *auth.Principal) (map[string][]seek.Seek, error) {
	name := strings.TrimSpace(r.URL.Query().Get("game"))
	if name != "" {
		// In any case, as a seek names its game; an unknown game is a
		// mistake to say, not a lobby with nobody in it.
		g, err := h.games.Lookup(strings.ToLower(name))
		if err != nil {
			return nil, refuse.Bad("%v", err)
		}
		name = g.Name()
	}
	list, err := h.seeks.List(r.Context(), p, name)
	if err != nil {
		return nil, err
	}
	return map[string][]seek.Seek{"seeks": list}, nil
}
