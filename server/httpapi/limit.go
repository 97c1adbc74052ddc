package httpapi

import (
	"net/http"

	"parlour/server/auth"
	"parlour/server/limit"
	"parlour/server/refuse"
)

// holdStream takes a place for one long-lived answer to r, or refuses it;
// release gives the place back. A request another node forwards holds no
// descriptor here: the node that took it counted it.
func (h *Handler) holdStream(r *http.Request) (release func(), err error) {
	if auth.Forwarded(r.Context()) {
		return func() {}, nil
	}
	release, full := h.held.Take(h.clientAddr(r), h.lim.Streams, h.lim.StreamsPerAddr)
	switch full {
	case limit.AllFull:
		h.tables.RateLimited()
		return nil, refuse.Unavailable("the server is following as many games as it can: try again in a minute")
	case limit.AddrFull:
		h.tables.RateLimited()
		return nil, refuse.TooMany("your address already follows %d games and streams at once: close some first", h.lim.StreamsPerAddr)
	}
	return release, nil
}
