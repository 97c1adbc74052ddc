package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"parlour/analysis"
	"parlour/game"
	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/store"
)

// analysisCacheSize bounds the analyses kept in memory: a finished game's
// analysis never changes, so the cache only forgets the least recently
// used when it is full (about 20 KiB an analysis, Salvo's the largest).
const analysisCacheSize = 256

// analysisTimeout bounds one analysis; a typical game takes under 2 s.
const analysisTimeout = 30 * time.Second

// analysisWorkers bounds the analyses computed at once: each is pure CPU,
// and the tables must keep their share of the cores.
const analysisWorkers = 2

// analyses serves GET /api/v1/tables/{id}/analysis: the engines' analysis
// of a finished game (docs/analysis.md), 404 for no such table and 409
// while the game goes on, so that it can never help a game in progress.
// Each analysis is computed once, by whichever request comes first, filed
// in the store beside the record when the store keeps analyses (so that a
// restart or another node does not compute it again), and kept, encoded,
// in a bounded in-memory cache keyed by table id.
type analyses struct {
	h       *Handler
	workers chan struct{}

	mu      sync.Mutex
	done    map[string]*analysisEntry
	pending map[string]*analysisEntry
	tick    uint64
}

// analysisEntry is one table's analysis, or the computation of it.
type analysisEntry struct {
	ready chan struct{} // closed once body or err is set
	body  []byte
	err   error
	used  uint64
	// daily marks an attempt at a daily puzzle: shut to all but its
	// player until the day ends (the read gate), so checked at every request.
	daily bool
}

func newAnalyses(h *Handler) *analyses {
	return &analyses{
		h: h, workers: make(chan struct{}, analysisWorkers),
		done: map[string]*analysisEntry{}, pending: map[string]*analysisEntry{},
	}
}

func (a *analyses) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p, err := a.h.principal(r)
	if err != nil {
		a.h.fail(w, r, err)
		return
	}
	body, err := a.get(r.Context(), p, r.PathValue("id"))
	if err != nil {
		a.h.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(body)
}

// get returns table id's analysis, encoded, from the cache or computed.
func (a *analyses) get(ctx context.Context, p *auth.Principal, id string) ([]byte, error) {
	a.mu.Lock()
	if e, ok := a.done[id]; ok {
		a.tick++
		e.used = a.tick
		a.mu.Unlock()
		if e.daily {
			if err := a.h.s.MayRead(ctx, p, id, true); err != nil {
				return nil, err
			}
		}
		return e.body, nil
	}
	a.mu.Unlock()
	rec, lex, daily, err := a.h.s.Finished(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if as, ok := a.h.s.st.(store.Analyses); ok {
		body, err := as.Analysis(ctx, id, analysis.Version)
		if err == nil {
			a.mu.Lock()
			// Never waited on: only pending entries are.
			a.file(id, &analysisEntry{body: body, daily: daily})
			a.mu.Unlock()
			return body, nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			a.h.s.log.Warn("reading a stored analysis; computing it again", "table", id, "err", err)
		}
	}
	a.mu.Lock()
	e, ok := a.pending[id]
	if !ok {
		e = &analysisEntry{ready: make(chan struct{}), daily: daily}
		a.pending[id] = e
		go a.compute(id, e, rec, lex)
	}
	a.mu.Unlock()
	select {
	case <-e.ready:
		return e.body, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// compute analyses rec apart from any one request, so that a request that
// goes away leaves the work for the next, and files the result.
func (a *analyses) compute(id string, e *analysisEntry, rec *game.Record, lex *lexicon.Lexicon) {
	ctx, cancel := context.WithTimeout(context.Background(), analysisTimeout)
	defer cancel()
	a.workers <- struct{}{}
	res, err := analysis.Of(ctx, a.h.s.games, rec, lex)
	<-a.workers
	a.h.s.metrics.analysesComputed.Inc()
	if err == nil {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err = enc.Encode(res); err == nil {
			e.body = buf.Bytes()
		}
	}
	if err != nil {
		e.err = fmt.Errorf("analysing table %s: %w", id, err)
	}
	if as, ok := a.h.s.st.(store.Analyses); ok && e.err == nil {
		// Filed with the record, so that a restart or another node
		// serves it without computing it again; a failure to file it
		// costs only that.
		if err := as.PutAnalysis(ctx, id, analysis.Version, e.body); err != nil {
			a.h.s.log.Warn("storing an analysis", "table", id, "err", err)
		}
	}
	a.mu.Lock()
	delete(a.pending, id)
	if e.err == nil {
		a.file(id, e)
	}
	a.mu.Unlock()
	close(e.ready)
}

// file keeps e, a finished analysis, in the cache. a.mu must be held.
func (a *analyses) file(id string, e *analysisEntry) {
	a.tick++
	e.used = a.tick
	a.done[id] = e
	if len(a.done) > analysisCacheSize {
		a.evict()
	}
}

// evict forgets the least recently used analysis. a.mu must be held.
func (a *analyses) evict() {
	var oldest string
	var at uint64
	for id, e := range a.done {
		if oldest == "" || e.used < at {
			oldest, at = id, e.used
		}
	}
	delete(a.done, oldest)
}
