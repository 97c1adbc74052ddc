// Package server is Parlour's table service and its two doors: an HTTP API
// for programs and a WebSocket for browsers.
//
// A table is its record. The service keeps each live table in memory as
// its description, its moves and the state that replaying them gives; it
// commits every change to the store before telling anybody, and after a
// restart rebuilds every live table by replaying its record. Everything a
// seat is sent is built from that seat's view (game.State.View) and the
// events visible to it (game.VisibleTo), plus public facts about the
// table; spectators get the spectator view. Computer seats play through
// the same service methods as people, from their seat's view only.
package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/game"
	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/server/chat"
	"parlour/server/refuse"
	"parlour/store"
)

// BotMaker makes a computer player of game at level. It has the signature
// of package games' NewBot.
type BotMaker func(gameName, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error)

// Config is what a Service is built from. Store and Games are required.
type Config struct {
	Store store.Store
	Games *game.Registry
	// NewBot makes computer players; without it tables may not seat
	// computers.
	NewBot BotMaker
	// Lexicon loads the lexicon called name ("" for the default). Each
	// lexicon is loaded once and shared by every table. Nil means
	// lexicon.Load, with lexicon.DefaultName for "".
	Lexicon func(name string) (*lexicon.Lexicon, error)
	// House are the house word lists the operator adds, each offered by
	// its name beside the embedded lexicons (Lexicons).
	House []*lexicon.Lexicon
	// BaseURL prefixes invite links ("http://localhost:8080").
	BaseURL string
	Logger  *slog.Logger
	// BotTimeout bounds one computer move (default 20s).
	BotTimeout time.Duration
	// MaxWait bounds a move or setup asked with "wait": true
	// (default DefaultMaxWait).
	MaxWait time.Duration
	// IdleEvict is how long a finished table nobody watches stays in
	// memory (default 1 second); after that the store answers for it,
	// replaying its record when it is asked for. A busy server finishes a
	// few hundred games a second, tens of kilobytes each, and every
	// garbage collection walks the ones still held: at 5,000 moves/s,
	// keeping them 5 s made the live heap 44 MB rather than 32, and each
	// collection's mark, which holds up moves, 79-104 ms rather than
	// 42-61 (gctrace). A table someone watches stays however long they
	// watch.
	IdleEvict time.Duration
	// ParkAfter is how long a game in play may go unused, with nobody
	// following it, no clock and no computer seat making a move, before
	// the table leaves memory (default DefaultParkAfter; negative:
	// never). What is needed to list it (the lobby, a player's games)
	// stays, about a kilobyte; anything else that asks for it reads it
	// back from its record, as after a restart. A game played over HTTP
	// between slow players, or left for the day, then costs its record on
	// disk rather than the 20 KB or so of memory a table in play holds. A
	// single node parks tables; a node of a cluster keeps the ones whose
	// lease it holds.
	ParkAfter time.Duration
	// LeftMemory, when set, is told about how many bytes the janitor has
	// just let go of, taking tables out of memory (finished, or parked)
	// or making them shed: memory the next collection frees with nothing
	// allocated, which a process that gives memory back once quiet
	// (cmd/parlour, internal/giveback) counts as it counts a burst.
	LeftMemory func(bytes uint64)
	// OpenExpiry is how long a table whose game has not begun may go
	// without a change (a join, a leave, a setup) before the server
	// cancels it, as if its last player had left (default
	// DefaultOpenExpiry; negative: never).
	OpenExpiry time.Duration
	// Clock is the time the service keeps for moves, chat, the deadlines
	// of tables with a clock and walk-aways (default: the system's).
	Clock Clock
	// WalkAway is how long the player to move at a table without a clock
	// must be away before the others may claim the game (default
	// DefaultWalkAway).
	WalkAway time.Duration
	// RatedPerPair caps the rated games two players finish together in a
	// day (farm.go): RatedPerPair when 0, none when negative.
	RatedPerPair int
	// Shut is the read gate: it decides whether a read of a table is
	// shut to its asker (nil: the daily puzzles' own).
	Shut Shut
	// Envelope wraps each update Watcher.PollPoked hands out, for the
	// door that writes it as it is (the WebSocket): the door names its
	// own message, the table encodes it once for every watcher of a
	// view. Empty: the update's JSON alone.
	Envelope Envelope
	// MayChat, when set, may keep a writer out of a table's chat.
	MayChat MayChat
	// Hidden, when set, returns the writers whose lines reader does not
	// see in any table's chat: blocks set it, so that a player blocked
	// reaches the blocker at no table, the blocker's own or others'.
	Hidden func(ctx context.Context, reader string) (map[string]bool, error)
	// Apart, when set, returns the identities a block keeps apart from
	// reader and the names, in lower case, of those that are accounts:
	// the open tables where one of them sits are left out of reader's
	// lobby (LobbyFor), as a join there would be refused.
	Apart func(ctx context.Context, reader string) (ids, names map[string]bool, err error)
	// ChatLimits are the chat's rate limits (nil: limits of the tables'
	// own). The root shares one with the events' chat rooms, so that a
	// writer's rate counts across every room, tables and events alike.
	ChatLimits *chat.Limits
	// MayRematch, when set, may refuse to make a finished table's next
	// game.
	MayRematch MayRematch
	// MayJoin, when set, may refuse a player a seat beside the players
	// seated.
	MayJoin MayJoin
	// MayPlay, when set, may refuse to seat a player who joins, or a
	// rematch, beside the players seated.
	MayPlay MayPlay
	// DailyGoesOn, when set, may refuse a player's move at an attempt
	// at a daily puzzle.
	DailyGoesOn DailyGoesOn
	// DailyOver, when set, says whether the day of an attempt at a
	// daily puzzle has ended, where the service's own Clock cannot
	// tell: when that clock is set back into a day that has ended.
	DailyOver DailyOver
	// Observers hear of the games that start and finish, after the
	// player streams.
	Observers []Observer
	// Paused, when set, has New restore the tables without arming their
	// clocks or waking their computer players, until Resume (a node of a
	// cluster restores none at start, and has none to hold): a clock
	// that ran out while the server was down ends its game at once,
	// and the Observers, made after the tables, must be there to hear
	// of it.
	Paused bool
	// ChatGate, when set, is asked about every message before it is
	// written in a table's chat: its refusal (a writer a moderator kept
	// out of chat, a word the server does not allow) is the answer, and
	// nothing is written. The root hands in the moderators' gate, which
	// lives above the tables.
	ChatGate chat.Gate
	// Auth resolves tokens and remembers the credentials the service
	// issues (nil: one of the service's own, over Store).
	Auth *auth.Auth
	// Placement says where each table runs. Nil runs every table here
	// (Here), and New then rebuilds every live table in the store; with a
	// Placement (a node of a cluster) New rebuilds none, and each is
	// rebuilt by the node that takes it.
	Placement Placement
	// LobbyPeers lists the other nodes' tables in the lobby (nil: none).
	LobbyPeers LobbyPeers
	// Registerer takes the service's metrics (nil: none are kept
	// anywhere they can be read).
	Registerer prometheus.Registerer
}

