package auth

import (
	"sync"

	"parlour/account"
)

// SessionEnded is what a connection signed in with a session or identity
// token is told when the token is forgotten (Watch): signed out, the
// password changed, the account deleted or closed.
const SessionEnded = "your session has ended: sign in again"

// watchers are the connections signed in with each token, by its hash,
// told when the token is forgotten.
type watchers struct {
	mu sync.Mutex
	by map[credKey]map[*watcher]struct{}
}

// watcher is one Watch: ended runs once, unless stopped first.
type watcher struct{ ended func() }

// Watch calls ended, once, when the credential of token is forgotten
// (Forget: signed out, its password changed, its account deleted or
// closed, on this node or told by another), so that a connection signed
// in with it, a socket or a stream, ends as its next request would be
// refused. Calling the returned stop ends the watch; a connection calls
// it when it closes. ended runs on the forgetting goroutine and must not
// block. On a cluster whose word of a sign-out elsewhere did not arrive,
// ended is not called: such a connection ends when it next signs in.
func (a *Auth) Watch(token string, ended func()) (stop func()) {
	sum := account.HashToken(token)
	k, ok := keyOf(sum[:])
	if !ok {
		return func() {}
	}
	w := &watcher{ended: ended}
	a.watch.mu.Lock()
	if a.watch.by == nil {
		a.watch.by = map[credKey]map[*watcher]struct{}{}
	}
	set := a.watch.by[k]
	if set == nil {
		set = map[*watcher]struct{}{}
		a.watch.by[k] = set
	}
	set[w] = struct{}{}
	a.watch.mu.Unlock()
	return func() {
		a.watch.mu.Lock()
		defer a.watch.mu.Unlock()
		if set := a.watch.by[k]; set != nil {
			delete(set, w)
			if len(set) == 0 {
				delete(a.watch.by, k)
			}
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
	set := ws.by[k]
	delete(ws.by, k)
	ws.mu.Unlock()
	for w := range set {
		w.ended()
	}
}

// Watching returns how many connections are watched, for tests.
func (a *Auth) Watching() int {
	a.watch.mu.Lock()
	defer a.watch.mu.Unlock()
	n := 0
	for _, set := range a.watch.by {
		n += len(set)
	}
	return n
}
