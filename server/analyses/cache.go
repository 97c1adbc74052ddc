// Package analyses serves finished tables' analyses: the engines' analysis
// of a game (package analysis, docs/analysis.md) is computed once, by
// whichever request comes first, kept encoded in a bounded cache, and
// filed in the store beside the record, so that a restart or another node
// serves it without computing it again. It reaches the tables only through
// table's exported API, which refuses a table that does not exist or whose
// game goes on, so that an analysis can never help a game in progress.
package analyses

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/analysis"
	"parlour/game"
	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

// cacheSize bounds the analyses kept in memory: a finished game's
// analysis never changes, so the cache only forgets the least recently
// used when it is full (about 20 KiB an analysis, Salvo's the largest).
const cacheSize = 256

// Timeout bounds one analysis, from when a worker takes it up; a typical
// game takes under 2 s, one of a thousand moves over ten. A request
// relayed to the node that owns a table may wait this long for it. A game
// the engines cannot analyse in the time is refused (422), and the
// refusal kept with the analyses, so that asking again costs nothing.
const Timeout = 30 * time.Second

// workers bounds the analyses computed at once: each is pure CPU, and the
// tables must keep their share of the cores.
const workers = 2

// Cache is the analyses of finished tables, keyed by table id: those in
// memory, those being computed, and, when the store keeps analyses
// (store.Analyses), those filed beside the records.
type Cache struct {
	tables  *table.Service
	st      store.Analyses // nil when the store keeps none
	games   *game.Registry
	log     *slog.Logger
	workers chan struct{}
	timeout time.Duration // Timeout, but in tests

	// computed counts the analyses the engines computed, rather than
	// served from memory or the store.
	computed prometheus.Counter

	mu      sync.Mutex
	done    map[string]*entry
	pending map[string]*entry
	tick    uint64
}

// entry is one table's analysis, or the computation of it.
type entry struct {
	ready chan struct{} // closed once body or err is set
	body  []byte
	// err is why there is no analysis: kept in memory, for a game the
	// engines could not analyse in time, so that they are not asked
	// again.
	err  error
	used uint64
	// players are the names body gives the seats; nil when not yet
	// known (an analysis read from the store).
	players []string
}

// New returns an empty cache of the analyses of tables' finished games,
// replayed with games. It files them in st when st keeps analyses
// (store.Analyses); log hears what could not be read or filed.
func New(tables *table.Service, st store.Store, games *game.Registry, log *slog.Logger) *Cache {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Cache{
		tables: tables, games: games, log: log,
		workers: make(chan struct{}, workers),
		timeout: Timeout,
		computed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "parlour_analyses_computed_total",
			Help: "Analyses of finished games the engines computed (not served from memory or the store).",
		}),
		done: map[string]*entry{}, pending: map[string]*entry{},
	}
	if as, ok := st.(store.Analyses); ok {
		c.st = as
	}
	return c
}

// Register registers the package's collectors on reg.
func (c *Cache) Register(reg prometheus.Registerer) error {
	return reg.Register(c.computed)
}