// Service is the table service: tables, seats, identities and moves.
type Service struct {
	cfg   Config
	log   *slog.Logger
	st    store.Store
	games *game.Registry

	mu     sync.RWMutex
	tables map[string]*table
	// resume makes Resume's walk once.
	resume sync.Once
	// ratedStart is held from the count of a pair's rated games (pairCap)
	// to the seating of the game it let through, so that starts side by
	// side (joins of several tables at once, rematches of several) are
	// counted one after another, each seeing the last. It is taken
	// before any table's lock, never under one (ratedUnderWay takes each
	// table's), and let go before the observers hear of the start.
	ratedStart sync.Mutex
	// parked holds what stays in memory of the games in play that left
	// it (park.go); a table is in tables or in parked, never both.
	parked map[string]*parked

	// watchedElsewhere holds, by table, the spectators on other nodes of
	// a cluster, each until when its node last vouched for it (Attend),
	// for the lobby's count of those watching. It is the service's, not
	// each table's: few tables have any, and a table keeps to its size
	// class (TestSizes).
	elsewhereMu      sync.Mutex
	watchedElsewhere map[string]map[string]time.Time

	lexMu sync.Mutex
	lexes map[string]*lexicon.Lexicon
	// ruleSets holds rules with options set, by the options as given
	// (ruleKey), up to maxRuleSets, one map shared by the tables given
	// them (rules, once resolved, are only read; a site's tables share a
	// few sets), as the registry's DefaultRules is by the tables that set
	// none. Guarded by lexMu.
	ruleSets map[string]game.Rules

	auth *auth.Auth
	// chatLimits limits each identity's chat messages and each table's,
	// whoever writes them.
	chatLimits *chat.Limits

	ctx    context.Context // canceled by Close: stops the computer players
	cancel context.CancelFunc
	bots   sync.WaitGroup
	botSem chan struct{}

	metrics *metricSet
	// baseURL, when set, overrides cfg.BaseURL (SetBaseURL).
	baseURL atomic.Pointer[string]

	// observers hear of the games that start and finish (observe.go).
	observers []Observer

	// place says where each table runs (place.go): Here, or the
	// cluster.
	place Placement

	// lobbyPeers lists the other nodes' tables; nil for a single node.
	lobbyPeers LobbyPeers

	// jan evicts finished tables and expires open ones (janitor.go).
	jan janitor

	// run keeps the server's run, and the gaps before it, in a store
	// that keeps runs (runs.go).
	run runKeeper
}

