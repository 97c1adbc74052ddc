// Package auth knows who asks: the tokens that stand for an identity or a
// seat, the ids the server hands out, the cache that answers most requests
// without the store, the session cookie, and the names a guest may take.
// What the asker may then do is the business of the package that owns the
// thing asked for; auth only says who it is.
package auth

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/account"
	"parlour/server/refuse"
	"parlour/store"
)

// Principal is who a request comes from: an identity, and the seat its
// token holds when it is a seat's token (Table is "" for a token that
// stands for the whole identity: a guest's own or an account's session).
type Principal struct {
	Identity string
	Table    string
	Seat     int
}

// Auth resolves tokens to principals, remembering the credentials used or
// issued lately.
type Auth struct {
	st        store.Store
	log       *slog.Logger
	cache     *credCache
	badTokens prometheus.Counter
	watch     watchers
	uses      uses
}

// SessionAge is how long an identity's own token (a session) is trusted
// from the cache before the store is asked again: a session ended in the
// store by another process, which cannot tell this one (parlour admin
// password, on the server's machine), is refused within it. Sessions are
// asked for about once a minute each; seats' tokens, at every move,
// are not.
const SessionAge = time.Minute

// New returns an Auth that reads credentials from st and logs the store's
// failures to log. A non-zero maxAge is how long a credential is trusted
// from the cache before the store is asked again: a cluster sets it, so
// that a sign-out on another node is forgotten here at the latest after
// maxAge, should that node's word not arrive.
func New(st store.Store, log *slog.Logger, maxAge time.Duration) *Auth {
	c := newCredCache(credCacheSize)
	c.maxAge, c.sessionAge = maxAge, SessionAge
	return &Auth{
		st: st, log: log, cache: c, uses: uses{wake: make(chan struct{}, 1)},
		badTokens: prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_bad_tokens_total", Help: "Requests with a token this server never issued."}),
	}
}

// Register registers the package's collectors on reg.
func (a *Auth) Register(reg prometheus.Registerer) error {
	return reg.Register(a.badTokens)
}

// Authenticate resolves a bearer token. An unknown or malformed token is
// refused: a forged token gets no further than this.
func (a *Auth) Authenticate(ctx context.Context, token string) (*Principal, error) {
	if len(token) != account.TokenLen {
		return nil, refuse.Unauthorized("that token is not one this server issued")
	}
	sum := account.HashToken(token)
	if c, ok := a.cache.get(sum[:]); ok {
		// Cached under the hash of a token of the right shape: only that
		// token hashes to it, so its shape needs no second look.
		if c.table == "" {
			a.used(sum[:])
		}
		return &Principal{Identity: c.identity, Table: c.table, Seat: int(c.seat)}, nil
	}
	if !account.ValidTokenShape(token) {
		return nil, refuse.Unauthorized("that token is not one this server issued")
	}
	c, err := a.st.Credential(ctx, bytes.Clone(sum[:]))
	if errors.Is(err, store.ErrNotFound) {
		// A token of the right shape that the store does not hold is
		// most often one that ended (signed out, a new password, a
		// sign-up that took the guest's place): the store keeps no
		// trace to tell it from a forgery, so both are told so.
		a.badTokens.Inc()
		// Ended where this server could not hear it (parlour admin
		// password, on the server's machine): the streams and sockets
		// signed in with it end too, as its requests do now.
		a.watch.ended(sum[:])
		return nil, refuse.Unauthorized("that token is not known here: its session ended (signed out, the password changed, or left unused too long) or it was never issued: sign in again")
	}
	if err != nil {
		return nil, a.readFailed("your token", err)
	}
	a.Remember(c)
	if c.Table == "" {
		a.used(sum[:])
	}
	return &Principal{Identity: c.Identity, Table: c.Table, Seat: c.Seat}, nil
}

// Remember caches c for the requests that will present its token.
func (a *Auth) Remember(c store.Credential) {
	cr := cachedCred{identity: c.Identity, table: c.Table, seat: int32(c.Seat)}
	if !c.Used.IsZero() {
		cr.used = day(c.Used)
	}
	a.cache.put(c.Hash, cr)
}

// Forget drops the credential whose token hashes to hash from the cache:
// it was deleted (signed out, or its account gone), here or on another
// node. The connections signed in with it are told (Watch).
func (a *Auth) Forget(hash []byte) {
	a.cache.drop(hash)
	a.watch.ended(hash)
}

// Cached returns how many credentials the cache holds.
func (a *Auth) Cached() int { return a.cache.len() }

func (a *Auth) readFailed(what string, err error) error {
	return refuse.ReadFailed(a.log, what, err)
}

// SessionCookie is the name of the browser's session cookie. It holds the
// same kind of token a program sends as "Authorization: Bearer", and every
// endpoint that takes a bearer token takes it, the WebSocket too.
const SessionCookie = "parlour_session"

// SignedInCookie is a cookie beside the session cookie, holding only "1",
// that scripts may read: a page without it knows the browser has no
// session, and does not ask the server who is signed in only to be told
// nobody (an error status, which browsers log). It is never evidence of a
// session; only the session cookie is.
const SignedInCookie = "parlour_signed_in"

// SessionToken returns the token of the request's session cookie, or "".
func SessionToken(r *http.Request) string {
	c, err := r.Cookie(SessionCookie)
	if err != nil {
		return ""
	}
	return c.Value
}

// RequestToken returns the token a request presents: its bearer token, or
// else its session cookie's.
func RequestToken(r *http.Request) string {
	if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(tok)
	}
	return SessionToken(r)
}
