package server

import (
	"context"
	"net/http"
	"time"
)

// Watcher follows one table for one asker, yielding an Update at every
// change of what that asker may see.
type Watcher struct {
	s       *Service
	t       *table
	p       *Principal
	version int
	closed  bool
}

// Watch starts following table id from version from: the first Update
// carries every move after from (from < 0: none, just the table as it
// stands). A client that reconnects passes the last version it saw and
// misses nothing.
func (s *Service) Watch(ctx context.Context, p *Principal, id string, from int) (*Watcher, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if v := t.version(); from > v {
		return nil, badRequest("version %d is ahead of the table, which is at version %d", from, v)
	}
	t.watchers++
	s.metrics.watchers.Add(1)
	return &Watcher{s: s, t: t, p: p, version: from}, nil
}

// Next returns the next Update: at once if the table changed since the
// last one (or this is the first), else when it changes or ctx ends.
func (w *Watcher) Next(ctx context.Context) (Update, error) {
	for {
		w.t.mu.Lock()
		v := w.t.version()
		if w.version < 0 || v > w.version {
			since := w.version
			u, err := w.t.update(w.s.games, w.t.seatOf(w.p), since)
			w.t.lastUse = time.Now()
			w.t.mu.Unlock()
			if err != nil {
				return Update{}, err
			}
			w.version = u.Version
			return u, nil
		}
		ch := w.t.awaitChange()
		w.t.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return Update{}, ctx.Err()
		case <-w.s.ctx.Done():
			return Update{}, refuse(http.StatusServiceUnavailable, "the server is shutting down")
		}
	}
}

// Version reports the last version Next returned.
func (w *Watcher) Version() int { return w.version }

// Finished reports whether the table's game is over.
func (w *Watcher) Finished() bool {
	w.t.mu.Lock()
	defer w.t.mu.Unlock()
	return w.t.status == "finished"
}

// Close stops following the table.
func (w *Watcher) Close() {
	if w.closed {
		return
	}
	w.closed = true
	w.t.mu.Lock()
	w.t.watchers--
	w.t.mu.Unlock()
	w.s.metrics.watchers.Add(-1)
}