// BaseURL returns the address invite links start with.
func (s *Service) BaseURL() string {
	if u := s.baseURL.Load(); u != nil {
		return *u
	}
	return s.cfg.BaseURL
}

// SetBaseURL changes the address invite links start with, for a server
// whose address is known only once it listens (on port 0, say).
func (s *Service) SetBaseURL(u string) { s.baseURL.Store(&u) }

// Config returns the service's configuration, with the defaults New gave
// what was left unset.
func (s *Service) Config() Config { return s.cfg }

// ShuttingDown is what a watcher is told when the server shuts down under
// it; the doors say the same.
const ShuttingDown = "the server is shutting down"

// DayLayout writes a day as the daily puzzles name it ("2006-01-02").
const DayLayout = "2006-01-02"

// New builds a service on cfg and rebuilds every live table in the store
// by replaying its record; computer seats that are due to move resume.
func New(ctx context.Context, cfg Config) (s *Service, err error) {
	if cfg.Store == nil || cfg.Games == nil {
		return nil, errors.New("server: config needs a Store and Games")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Lexicon == nil {
		cfg.Lexicon = func(name string) (*lexicon.Lexicon, error) {
			if name == "" {
				name = lexicon.DefaultName
			}
			return lexicon.Load(name)
		}
	}
	if len(cfg.House) > 0 {
		// A house list is found by its name before anything else: its
		// name is never a path, whatever the loader makes of names.
		load, house := cfg.Lexicon, cfg.House
		cfg.Lexicon = func(name string) (*lexicon.Lexicon, error) {
			if i := slices.IndexFunc(house, func(l *lexicon.Lexicon) bool { return l.Name() == name }); i >= 0 {
				return house[i], nil
			}
			return load(name)
		}
	}
	if cfg.BotTimeout == 0 {
		cfg.BotTimeout = 20 * time.Second
	}
	if cfg.MaxWait == 0 {
		cfg.MaxWait = DefaultMaxWait
	}
	if cfg.OpenExpiry == 0 {
		cfg.OpenExpiry = DefaultOpenExpiry
	}
	if cfg.IdleEvict == 0 {
		cfg.IdleEvict = time.Second
	}
	if cfg.ParkAfter == 0 {
		cfg.ParkAfter = DefaultParkAfter
	}
	if cfg.Clock == nil {
		cfg.Clock = systemClock{}
	}
	if cfg.WalkAway == 0 {
		cfg.WalkAway = DefaultWalkAway
	}
	s = &Service{
		cfg: cfg, log: cfg.Logger, st: cfg.Store, games: cfg.Games,
		tables: map[string]*table{}, parked: map[string]*parked{}, lexes: map[string]*lexicon.Lexicon{}, ruleSets: map[string]game.Rules{},
		botSem:     make(chan struct{}, max(2, runtime.GOMAXPROCS(0))),
		chatLimits: cfg.ChatLimits,
		auth:       cfg.Auth, observers: cfg.Observers, lobbyPeers: cfg.LobbyPeers,
	}
	if s.auth == nil {
		s.auth = auth.New(s.st, s.log, 0)
	}
	if s.chatLimits == nil {
		s.chatLimits = chat.NewLimits(chat.Rates{})
	}
	reg := cfg.Registerer
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	if s.metrics, err = newMetrics(s, reg); err != nil {
		return nil, fmt.Errorf("table: registering metrics: %w", err)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if cfg.Placement != nil {
		s.place = cfg.Placement
		// A node of a cluster restores no table at start: each is
		// rebuilt by the node that takes its lease, knowing when no
		// node ran.
		if err := s.startRun(ctx); err != nil {
			return nil, err
		}
		s.resume.Do(func() {}) // nothing to resume: each table arms its own as it is taken
		return s, nil
	}
	s.place = Here{}
	start := time.Now()
	stored, err := s.st.LiveTables(ctx)
	if err != nil {
		return nil, fmt.Errorf("server: loading live tables: %w", err)
	}
	// The gaps between the server's runs are known before the tables
	// are restored: their clocks stood still then.
	if err := s.startRun(ctx); err != nil {
		return nil, err
	}
	for _, row := range stored {
		t, err := s.restore(row)
		if err != nil {
			// One unreadable table must not keep the others down.
			s.log.Error("cannot restore table", "table", row.ID, "err", err)
			continue
		}
		s.tables[t.id] = t
	}
	s.log.Info("tables restored", "live", len(s.tables), "stored", len(stored), "took", time.Since(start))
	if !cfg.Paused {
		s.Resume()
	}
	return s, nil
}

// Resume arms the clocks of the tables New restored, wakes their
// computer players and queues their janitor's work, once: New does it
// itself unless Config.Paused holds it for its caller.
func (s *Service) Resume() {
	s.resume.Do(func() {
		// The timers these arm may fire before the walk is over, and the
		// janitor's takes tables out of s.tables: it waits for s.mu.
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, t := range s.tables {
			t.mu.Lock()
			s.scheduleBots(t)
			s.armClock(t) // a deadline already passed (the clocks ran on through a quick crash) fires now
			s.noteOpen(t)
			s.noteIdle(t)
			t.unlock()
		}
	})
}

// Close stops the computer players and waits for them; it leaves the
// store open for its owner to close.
func (s *Service) Close() {
	s.endRun()
	s.cancel()
	s.stopJanitor()
	s.mu.RLock()
	ts := s.loaded()
	s.mu.RUnlock()
	for _, t := range ts {
		t.mu.Lock()
		t.tc.stop()
		t.unlock()
	}
	s.bots.Wait()
}

// lexicon returns the shared lexicon called name.
func (s *Service) lexicon(name string) (*lexicon.Lexicon, error) {
	s.lexMu.Lock()
	defer s.lexMu.Unlock()
	if l, ok := s.lexes[name]; ok {
		return l, nil
	}
	l, err := s.cfg.Lexicon(name)
	if err != nil {
		return nil, fmt.Errorf("lexicon %q: %w", name, err)
	}
	s.lexes[name] = l
	if name == "" {
		s.lexes[l.Name()] = l
	}
	return l, nil
}

// maxRuleSets bounds Service.ruleSets: past it the sets start again.
const maxRuleSets = 1024

// rules resolves a table's rule options raw for g, as game.ResolveFor
// does (or, for a table read back from the store, game.Resolve: the rules
// it was made with stand). Rules, once resolved, are only read, so tables
// whose options read the same share one map: rules left all at their
// defaults are the registry's (DefaultRules), and others the map of the
// last table given the same options.
func (s *Service) rules(g game.Game, raw map[string]json.RawMessage, stored bool) (game.Rules, error) {
	if len(raw) == 0 {
		if r := s.games.DefaultRules(g.Name()); r != nil {
			return r, nil
		}
		return game.ResolveFor(g, nil)
	}
	key := ruleKey(g, raw, stored)
	s.lexMu.Lock()
	r, ok := s.ruleSets[key]
	s.lexMu.Unlock()
	if ok {
		return r, nil
	}
	var err error
	if stored {
		r, err = game.Resolve(g.Options(), raw)
	} else {
		r, err = game.ResolveFor(g, raw)
	}
	if err != nil {
		return nil, err
	}
	s.lexMu.Lock()
	defer s.lexMu.Unlock()
	if len(s.ruleSets) >= maxRuleSets {
		clear(s.ruleSets)
	}
	s.ruleSets[key] = r
	return r, nil
}

// ruleKey names g's options raw as given, and whether they were read
// back from the store (game.Resolve, which lets stand what
// game.ResolveFor, checking a new table's, would refuse).
func ruleKey(g game.Game, raw map[string]json.RawMessage, stored bool) string {
	names := slices.Sorted(maps.Keys(raw))
	var b strings.Builder
	b.WriteString(g.Name())
	if stored {
		b.WriteString(" stored")
	}
	for _, n := range names {
		// A quoted name and a counted value: no two sets of options,
		// however their names are spelled, read the same.
		b.WriteString(strconv.Quote(n))
		b.WriteString(strconv.Itoa(len(raw[n])))
		b.WriteByte(':')
		b.Write(raw[n])
	}
	return b.String()
}

// restore rebuilds a table from its stored form by replaying its record.
func (s *Service) restore(row store.Table) (*table, error) {
	var m meta
	if err := json.Unmarshal(row.Meta, &m); err != nil {
		return nil, fmt.Errorf("table %s: reading description: %w", row.ID, err)
	}
	if m.Cancelled != "" || row.Status == store.Cancelled {
		return nil, errCancelled(row.ID, m.Cancelled)
	}
	g, err := s.games.Lookup(m.Game)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", row.ID, err)
	}
	lex, err := s.lexicon(m.Lexicon)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", row.ID, err)
	}
	rules, err := s.rules(g, m.Rules, true)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", row.ID, err)
	}
	t := &table{id: row.ID, g: g, created: row.Created, m: m, lastUse: time.Now(), conf: &s.cfg, changedAt: row.Updated}
	t.tc = newTableClock(rules)
	t.here.size(len(m.Seats), s.now())
	t.cfg = game.Config{Players: t.players(), Rules: rules, Lexicon: lex, Seed: m.Seed}
	t.pack()
	if len(row.Moves) > 0 {
		t.moves = make([]move, len(row.Moves))
	}
	for i, mv := range row.Moves {
		if mv.Seat < 0 || mv.Seat >= len(m.Seats) {
			return nil, fmt.Errorf("table %s: move %d by seat %d", row.ID, mv.Seq, mv.Seat)
		}
		t.moves[i] = move{text: mv.Text, at: mv.At.UnixNano(), seat: int32(mv.Seat)}
	}
	t.renameMoves()
	if m.Started {
		_, st, steps, err := game.Replay(s.games, t.record(), lex)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", row.ID, err)
		}
		t.st = st
		from := max(0, len(steps)-recentSteps)
		for i := from; i < len(steps); i++ {
			t.remember(step{version: m.Start + i + 1, seat: steps[i].Seat, move: steps[i].Move.Move, events: t.noted(i, steps[i].Events)})
		}
	}
	t.status = t.deriveStatus()
	if t.tc.on() && t.st != nil && t.status != store.Finished {
		if err := s.deriveDue(t); err != nil {
			return nil, fmt.Errorf("table %s: the clock: %w", row.ID, err)
		}
	}
	if t.tc.on() && t.status == store.Setup && !t.m.SetupBy.IsZero() {
		t.tc.setupBy = s.Resumed(t.created, t.m.SetupBy)
	}
	return t, nil
}