// Get returns the analysis of table id's finished game, encoded as JSON,
// to p: from memory, from the store, or computed. It refuses what the
// table service refuses p (no such table, a daily puzzle's attempt before
// the day ends) and a game that has not ended or was aborted. A request
// that goes away before the analysis is ready leaves its computation to
// the next.
func (c *Cache) Get(ctx context.Context, p *auth.Principal, id string) ([]byte, error) {
	// The table is asked every time, for its read gate and for the names
	// its seats go by now: an account deleted, or renamed by a moderator,
	// since the analysis was made goes by its new name in the record,
	// and must in the analysis too.
	rec, lex, forfeits, err := c.tables.Finished(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if e := c.lookup(id); e != nil {
		if e.err != nil {
			return nil, e.err
		}
		return c.named(ctx, id, e, rec.Players)
	}
	if c.st != nil {
		body, err := c.st.Analysis(ctx, id, analysis.Version)
		if err == nil {
			e := &entry{body: body}
			c.mu.Lock()
			// Never waited on: only pending entries are.
			c.file(id, e)
			c.mu.Unlock()
			return c.named(ctx, id, e, rec.Players)
		}
		if !errors.Is(err, store.ErrNotFound) {
			c.log.Warn("reading a stored analysis; computing it again", "table", id, "err", err)
		}
	}
	c.mu.Lock()
	e, ok := c.pending[id]
	if !ok {
		e = &entry{ready: make(chan struct{})}
		c.pending[id] = e
		go c.compute(id, e, rec, lex, forfeits)
	}
	c.mu.Unlock()
	select {
	case <-e.ready:
		if e.err != nil {
			return nil, e.err
		}
		return c.named(ctx, id, e, rec.Players)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// named returns e's analysis naming the seats players, as the table's
// record names them now, and keeps the renamed analysis in e for the
// next request. Renaming or deleting an account drops the store's copies
// of its games' analyses, so a renamed one is filed again, for a restart
// or another node; a copy filed before that rule keeps its old names, so
// every answer goes through here.
func (c *Cache) named(ctx context.Context, id string, e *entry, players []string) ([]byte, error) {
	c.mu.Lock()
	body, named := e.body, e.players
	c.mu.Unlock()
	if named != nil && slices.Equal(named, players) {
		return body, nil
	}
	renamed, changed, err := analysis.Renamed(body, players)
	if err != nil {
		return nil, fmt.Errorf("analysis of table %s: %w", id, err)
	}
	c.mu.Lock()
	e.body, e.players = renamed, slices.Clone(players)
	c.mu.Unlock()
	if changed && c.st != nil {
		if err := c.st.PutAnalysis(ctx, id, analysis.Version, renamed); err != nil {
			c.log.Warn("filing a renamed analysis", "table", id, "err", err)
		}
	}
	return renamed, nil
}

// lookup returns table id's analysis in memory, marked as used now, or
// nil.
func (c *Cache) lookup(id string) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.done[id]
	if !ok {
		return nil
	}
	c.tick++
	e.used = c.tick
	return e
}

// compute analyses rec apart from any one request, so that a request that
// goes away leaves the work for the next, and files the result, with
// forfeits, the moves the server played for a seat, marked.
func (c *Cache) compute(id string, e *entry, rec *game.Record, lex *lexicon.Lexicon, forfeits []analysis.Forfeit) {
	// The time counts from a worker's start: waiting for one behind
	// other games is no sign that this one is too long.
	c.workers <- struct{}{}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	res, err := analysis.Of(ctx, c.games, rec, lex)
	<-c.workers
	c.computed.Inc()
	tooLong := errors.Is(err, context.DeadlineExceeded)
	if err == nil {
		res.Forfeits = forfeits
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err = enc.Encode(res); err == nil {
			e.body, e.players = buf.Bytes(), slices.Clone(res.Players)
		}
	}
	switch {
	case tooLong:
		c.log.Warn("a game too long to analyse in time", "table", id, "moves", len(rec.Moves), "timeout", c.timeout)
		e.err = refuse.Unprocessable("this game is too long for the engines to analyse: they gave up after %s (its %d moves replay as ever)", c.timeout, len(rec.Moves))
	case err != nil:
		e.err = fmt.Errorf("analysing table %s: %w", id, err)
	}
	if c.st != nil && e.err == nil {
		// Filed with the record, so that a restart or another node
		// serves it without computing it again; a failure to file it
		// costs only that.
		if err := c.st.PutAnalysis(ctx, id, analysis.Version, e.body); err != nil {
			c.log.Warn("storing an analysis", "table", id, "err", err)
		}
	}
	c.mu.Lock()
	delete(c.pending, id)
	if e.err == nil || tooLong {
		c.file(id, e)
	}
	c.mu.Unlock()
	close(e.ready)
}

// file keeps e, a finished analysis, in memory. c.mu must be held.
func (c *Cache) file(id string, e *entry) {
	c.tick++
	e.used = c.tick
	c.done[id] = e
	if len(c.done) > cacheSize {
		c.evict()
	}
}

// evict forgets the least recently used analysis. c.mu must be held.
func (c *Cache) evict() {
	var oldest string
	var at uint64
	for id, e := range c.done {
		if oldest == "" || e.used < at {
			oldest, at = id, e.used
		}
	}
	delete(c.done, oldest)
}
