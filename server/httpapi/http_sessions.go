// The session cookie, the sign-in limits and the HTTP handlers of the
// account endpoints; the service side of accounts is in accounts.go.

package httpapi

import (
	"net/http"
	"strings"
	"time"

	"parlour/account"
	"parlour/server/auth"
	"parlour/server/players"
	"parlour/server/protocol"
	"parlour/server/refuse"
)

// sessionMaxAge is how long a browser keeps its session cookie after
// its last page: as long as the server keeps the session unused.
const sessionMaxAge = players.SessionIdle

// setSession gives the browser its session cookie: HttpOnly (no script
// reads it), Secure when the client came over TLS (directly, or through a
// trusted proxy) or the server is set to always say so, SameSite=Lax
// (another site's page cannot post with it).
func (h *Handler) setSession(w http.ResponseWriter, r *http.Request, token string) {
	http.SetCookie(w, &http.Cookie{
		Name: auth.SessionCookie, Value: token, Path: "/",
		MaxAge: int(sessionMaxAge / time.Second), HttpOnly: true, Secure: h.secure(r), SameSite: http.SameSiteLaxMode,
	})
	http.SetCookie(w, &http.Cookie{
		Name: auth.SignedInCookie, Value: "1", Path: "/",
		MaxAge: int(sessionMaxAge / time.Second), Secure: h.secure(r), SameSite: http.SameSiteLaxMode,
	})
}

// clearSession tells the browser to drop its session cookie.
func (h *Handler) clearSession(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name: auth.SessionCookie, Value: "", Path: "/",
		MaxAge: -1, HttpOnly: true, Secure: h.secure(r), SameSite: http.SameSiteLaxMode,
	})
	http.SetCookie(w, &http.Cookie{
		Name: auth.SignedInCookie, Value: "", Path: "/",
		MaxAge: -1, Secure: h.secure(r), SameSite: http.SameSiteLaxMode,
	})
}

// signInAllowed applies the sign-in limits: per address, and per account
// name (whether or not it exists, so the limit tells nothing either).
func (h *Handler) signInAllowed(r *http.Request, name string) error {
	if !h.signInByAddr.Allow(h.clientAddr(r)) {
		h.tables.RateLimited()
		return refuse.TooMany("too many sign-in attempts from your address: wait a minute and try again")
	}
	if !h.signInByName.Allow(account.Key(strings.TrimSpace(name))) {
		h.tables.RateLimited()
		return refuse.TooMany("too many sign-in attempts for this name: wait a minute and try again")
	}
	return nil
}

// passwordCheckAllowed applies the sign-in limits to a check of p's
// password made with a session (a new password, address or key, a
// deletion): per address, and per account, under the account's name, as
// a sign-in counts, so that a stolen session gets no more guesses than a
// sign-in form.
func (h *Handler) passwordCheckAllowed(r *http.Request, p *auth.Principal) error {
	name := "#" + p.Identity
	if a, err := h.players.Account(r.Context(), p); err == nil {
		name = a.Name
	}
	return h.signInAllowed(r, name)
}

// signUpAllowed counts a sign-up against its address's sign-in budget: a
// sign-up costs the same hash as a sign-in, and must not be the cheaper
// way to keep the hashing slots busy.
func (h *Handler) signUpAllowed(r *http.Request) error {
	if !h.signInByAddr.Allow(h.clientAddr(r)) {
		h.tables.RateLimited()
		return refuse.TooMany("too many sign-ups and sign-ins from your address: wait a minute and try again")
	}
	return nil
}

func (h *Handler) signUp(w http.ResponseWriter, r *http.Request) {
	var req players.AccountRequest
	if err := protocol.DecodeJSON(r.Body, h.lim.MaxBody, &req); err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := h.wholeIdentity(r)
	if err == nil {
		err = h.guestAllowed(r)
	}
	if err == nil {
		err = h.signUpAllowed(r)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	sess, err := h.players.SignUp(r.Context(), p, req.Name, req.Password)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.setSession(w, r, sess.Token)
	writeJSON(w, http.StatusCreated, sess)
}

func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	var req players.AccountRequest
	if err := protocol.DecodeJSON(r.Body, h.lim.MaxBody, &req); err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.signInAllowed(r, req.Name); err != nil {
		h.fail(w, r, err)
		return
	}
	sess, err := h.players.SignIn(r.Context(), req.Name, req.Password)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.setSession(w, r, sess.Token)
	writeJSON(w, http.StatusOK, sess)
}