// renameMoves gives the players their seats' names in the moves that
// name them, read back from the store as they were written: under the
// names the seats played under, which differ once a finished table's
// seat was renamed (an account deleted or renamed, RenameSeat).
func (t *table) renameMoves() {
	r, ok := t.g.(game.MoveRenamer)
	if !ok || t.m.Played == nil || len(*t.m.Played) != len(t.m.Seats) {
		return
	}
	from, to := *t.m.Played, t.players()
	if slices.Equal(from, to) {
		return
	}
	for i := range t.moves {
		t.moves[i].text = r.RenameMove(t.moves[i].text, from, to)
	}
}

// table returns the table called id, from memory or from the store.
func (s *Service) table(ctx context.Context, id string) (*table, error) {
	if !auth.ValidID(id) {
		return nil, refuse.NotFound("there is no table %q", refuse.Clip(id))
	}
	s.mu.RLock()
	t, ok := s.tables[id]
	if ok {
		// Under the read lock, so that the janitor, which parks tables
		// under the write lock, sees that t is about to be used.
		t.looked.Store(time.Now().UnixNano())
	}
	s.mu.RUnlock()
	if ok {
		if t.epoch == s.place.Epoch(id) {
			return t, nil
		}
		// A copy of a lease this node did not hold throughout: another
		// node may have changed the table meanwhile.
		s.dropCopy(t)
	}
	// Only the table's owner holds it in memory.
	owner, err := s.place.Claim(ctx, id)
	if err != nil {
		return nil, err
	}
	if owner != "" {
		return s.readOnly(ctx, id)
	}
	epoch := s.place.Epoch(id)
	row, err := s.st.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse.NotFound("there is no table %q", id)
	}
	if err != nil {
		return nil, s.readFailed("the table", err)
	}
	t, err = s.restore(row)
	if err != nil {
		return nil, err
	}
	t.epoch = epoch
	if s.place.Epoch(id) != epoch {
		// The lease changed hands while the record was read: the copy
		// may be behind it, and is not kept.
		return nil, ErrMoved
	}
	s.mu.Lock()
	old, ok := s.tables[id]
	if ok && old.epoch == epoch {
		s.mu.Unlock()
		return old, nil
	}
	s.unpark(t)
	s.tables[id] = t
	s.mu.Unlock()
	if ok {
		retire(old) // of an earlier lease
	}
	// Rebuilt here by its owner, a live table's computer seats resume
	// and its clock runs again.
	s.place.Restored(id)
	t.mu.Lock()
	s.scheduleBots(t)
	s.armClock(t)
	s.noteOpen(t)
	s.noteIdle(t) // a finished table read back leaves memory again
	t.unlock()
	return t, nil
}

