package auth

import (
	"context"
	"net/http"
	"slices"
	"sync"

	"parlour/account"
	"parlour/server/refuse"
)

// SessionEnded is what a connection signed in with a session or identity
// token is told when the token is forgotten (Watch): signed out, the
// password changed, the account deleted or closed.
const SessionEnded = "your session has ended: sign in again"

// watchers are the connections signed in with each token, by its hash,
// told when the token is forgotten.
type watchers struct {
	mu sync.Mutex
	by map[credKey][]*watcher // a token's few connections: a slice, not a map
	// noted is the day (Unix days) NoteWatched last wrote the uses.
	noted int32
}

// watcher is one Watch: ended runs once, unless stopped first.
type watcher struct{ ended func() }

// Watch calls ended, once, when the credential of token is forgotten
// (Forget: signed out, its password changed, its account deleted or
// closed, on this node or told by another), so that a connection signed
// in with it, a socket or a stream, ends as its next request would be
// refused. Calling the returned stop ends the watch; a connection calls
// it when it closes. ended runs on the forgetting goroutine and must not
// block. On a cluster whose word of a sign-out elsewhere did not arrive
// (the bus was away), ended is not called, and the connection lasts
// until it closes.
func (a *Auth) Watch(ctx context.Context, token string, ended func()) (stop func()) {
	sum := account.HashToken(token)
	k, ok := keyOf(sum[:])
	if !ok {
		return func() {}
	}
	w := &watcher{ended: ended}
	a.watch.mu.Lock()
	if a.watch.by == nil {
		a.watch.by = map[credKey][]*watcher{}
	}
	a.watch.by[k] = append(a.watch.by[k], w)
	a.watch.mu.Unlock()
	// A token forgotten between its sign-in and this watch told nobody:
	// ask after it once more, now that a forgetting would tell.
	if _, err := a.Authenticate(ctx, token); refuse.Status(err) == http.StatusUnauthorized {
		a.watch.ended(k[:])
	}
	return func() {
		a.watch.mu.Lock()
		defer a.watch.mu.Unlock()
		ws := slices.DeleteFunc(a.watch.by[k], func(o *watcher) bool { return o == w })
		if len(ws) == 0 {
			delete(a.watch.by, k)
		} else {
			a.watch.by[k] = ws
		}
	}
}

// ended tells the watchers of the credential whose token hashes to h
// that it was forgotten, and forgets them.
func (ws *watchers) ended(h []byte) {
	k, ok := keyOf(h)
	if !ok {
		return
	}
	ws.mu.Lock()
	list := ws.by[k]
	delete(ws.by, k)
	ws.mu.Unlock()
	for _, w := range list {
		w.ended()
	}
}

// Watching returns how many connections are watched, for tests.
func (a *Auth) Watching() int {
	a.watch.mu.Lock()
	defer a.watch.mu.Unlock()
	n := 0
	for _, list := range a.watch.by {
		n += len(list)
	}
	return n
}
