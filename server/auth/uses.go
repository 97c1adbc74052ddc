package auth

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"time"

	"parlour/store"
)

// maxPendingUses bounds the uses waiting to be noted in the store: past
// it a use is dropped, and noted on the next day it happens.
const maxPendingUses = 1 << 16

// useWait bounds one write of the uses noted.
const useWait = 10 * time.Second

// uses are the uses of identities' own tokens (sessions, guests'
// tokens) waiting to be noted in the store, so that a session unused
// for long can end (players.SessionIdle). Each token's first use of a
// day is noted, the rest not: a day's precision is all the ending
// needs, and a request costs no write.
type uses struct {
	mu      sync.Mutex
	pending [][]byte
	wake    chan struct{}
}

// day returns the Unix day of t.
func day(t time.Time) int32 { return int32(t.Unix() / 86400) }

// used notes the use now of an identity's own token whose hash is h,
// when it is the first of the day.
func (a *Auth) used(h []byte) {
	if !a.cache.due(h, day(time.Now())) {
		return
	}
	a.uses.mu.Lock()
	if len(a.uses.pending) < maxPendingUses {
		a.uses.pending = append(a.uses.pending, bytes.Clone(h))
	}
	a.uses.mu.Unlock()
	select {
	case a.uses.wake <- struct{}{}:
	default:
	}
}

// NoteUses writes the uses of sessions and guests' tokens to the store
// as they come, each batch in one write, until ctx ends; then it writes
// what is left and returns. A store without accounts keeps no uses.
func (a *Auth) NoteUses(ctx context.Context) {
	ps, ok := a.st.(store.Players)
	if !ok {
		return
	}
	for {
		select {
		case <-a.uses.wake:
			a.flushUses(ctx, ps)
		case <-ctx.Done():
			wctx, cancel := context.WithTimeout(context.Background(), useWait)
			a.flushUses(wctx, ps)
			cancel()
			return
		}
	}
}

// flushUses writes the uses waiting.
func (a *Auth) flushUses(ctx context.Context, ps store.Players) {
	a.uses.mu.Lock()
	hs := a.uses.pending
	a.uses.pending = nil
	a.uses.mu.Unlock()
	if len(hs) == 0 {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, useWait)
	defer cancel()
	if err := ps.TouchSessions(wctx, hs, time.Now()); err != nil {
		// The day's use is then not noted; the next day's will be. A
		// session is ended only after a month without one.
		a.log.Warn("noting the sessions' use", "sessions", len(hs), "err", err)
	}
}

// NoteWatched notes, once a day, the use at now of every session or
// identity token a connection still open was signed in with (Watch): a
// socket or a stream its player keeps open for days is a use of the
// session, though it makes no new request. It writes at once, for the
// caller to end the sessions unused next, by the caller's clock.
func (a *Auth) NoteWatched(ctx context.Context, now time.Time) error {
	ps, ok := a.st.(store.Players)
	if !ok {
		return nil
	}
	a.watch.mu.Lock()
	if a.watch.noted >= day(now) {
		a.watch.mu.Unlock()
		return nil
	}
	hs := make([][]byte, 0, len(a.watch.by))
	for k := range a.watch.by {
		hs = append(hs, bytes.Clone(k[:]))
	}
	a.watch.noted = day(now)
	a.watch.mu.Unlock()
	if len(hs) == 0 {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, useWait)
	defer cancel()
	if err := ps.TouchSessions(wctx, hs, now); err != nil {
		return fmt.Errorf("noting the use of %d sessions held open: %w", len(hs), err)
	}
	return nil
}