// tablesWhere returns the tables in memory for which ok holds, called
// with each table's lock held. It looks under the read lock, so that
// lookups go on meanwhile, and passes over tables in use: waiting for a
// table's lock, held by a move whose write is on its way to the disk,
// would hold up every lookup behind it.
func (s *Service) tablesWhere(ok func(*table) bool) []*table {
	var out []*table
	s.mu.RLock()
	for _, t := range s.tables {
		if t.mu.TryLock() {
			if ok(t) {
				out = append(out, t)
			}
			t.unlock()
		}
	}
	s.mu.RUnlock()
	return out
}

// persistMeta stores t's description and status. On failure it restores
// old, so memory never runs ahead of the store.
func (s *Service) persistMeta(ctx context.Context, t *table, old meta) error {
	return s.persistMetaWith(ctx, t, old, store.Batch{})
}

// persistMetaWith is persistMeta with other writes of the same request
// (a new guest, a seat's token), made in the same transaction.
func (s *Service) persistMetaWith(ctx context.Context, t *table, old meta, b store.Batch) error {
	if old.Cancelled != "" {
		// A request that found the table just before it was cancelled
		// (Leave, expireOpen) changes nothing.
		t.m = old
		return t.closed()
	}
	t.status = t.deriveStatus()
	desc, err := json.Marshal(t.m)
	if err == nil {
		b.Update = &store.TableUpdate{ID: t.id, Status: t.status, Meta: desc, Epoch: t.epoch}
		err = s.st.Write(ctx, b)
	}
	if err != nil {
		s.fenced(t, err)
		t.m = old
		t.status = t.deriveStatus()
		return s.saveFailed("the table", err)
	}
	t.changedAt = s.now()
	return nil
}

