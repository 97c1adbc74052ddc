package httpapi

import (
	"bytes"
	"net/http"

	"parlour/server/auth"
	"parlour/server/protocol"
)

// caller says whom an endpoint hears, and so how the door reads who asks
// before the endpoint runs.
type caller int

const (
	// byAnyone reads no token: the answer is the same for all.
	byAnyone caller = iota
	// byToken reads a token or session when one is sent (principal);
	// with none the endpoint gets a nil principal.
	byToken
	// bySeat needs a token: a seat's, or its identity's (seated).
	bySeat
	// byIdentity reads the whole identity's token or session when one is
	// sent, and refuses a seat's (wholeIdentity); with none the endpoint
	// gets a nil principal.
	byIdentity
	// bySignedIn needs the whole identity's token or session (signedIn).
	bySignedIn
	// byViewer reads the whole identity's token or session when one is
	// sent (viewer), for an answer anyone may have but that shows the
	// one asking more; with none, a seat's, or one that is refused (a
	// session that has ended) the endpoint gets a nil principal and
	// answers as it would anyone.
	byViewer
)

// ask authenticates r as who says.
func (h *Handler) ask(r *http.Request, who caller) (*auth.Principal, error) {
	switch who {
	case byToken:
		return h.principal(r)
	case bySeat:
		return h.seated(r)
	case byIdentity:
		return h.wholeIdentity(r)
	case bySignedIn:
		return h.signedIn(r)
	case byViewer:
		return h.viewer(r), nil
	}
	return nil, nil
}

// viewer returns the whole identity that asks r, when a token or
// session that speaks for one is sent; nil for none, a seat's token, or
// one that is refused: that asker is answered as anyone is.
func (h *Handler) viewer(r *http.Request) *auth.Principal {
	p, err := h.principal(r)
	if err != nil || p == nil || p.Table != "" {
		return nil
	}
	return p
}

// handle adapts an endpoint without a body to an http.HandlerFunc: it
// refuses a body other than nothing or {} to a request that acts
// (protocol.DecodeNone), authenticates the caller as who says, calls f,
// and answers status with f's result as JSON (nothing, for 204 No
// Content), or f's refusal in a player's words. The endpoints whose
// answers are streams, cookies or bytes already encoded write their own.
func handle[Res any](h *Handler, who caller, status int, f func(*http.Request, *auth.Principal) (Res, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var err error
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			err = protocol.DecodeNone(r.Body, h.lim.MaxBody)
		}
		var p *auth.Principal
		if err == nil {
			p, err = h.ask(r, who)
		}
		if err != nil {
			h.fail(w, r, err)
			return
		}
		res, err := f(r, p)
		h.answer(w, r, status, res, err)
	}
}

// handleJSON is handle for an endpoint whose body is a JSON object, which
// it decodes strictly (protocol.DecodeJSON) into a Req before it reads who asks:
// a body that is not what the endpoint takes is refused first.
func handleJSON[Req, Res any](h *Handler, who caller, status int, f func(*http.Request, *auth.Principal, Req) (Res, error)) http.HandlerFunc {
	return decodeThen(h, who, status, f, func(r *http.Request, req *Req) error {
		return protocol.DecodeJSON(r.Body, h.lim.MaxBody, req)
	})
}

// handleMaybeJSON is handleJSON for an endpoint whose body may be left
// out: no body, or only blanks, is the zero Req.
func handleMaybeJSON[Req, Res any](h *Handler, who caller, status int, f func(*http.Request, *auth.Principal, Req) (Res, error)) http.HandlerFunc {
	return decodeThen(h, who, status, f, func(r *http.Request, req *Req) error {
		b, err := protocol.ReadBody(r.Body, h.lim.MaxBody)
		if err != nil || len(bytes.TrimSpace(b)) == 0 {
			return err
		}
		return protocol.DecodeBytes(b, req)
	})
}

// decodeThen is handleJSON and handleMaybeJSON with the body read by
// decode.
func decodeThen[Req, Res any](h *Handler, who caller, status int, f func(*http.Request, *auth.Principal, Req) (Res, error), decode func(*http.Request, *Req) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req Req
		err := decode(r, &req)
		var p *auth.Principal
		if err == nil {
			p, err = h.ask(r, who)
		}
		if err != nil {
			h.fail(w, r, err)
			return
		}
		res, err := f(r, p, req)
		h.answer(w, r, status, res, err)
	}
}

// answer answers status with v as JSON (nothing, for 204 No Content), or
// err in a player's words.
func (h *Handler) answer(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	switch {
	case err != nil:
		h.fail(w, r, err)
	case status == http.StatusNoContent:
		w.WriteHeader(status)
	default:
		writeJSON(w, status, v)
	}
}

// reply answers 200 with v as JSON, or the error in a player's words.
func (h *Handler) reply(w http.ResponseWriter, r *http.Request, v any, err error) {
	h.answer(w, r, http.StatusOK, v, err)
}

// noContent is the result of an endpoint that answers 204 No Content.
type noContent struct{}