func (h *Handler) signOut(w http.ResponseWriter, r *http.Request) {
	if auth.SessionToken(r) != "" {
		// Whatever becomes of the session, the browser drops the
		// cookie: it cannot, since scripts may not read it, and a
		// cookie whose session has ended would otherwise stay.
		h.clearSession(w, r)
	}
	p, err := h.signedIn(r)
	if err == nil {
		err = h.players.SignOut(r.Context(), p, auth.RequestToken(r))
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// signedIn authenticates a request that must present a token, for an
// action of the whole identity: a seat's token is refused (see
// wholeIdentity).
func (h *Handler) signedIn(r *http.Request) (*auth.Principal, error) {
	p, err := h.wholeIdentity(r)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, refuse.Unauthorized("sign in first: send your session cookie or Authorization: Bearer <token>")
	}
	return p, nil
}

// whoAmI drops the session cookies of a session that has ended, and so
// reads who asks itself rather than through handle.
func (h *Handler) whoAmI(w http.ResponseWriter, r *http.Request) {
	p, err := h.signedIn(r)
	if err != nil {
		if refuse.Status(err) == http.StatusUnauthorized && auth.SessionToken(r) != "" && r.Header.Get("Authorization") == "" {
			// The session has ended (signed out elsewhere, the
			// password changed): the browser drops its cookies, so
			// that its next page need not ask again.
			h.clearSession(w, r)
		}
		h.fail(w, r, err)
		return
	}
	a, err := h.players.Account(r.Context(), p)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// Moderator says whether the account may open the moderators' page.
	out := struct {
		players.Account
		Moderator bool `json:"moderator"`
	}{Account: a}
	if h.moderation != nil {
		if out.Moderator, err = h.moderation.IsModerator(r.Context(), a.Identity); err != nil {
			h.fail(w, r, refuse.ReadFailed(h.log, "your role", err))
			return
		}
	}
	if tok := auth.SessionToken(r); tok != "" && r.Header.Get("Authorization") == "" {
		// Every page asks who its cookie signs in as: the cookie is
		// given again for sessionMaxAge from now, so that a player who
		// comes back within it stays signed in.
		h.setSession(w, r, tok)
	}
	h.reply(w, r, out, nil)
}

func (h *Handler) changePassword(r *http.Request, p *auth.Principal, req players.PasswordRequest) (noContent, error) {
	// The current password it checks counts against the sign-in limits. A
	// new password the rules refuse is refused before the current one is
	// looked at, so it costs nothing: a player trying new passwords until
	// one passes must not be told they tried to sign in too often.
	if a, err := h.players.Account(r.Context(), p); req.Password != "" && (err != nil || account.CheckPassword(a.Name, req.NewPassword) == nil) {
		if err := h.passwordCheckAllowed(r, p); err != nil {
			return noContent{}, err
		}
	}
	return noContent{}, h.players.ChangePassword(r.Context(), p, auth.RequestToken(r), req)
}

// endOtherSessions serves DELETE /api/v1/account/sessions: the account
// signed out everywhere but the session asking.
func (h *Handler) endOtherSessions(r *http.Request, p *auth.Principal) (players.Ended, error) {
	return h.players.EndOtherSessions(r.Context(), p, auth.RequestToken(r))
}

func (h *Handler) deleteAccount(w http.ResponseWriter, r *http.Request) {
	var req players.DeleteRequest
	if err := protocol.DecodeJSON(r.Body, h.lim.MaxBody, &req); err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := h.signedIn(r)
	if err == nil && req.Password != "" {
		// No password given is not a try: it costs nothing.
		err = h.passwordCheckAllowed(r, p)
	}
	if err == nil {
		err = h.players.DeleteAccount(r.Context(), p, req.Password)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.clearSession(w, r)
	w.WriteHeader(http.StatusNoContent)
}