// saveFailed, readFailed and reading are refuse's, with the service's
// log.
func (s *Service) saveFailed(what string, err error) error {
	return refuse.SaveFailed(s.log, what, err)
}

func (s *Service) readFailed(what string, err error) error {
	return refuse.ReadFailed(s.log, what, err)
}

func (s *Service) reading(what string, err *error) { refuse.Reading(s.log, what, err) }

// changed records a change that was not a move: it bumps the version,
// starts play when the table is ready, stores the table, and then tells
// the watchers and the computer players.
func (s *Service) changed(ctx context.Context, t *table, old meta) error {
	return s.changedWith(ctx, t, old, store.Batch{})
}

// changedWith is changed with other writes of the same request, made in
// the same transaction as the table's.
func (s *Service) changedWith(ctx context.Context, t *table, old meta, b store.Batch) error {
	t.m.Changes++
	var st game.State
	if !t.m.Started && t.ready() {
		var err error
		t.pack()
		rec := t.record()
		_, _, st, err = game.Start(s.games, rec, t.cfg.Lexicon)
		if err != nil {
			t.m = old
			return refuse.Unprocessable("the game cannot start: %v", err)
		}
		t.m.Changes++
		t.m.Started = true
		t.m.Start = t.m.Changes
		at := s.now().UTC()
		t.m.StartedAt = at
		t.cfg.Players = t.players()
		t.st = st
	}
	if err := s.persistMetaWith(ctx, t, old, b); err != nil {
		if st != nil {
			t.st = nil
		}
		return err
	}
	t.cfg.Players = t.players()
	t.broadcast()
	if slices.ContainsFunc(old.Seats, seatMeta.open) && !slices.ContainsFunc(t.m.Seats, seatMeta.open) {
		s.started(t)
	}
	s.scheduleBots(t)
	if st != nil {
		s.startClock(t, t.m.StartedAt)
		s.turned(t)
		s.noteIdle(t)
	}
	return nil
}

// seatOf returns the seat p holds at t, or game.Spectator.
func (t *table) seatOf(p *auth.Principal) game.Seat {
	if p == nil {
		return game.Spectator
	}
	if p.Table == t.id && p.Seat >= 0 && p.Seat < len(t.m.Seats) && t.m.Seats[p.Seat].Identity == p.Identity {
		return game.Seat(p.Seat)
	}
	if p.Table == "" {
		for i, st := range t.m.Seats {
			if st.Identity == p.Identity {
				return game.Seat(i)
			}
		}
	}
	return game.Spectator
}

// Identity is a guest identity and a token that stands for it.
type Identity struct {
	ID    string `json:"identity"`
	Name  string `json:"name"`
	Token string `json:"token"`
}

// NewIdentity makes a guest identity called name (a guest name when empty)
// and returns it with its token.
func (s *Service) NewIdentity(ctx context.Context, name string) (Identity, error) {
	name, err := s.auth.GuestName(ctx, name)
	if err != nil {
		return Identity{}, err
	}
	id := Identity{ID: auth.NewID(), Name: name}
	tok, h := auth.NewToken()
	id.Token = tok
	cred := store.Credential{Hash: h, Identity: id.ID}
	if err := s.st.CreateIdentity(ctx, store.Identity{ID: id.ID, Name: name, Created: s.now()}, cred); err != nil {
		return Identity{}, s.saveFailed("your identity", err)
	}
	s.auth.Remember(cred)
	return id, nil
}

// asker is who a create or a join seats: an identity that exists, or a
// new guest that is stored with its seat, in the same transaction.
type asker struct {
	identity, name string
	guest          *store.Identity // nil for an identity that exists
	account        bool            // the identity is an account's
}

// player is what a seated a is: "account" or "guest".
func (a asker) player() string {
	if a.account {
		return "account"
	}
	return "guest"
}

// askerFor returns who is asking: p's identity, or a new guest (not yet
// stored) called name.
func (s *Service) askerFor(ctx context.Context, p *auth.Principal, name string) (asker, error) {
	if p != nil {
		id, err := s.st.Identity(ctx, p.Identity)
		if err != nil {
			return asker{}, s.readFailed("your identity", err)
		}
		if id.Account {
			// An account sits under its own name, so that its games
			// lead to its profile.
			return asker{identity: p.Identity, name: id.Name, account: true}, nil
		}
		if name != "" {
			n, err := s.auth.GuestName(ctx, name)
			return asker{identity: p.Identity, name: n}, err
		}
		return asker{identity: p.Identity, name: id.Name}, nil
	}
	name, err := s.auth.GuestName(ctx, name)
	if err != nil {
		return asker{}, err
	}
	return asker{identity: auth.NewID(), name: name, guest: &store.Identity{Name: name, Created: s.now()}}, nil
}

// seating returns the writes that seat a at seat of table id: the new
// guest if a is one, and the seat's credential, whose token it returns.
// Nothing is stored until the batch is written; then the credential
// should be remembered.
func (a asker) seating(id string, seat int) (store.Batch, string, store.Credential) {
	var b store.Batch
	if a.guest != nil {
		g := *a.guest
		g.ID = a.identity
		b.Identities = []store.Identity{g}
	}
	tok, h := auth.NewToken()
	c := store.Credential{Hash: h, Identity: a.identity, Table: id, Seat: seat}
	b.Credentials = []store.Credential{c}
	return b, tok, c
}

// seatToken issues a token for seat of table id, held by identity.
func (s *Service) seatToken(ctx context.Context, identity, id string, seat int) (string, error) {
	tok, h := auth.NewToken()
	c := store.Credential{Hash: h, Identity: identity, Table: id, Seat: seat}
	if err := s.st.AddCredential(ctx, c); err != nil {
		return "", s.saveFailed("your seat's token", err)
	}
	s.auth.Remember(c)
	return tok, nil
}

func (s *Service) invite(id string) string {
	return strings.TrimRight(s.BaseURL(), "/") + "/t/" + id
}

// Players returns the store's account side, or a refusal when the store
// keeps no accounts.
func (s *Service) Players() (store.Players, error) {
	ps, ok := s.st.(store.Players)
	if !ok {
		return nil, refuse.With(http.StatusNotImplemented, "this server keeps no accounts")
	}
	return ps, nil
}
