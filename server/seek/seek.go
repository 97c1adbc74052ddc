// Package seek is quick pairing: a player asks for a game on given terms
// (a seek), and a seek on the same terms already waiting makes the table
// at once; otherwise the seek is listed for others to accept, for as long
// as its player is about.
//
// Seeks live in memory. A server that stops keeps them in the store
// (Hold), and the next to start takes them back (TakeBack), so that
// players whose pages wait through a restart keep waiting; a crash
// loses them. In a cluster one node keeps them all, the one the cluster
// carries every request about seeks to. Through Peers, that node asks
// the others who holds a stream open there, and hears from them of
// games begun there; a player's stream opening on another node asks it
// for their seeks waiting; and when it closes it hands the book to
// another (Hand, Take), or keeps it in the store when none is left
// (Keep).
package seek

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"parlour/game"
	"parlour/glicko"
	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/server/protocol"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
)

// Window is how long a seek outlives its player's last request about it
// when no stream or socket of theirs is open: a page that waits polls its
// seek more often than this, so a closed page's seek goes within it.
const Window = 30 * time.Second

// MaxPassed is how many matching seeks one seek passes over, their
// pairings refused for the two players alone (a cap of rated games
// together), before its refusal is the answer.
const MaxPassed = 5

// PairedKept is how long the pairing of a seek stays to be read by its
// player (GET /api/v1/seeks/{id}) after it paired.
const PairedKept = 2 * time.Minute

// PerIdentity and PerIdentityBurst limit the seeks one player makes (one
// every 3 s, 10 at once); PerAddr and PerAddrBurst those made from one
// address. A seek is cheap, but each is told to streams and listed.
const (
	PerIdentity      = 1.0 / 3
	PerIdentityBurst = 10
	PerAddr          = 1.0
	PerAddrBurst     = 30
)

// Tables is what seeks need of the tables: *table.Service.
type Tables interface {
	Pair(ctx context.Context, pr table.Pairing) (table.Seated, error)
	CheckPairing(pr table.Pairing) error
	Create(ctx context.Context, p *auth.Principal, req table.CreateRequest) (table.Seated, error)
}

// Streams is what seeks need of the player streams and presence:
// *social.Service.
type Streams interface {
	Tell(identity string, ev social.StreamEvent)
	// Holding reports whether identity has a stream or socket open on
	// this node.
	Holding(identity string) bool
}

// Player is who seeks: an identity, its name, and whether it is an
// account's.
type Player struct {
	Identity, Name string
	Account        bool
}

// Players tells who an identity is and its rating in a pool.
type Players interface {
	Player(ctx context.Context, identity string) (Player, error)
	// Rating returns identity's rating in pool, its RD grown by the time
	// from its last game there to at (glicko.System.Away), and false when
	// it has played no rated game there.
	Rating(ctx context.Context, identity, pool string, at time.Time) (glicko.Rating, bool, error)
}

// Peers is what the seeks need of the other nodes of a cluster; the
// cluster implements it, a single node leaves it nil.
type Peers interface {
	// HoldingElsewhere returns those of identities who hold a stream or
	// socket open on the other nodes, and an error when some did not
	// answer.
	HoldingElsewhere(ctx context.Context, identities []string) ([]string, error)
	// WaitingElsewhere returns identity's seeks waiting on the other
	// nodes, each node's as the JSON of a list of Seeks, and an error
	// when some did not answer.
	WaitingElsewhere(ctx context.Context, identity string) ([]json.RawMessage, error)
	// StartedElsewhere tells the other nodes, without waiting, that a
	// game of each of identities began at table (StartedHere).
	StartedElsewhere(identities []string, table string)
}

// peersWait bounds what the seeks wait for the other nodes' answers.
const peersWait = 2 * time.Second

// Config is what a Service is built from; all but Blocked, Apart and
// Peers are required.
type Config struct {
	Tables  Tables
	Streams Streams
	Players Players
	Games   *game.Registry
	Clock   table.Clock
	Logger  *slog.Logger
	// Blocked, when set, reports whether either of two identities keeps
	// away from the other: their seeks never pair.
	Blocked func(a, b string) bool
	// Apart, when set, returns the identities that identity blocks or
	// that block it: the lobby it reads leaves their seeks out, since
	// it could not accept them, and a blocked player learns nothing of
	// whether the player blocking them is about.
	Apart func(ctx context.Context, identity string) (map[string]bool, error)
	// Peers, on a node of a cluster, reaches the other nodes.
	Peers Peers
	// Held, when set, keeps the book while no server runs (Hold,
	// TakeBack).
	Held store.HeldSeeks
}

// Seek is a waiting seek as the lobby lists it.
type Seek struct {
	ID     string `json:"id"`
	Player string `json:"player"`
	Game   string `json:"game"`
	// Mode is the choice of the game's pool option, when it has one.
	Mode string `json:"mode,omitempty"`
	// Rules are the rule options set away from their defaults, the
	// clock apart.
	Rules   map[string]json.RawMessage `json:"rules,omitempty"`
	Rated   bool                       `json:"rated"`
	Clock   json.RawMessage            `json:"clock,omitempty"`
	Lexicon string                     `json:"lexicon,omitempty"`
	// Rating is the seeker's rating in the game's pool (accounts only).
	Rating int `json:"rating,omitempty"`
	// Provisional is set while that rating is too uncertain for the
	// leaderboards, as a profile says it: a player new to the pool,
	// or back after a long time away, may be far from it.
	Provisional bool `json:"provisional,omitempty"`
	// RatingRange is the opponents' ratings it takes, from min to max.
	RatingRange *Range    `json:"rating_range,omitempty"`
	Created     time.Time `json:"created"`
	// OutOfRange is set, in a list read with a token or session, on a
	// seek whose rating range leaves the reader out (a guest has no
	// rating), so that a lobby offers no accept the seek refuses.
	OutOfRange bool `json:"out_of_range,omitempty"`
}

// Range is a resolved rating range.
type Range struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// Answer is what a seek is answered with: Status "waiting" and the Seek,
// or "paired" (with a person) or "computer" and the asker's seat at the
// new table.
type Answer struct {
	Status string        `json:"status"`
	Seek   *Seek         `json:"seek,omitempty"`
	Table  *table.Seated `json:"table,omitempty"`
}

// Pairing is how a seek ended for its player, read back with Get.
type Pairing struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"`
}

// key is the terms two seeks must share to pair: the book's index.
type key struct {
	game, rules, clock, lexicon string
	rated                       bool
}

// entry is one waiting seek with what matching needs.
type entry struct {
	seek     Seek
	identity string
	account  bool
	key      key
	g        game.Game
	rules    game.Rules
	// rating is the seeker's rating in the pool (DefaultRating for an
	// account new to it); hasRating is false for a guest.
	rating    float64
	hasRating bool
	// provisional is whether rating is (glicko.Provisional).
	provisional bool
	// lo, hi bound the opponent's rating when ranged.
	lo, hi float64
	ranged bool
	// seen is when the player last asked about it.
	seen time.Time
	// renamed, when set, is the player's name since a moderator renamed
	// them: the seek is listed under it. Guarded by Service.mu, unlike
	// seek, which is read without it once the entry is found.
	renamed string
}

// listed returns e's seek as it is listed now: under its player's name
// of now. Service.mu is held.
func (e *entry) listed() Seek {
	sk := e.seek
	if e.renamed != "" {
		sk.Player = e.renamed
	}
	return sk
}

// admits reports whether e takes an opponent rated r (hasR false: none).
func (e *entry) admits(r float64, hasR bool) bool {
	if !e.ranged {
		return true
	}
	return hasR && r >= e.lo && r <= e.hi
}

// book is the waiting seeks, indexed by their terms, by id and by player
// and game.
type book struct {
	buckets  map[key][]*entry
	byID     map[string]*entry
	byPlayer map[string]map[string]*entry // identity -> game -> seek
}

func newBook() *book {
	return &book{buckets: map[key][]*entry{}, byID: map[string]*entry{}, byPlayer: map[string]map[string]*entry{}}
}

func (b *book) add(e *entry) {
	b.buckets[e.key] = append(b.buckets[e.key], e)
	b.byID[e.seek.ID] = e
	if b.byPlayer[e.identity] == nil {
		b.byPlayer[e.identity] = map[string]*entry{}
	}
	b.byPlayer[e.identity][e.seek.Game] = e
}

func (b *book) remove(e *entry) {
	if b.byID[e.seek.ID] != e {
		return
	}
	delete(b.byID, e.seek.ID)
	bk := b.buckets[e.key]
	if i := slices.Index(bk, e); i >= 0 {
		bk = slices.Delete(bk, i, i+1)
	}
	if len(bk) == 0 {
		delete(b.buckets, e.key)
	} else {
		b.buckets[e.key] = bk
	}
	if m := b.byPlayer[e.identity]; m != nil {
		delete(m, e.seek.Game)
		if len(m) == 0 {
			delete(b.byPlayer, e.identity)
		}
	}
}

// paired is a seek that made a table, kept for its player to read; or,
// with playing set, one withdrawn when another game of its player's
// began, at p.Table (Started), kept to say so.
type paired struct {
	identity string
	p        Pairing
	at       time.Time
	playing  bool
}

// Service keeps the waiting seeks and pairs them.
type Service struct {
	cfg    Config
	mu     sync.Mutex
	book   *book
	paired map[string]paired
	// pairing holds the seeks taken from the book while their table is
	// made, by id: their players still read them as waiting.
	pairing map[string]*entry
	// asking holds the players whose own seek or acceptance is making a
	// table of theirs, by game: a second seek or acceptance of theirs at
	// that moment, which finds no seek of theirs in the book or in
	// pairing, would seat them at two tables.
	asking map[asker]bool
	sweep  table.Timer
	closed bool
	// held is set once the book is held in the store (Hold): the
	// server stops, and takes no more seeks.
	held bool
	// elsewhere is who held a stream or socket open on the other nodes
	// of a cluster at the last sweep: their seeks wait on as those of
	// players holding one here do.
	elsewhere map[string]bool
}

// asker is a player making a table for a game by a seek or an
// acceptance (Service.asking).
type asker struct{ identity, game string }

// New returns a Service of cfg, sweeping away the seeks of players gone
// every Window.
func New(cfg Config) *Service {
	s := &Service{cfg: cfg, book: newBook(), paired: map[string]paired{}, pairing: map[string]*entry{}, asking: map[asker]bool{}}
	s.mu.Lock()
	s.sweep = cfg.Clock.AfterFunc(Window, s.sweepLoop)
	s.mu.Unlock()
	return s
}

// Close stops the sweeping.
func (s *Service) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.sweep != nil {
		s.sweep.Stop()
	}
}

func (s *Service) now() time.Time { return s.cfg.Clock.Now() }

func (s *Service) sweepLoop() {
	s.Sweep()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.sweep = s.cfg.Clock.AfterFunc(Window, s.sweepLoop)
	}
}

// present reports whether e's player is still about: a stream or socket
// open, or a request about the seek within Window.
func (s *Service) present(e *entry, now time.Time) bool {
	return now.Sub(e.seen) <= Window || s.cfg.Streams.Holding(e.identity) || s.elsewhere[e.identity]
}

// Sweep drops the seeks whose players are gone and forgets old pairings.
// On a node of a cluster, it first asks the other nodes which of the
// players whose seeks wait, and hold no stream open here, hold one
// there; should a node not answer, those found there before count as
// still there.
func (s *Service) Sweep() {
	if s.cfg.Peers != nil {
		s.mu.Lock()
		ask := make([]string, 0, len(s.book.byPlayer))
		for id := range s.book.byPlayer {
			if !s.cfg.Streams.Holding(id) {
				ask = append(ask, id)
			}
		}
		s.mu.Unlock()
		held := map[string]bool{}
		if len(ask) > 0 {
			ctx, cancel := context.WithTimeout(context.Background(), peersWait)
			ids, err := s.cfg.Peers.HoldingElsewhere(ctx, ask)
			cancel()
			for _, id := range ids {
				held[id] = true
			}
			if err != nil {
				s.mu.Lock()
				for id := range s.elsewhere {
					held[id] = true
				}
				s.mu.Unlock()
			}
		}
		s.mu.Lock()
		s.elsewhere = held
		s.mu.Unlock()
	}
	now := s.now()
	var gone []*entry
	s.mu.Lock()
	for _, e := range s.book.byID {
		if !s.present(e, now) {
			s.book.remove(e)
			gone = append(gone, e)
		}
	}
	for id, p := range s.paired {
		if now.Sub(p.at) > PairedKept {
			delete(s.paired, id)
		}
	}
	s.mu.Unlock()
	for _, e := range gone {
		s.tellGone(e, "gone", "")
	}
}

// streamSeek is the seek of a "seek" or "seekGone" stream line.
type streamSeek struct {
	Seek
	// Reason, in a seekGone, is "paired", "playing" (another game of its
	// player's began), "canceled" or "gone" (its player left).
	Reason string `json:"reason,omitempty"`
	// Table, in a seekGone that paired, is the table it made; in one
	// of "playing", the table of the game that began.
	Table string `json:"table,omitempty"`
}

func (s *Service) tell(identity, typ string, ss streamSeek) {
	b, err := json.Marshal(ss)
	if err != nil {
		return
	}
	s.cfg.Streams.Tell(identity, social.StreamEvent{Type: typ, Seek: b})
}

func (s *Service) tellGone(e *entry, reason, tableID string) {
	s.tell(e.identity, "seekGone", streamSeek{Seek: e.seek, Reason: reason, Table: tableID})
}

// terms resolves a request's game, rules and key, and refuses what no
// seek may ask for.
func (s *Service) terms(req protocol.SeekRequest) (game.Game, game.Rules, key, error) {
	g, err := s.cfg.Games.Lookup(strings.ToLower(strings.TrimSpace(req.Game)))
	if err != nil {
		return nil, nil, key{}, refuse.Bad("%v", err)
	}
	if lo, hi := g.Players(); lo > 2 || hi < 2 {
		return nil, nil, key{}, refuse.Bad("%s is not played by two, so there is nobody to pair you with", g.Title())
	}
	raw := make(map[string]json.RawMessage, len(req.Rules)+2)
	for k, v := range req.Rules {
		raw[k] = v
	}
	if req.Mode != "" {
		opt := ""
		if r, ok := g.(game.Rated); ok {
			opt = r.PoolOption()
		}
		if opt == "" {
			return nil, nil, key{}, refuse.Bad("%s has no modes: leave out mode", g.Title())
		}
		if _, ok := raw[opt]; ok {
			return nil, nil, key{}, refuse.Bad("give the mode once: as mode, or in the rules")
		}
		b, _ := json.Marshal(req.Mode)
		raw[opt] = b
	}
	if len(req.Clock) > 0 {
		if _, ok := raw[game.ClockOption]; ok {
			return nil, nil, key{}, refuse.Bad("give the clock once: as clock, or in the rules")
		}
		raw[game.ClockOption] = req.Clock
	}
	rules, err := game.ResolveFor(g, raw)
	if err != nil {
		return nil, nil, key{}, refuse.Bad("%v", err)
	}
	lex := strings.TrimSpace(req.Lexicon)
	if lex != "" && !game.UsesWords(g) {
		// The game never reads it: kept, it would keep this seek from
		// pairing with the same seek without it.
		return nil, nil, key{}, table.NoWords(g)
	}
	// A name in another case ("EN") is the same list, and the same seek.
	if i := slices.IndexFunc(lexicon.Names(), func(n string) bool { return strings.EqualFold(n, lex) }); i >= 0 {
		lex = lexicon.Names()[i]
	}
	if lex != "" && !slices.Contains(lexicon.Names(), lex) {
		return nil, nil, key{}, refuse.Bad("there is no lexicon %q (there are %s)", refuse.Clip(lex), strings.Join(lexicon.Names(), ", "))
	}
	if lex == lexicon.DefaultName {
		lex = ""
	}
	k := key{game: g.Name(), rated: req.Rated, lexicon: lex}
	// The clock is keyed as its bytes (what clock kinds mean is the
	// tables'), the other rules as the options set away from their
	// defaults, in order.
	nd := table.RawRules(g, rules)
	if c, ok := nd[game.ClockOption]; ok {
		k.clock = string(c)
		delete(nd, game.ClockOption)
	}
	if len(nd) > 0 {
		b, _ := json.Marshal(nd) // maps marshal with sorted keys
		k.rules = string(b)
	}
	return g, rules, k, nil
}

// Seek seeks a game for p on req's terms: it pairs p at once with a
// matching seek already waiting, or makes p's seek wait. A guest seeks
// casual games without a rating range; a rated seek is with a person; a
// player has one seek waiting per game.
func (s *Service) Seek(ctx context.Context, p *auth.Principal, req protocol.SeekRequest) (Answer, error) {
	if p == nil {
		return Answer{}, refuse.With(401, "seeking needs an identity: send your identity token or session")
	}
	me, err := s.cfg.Players.Player(ctx, p.Identity)
	if err != nil {
		return Answer{}, err
	}
	if req.Rated && !me.Account {
		return Answer{}, refuse.Forbidden("only players with accounts play rated games: sign up or sign in first, or seek a casual game")
	}
	if req.RatingRange != nil && !me.Account {
		return Answer{}, refuse.Forbidden("a guest has no rating, so a rating range cannot be measured from it: sign up, or leave out rating_range")
	}
	if req.Opponent == "computer" {
		return s.computer(ctx, p, me, req)
	}
	g, rules, k, err := s.terms(req)
	if err != nil {
		return Answer{}, err
	}
	e := &entry{identity: me.Identity, account: me.Account, key: k, g: g, rules: rules}
	pool, _ := game.Pool(g, rules)
	if me.Account {
		r, ok, err := s.cfg.Players.Rating(ctx, me.Identity, pool, s.now())
		if err != nil {
			return Answer{}, err
		}
		if !ok {
			r = glicko.New()
		}
		e.rating, e.hasRating, e.provisional = r.Value, true, glicko.Provisional(r)
	}
	if rr := req.RatingRange; rr != nil {
		e.ranged = true
		if rr.Within != nil {
			e.lo, e.hi = e.rating-float64(*rr.Within), e.rating+float64(*rr.Within)
		} else {
			e.lo, e.hi = 0, math.Inf(1)
			if rr.Min != nil {
				e.lo = float64(*rr.Min)
			}
			if rr.Max != nil {
				e.hi = float64(*rr.Max)
			}
		}
	}
	if req.Rated {
		// The rated checks of a table (default rules, a rated game, the
		// default word list), against a stand-in opponent.
		pr := table.Pairing{Game: g, Rules: rules, Rated: true, Lexicon: k.lexicon, Asker: me.Identity,
			Seats: []table.PairedSeat{{Identity: me.Identity, Name: me.Name}, {Identity: "", Name: "opponent"}}}
		if err := s.cfg.Tables.CheckPairing(pr); err != nil {
			return Answer{}, err
		}
	}
	now := s.now()
	e.seen = now
	e.seek = Seek{ID: auth.NewID(), Player: me.Name, Game: g.Name(), Rated: req.Rated, Clock: json.RawMessage(k.clock), Lexicon: k.lexicon, Created: now.UTC()}
	if k.rules != "" {
		_ = json.Unmarshal([]byte(k.rules), &e.seek.Rules)
	}
	if r, ok := g.(game.Rated); ok && r.PoolOption() != "" {
		e.seek.Mode = rules.String(r.PoolOption())
		delete(e.seek.Rules, r.PoolOption())
		if len(e.seek.Rules) == 0 {
			e.seek.Rules = nil
		}
	}
	if e.hasRating {
		e.seek.Rating, e.seek.Provisional = int(math.Round(e.rating)), e.provisional
	}
	if e.ranged {
		hi := e.hi
		if math.IsInf(hi, 1) {
			hi = protocol.MaxRating
		}
		e.seek.RatingRange = &Range{Min: int(math.Max(0, math.Round(e.lo))), Max: int(math.Round(hi))}
	}

	// A pairing refused for its two players alone (they have played
	// their rated games together for the day) passes on to the next
	// seek that matches: the oldest must not stand between the seeker
	// and every other.
	var refused error
	var passed []*entry
	for {
		s.mu.Lock()
		if s.held {
			s.mu.Unlock()
			return Answer{}, refuse.Unavailable("the server is restarting, and took no seek: seek again in a moment")
		}
		old := s.book.byPlayer[me.Identity][g.Name()]
		if old == nil || !s.present(old, now) {
			// One whose table is being made waits still, as its player
			// reads it: a second would seat them at two tables.
			if w := s.pairingOf(me.Identity, g.Name()); w != nil {
				old = w
			}
		}
		if old != nil && (s.present(old, now) || s.pairing[old.seek.ID] == old) {
			s.mu.Unlock()
			return Answer{}, refuse.Conflict("you already have a %s seek waiting (%s): cancel it first, or wait for it", g.Title(), old.seek.ID)
		}
		if s.asking[asker{me.Identity, g.Name()}] {
			s.mu.Unlock()
			return Answer{}, askingConflict(g)
		}
		other, gone := s.match(e, now, passed)
		if old := s.book.byPlayer[me.Identity][g.Name()]; old != nil {
			s.book.remove(old) // its player left it and came back
			gone = append(gone, old)
		}
		if other == nil && refused != nil {
			// Only seeks it may not pair with match: as documented,
			// the refusal is the answer, and theirs wait on.
			s.mu.Unlock()
			for _, o := range gone {
				s.tellGone(o, "gone", "")
			}
			return Answer{}, refused
		}
		if other == nil {
			s.book.add(e)
			s.mu.Unlock()
			for _, o := range gone {
				s.tellGone(o, "gone", "")
			}
			s.tell(me.Identity, "seek", streamSeek{Seek: e.seek})
			sk := e.seek
			return Answer{Status: "waiting", Seek: &sk}, nil
		}
		s.book.remove(other)
		s.pairing[other.seek.ID] = other
		s.asking[asker{me.Identity, g.Name()}] = true
		s.mu.Unlock()
		for _, o := range gone {
			s.tellGone(o, "gone", "")
		}
		seated, err := s.pair(ctx, other, e, nil)
		if err == nil {
			return Answer{Status: "paired", Table: &seated}, nil
		}
		if refuse.Status(err) != http.StatusTooManyRequests || len(passed) >= MaxPassed {
			return Answer{}, err
		}
		if refused == nil {
			refused = err
		}
		passed = append(passed, other)
	}
}

// askingConflict is the refusal of a seek or an acceptance whose player
// is having a table for g made by another at this moment.
func askingConflict(g game.Game) error {
	return refuse.Conflict("a table of yours for %s is being made from another pairing at this moment: one game at a time", g.Title())
}

// pairingOf returns identity's seek for game whose table is being made,
// or nil. s.mu is held.
func (s *Service) pairingOf(identity, game string) *entry {
	for _, w := range s.pairing {
		if w.identity == identity && w.seek.Game == game {
			return w
		}
	}
	return nil
}

// match finds the oldest waiting seek that e pairs with, passing over
// those in passed, and dropping on the way the seeks of players gone
// (returned, to be told so once s.mu is released). s.mu is held.
func (s *Service) match(e *entry, now time.Time, passed []*entry) (*entry, []*entry) {
	var found *entry
	var gone []*entry
	for _, o := range s.book.buckets[e.key] {
		if o.identity == e.identity || !o.admits(e.rating, e.hasRating) || !e.admits(o.rating, o.hasRating) || slices.Contains(passed, o) {
			continue
		}
		if !s.present(o, now) {
			gone = append(gone, o)
			continue
		}
		if s.cfg.Blocked != nil && s.cfg.Blocked(o.identity, e.identity) {
			continue
		}
		found = o
		break
	}
	for _, o := range gone {
		s.book.remove(o)
	}
	return found, gone
}

// pair makes the table of waiting seek w and the seek e that matched it,
// e's player asking, who is in s.asking until it returns; own is the
// asker's waiting seek for the game, when they accepted w, or nil.
// Should the table not be made, w and own wait again. Both have left the
// book for s.pairing, where its player reads it as waiting while the
// table is made (a store's write, which a busy server takes its time
// over): a seek that answered "no such seek" then would send its player
// away from the game it found.
func (s *Service) pair(ctx context.Context, w, e, own *entry) (table.Seated, error) {
	// The waiting player sits as they are now, not as they sought: a
	// guest may have made an account of themselves meanwhile, and an
	// account been renamed. Should that not be read, the seek's name
	// does.
	waiting := table.PairedSeat{Identity: w.identity, Name: w.seek.Player, Guest: !w.account}
	if now, err := s.cfg.Players.Player(ctx, w.identity); err == nil {
		waiting.Name, waiting.Guest = now.Name, !now.Account
	}
	seated, err := s.cfg.Tables.Pair(ctx, table.Pairing{
		Game: e.g, Rules: e.rules, Rated: e.key.rated, Lexicon: e.key.lexicon, Asker: e.identity,
		Seats: []table.PairedSeat{waiting, {Identity: e.identity, Name: e.seek.Player, Guest: !e.account}},
	})
	me := asker{e.identity, e.seek.Game}
	if err != nil {
		s.mu.Lock()
		delete(s.asking, me)
		for _, x := range []*entry{w, own} {
			if x == nil {
				continue
			}
			delete(s.pairing, x.seek.ID)
			if s.book.byPlayer[x.identity][x.seek.Game] == nil {
				s.book.add(x)
			}
		}
		s.mu.Unlock()
		return table.Seated{}, err
	}
	s.mu.Lock()
	delete(s.asking, me)
	delete(s.pairing, w.seek.ID)
	s.paired[w.seek.ID] = paired{identity: w.identity, p: Pairing{Table: seated.Table, Seat: 1 - seated.Seat}, at: s.now()}
	// The asker's own seek for this game, when they accepted another's,
	// has found its game too.
	if own != nil {
		delete(s.pairing, own.seek.ID)
		s.paired[own.seek.ID] = paired{identity: e.identity, p: Pairing{Table: seated.Table, Seat: seated.Seat}, at: s.now()}
	}
	s.mu.Unlock()
	s.tellGone(w, "paired", seated.Table)
	if own != nil {
		s.tellGone(own, "paired", seated.Table)
	}
	s.cfg.Logger.Info("seeks paired", "table", seated.Table, "game", e.key.game, "rated", e.key.rated)
	return seated, nil
}

// Accept pairs p with waiting seek id on its terms, as a matching seek
// of p's would.
func (s *Service) Accept(ctx context.Context, p *auth.Principal, id string) (Answer, error) {
	if p == nil {
		return Answer{}, refuse.With(401, "accepting a seek needs an identity: send your identity token or session")
	}
	me, err := s.cfg.Players.Player(ctx, p.Identity)
	if err != nil {
		return Answer{}, err
	}
	now := s.now()
	s.mu.Lock()
	w := s.book.byID[id]
	if w == nil || !s.present(w, now) {
		_, taken := s.paired[id]
		_, pairing := s.pairing[id]
		s.mu.Unlock()
		if taken || pairing {
			// It paired a moment ago, its pairing kept a while: a seek
			// taken meanwhile, as players-api.md has it.
			return Answer{}, refuse.Conflict("this seek was taken meanwhile: its player has a game now")
		}
		return Answer{}, refuse.NotFound("there is no seek %q waiting: it was taken, canceled, or its player left", refuse.Clip(id))
	}
	seeker := w.listed().Player // as the lobby names them now
	s.mu.Unlock()
	if w.identity == me.Identity {
		return Answer{}, refuse.Bad("this seek is yours: another player accepts it (cancel it with DELETE)")
	}
	if w.key.rated && !me.Account {
		return Answer{}, refuse.Forbidden("this seek is for a rated game, and only players with accounts play rated games: sign up or sign in first")
	}
	e := &entry{identity: me.Identity, account: me.Account, key: w.key, g: w.g, rules: w.rules, seen: now}
	e.seek = Seek{ID: auth.NewID(), Player: me.Name, Game: w.seek.Game, Rated: w.seek.Rated, Created: now.UTC()}
	if me.Account {
		pool, _ := game.Pool(w.g, w.rules)
		r, ok, err := s.cfg.Players.Rating(ctx, me.Identity, pool, now)
		if err != nil {
			return Answer{}, err
		}
		if !ok {
			r = glicko.New()
		}
		e.rating, e.hasRating, e.provisional = r.Value, true, glicko.Provisional(r)
	}
	if !w.admits(e.rating, e.hasRating) {
		if !e.hasRating {
			return Answer{}, refuse.Forbidden("%s seeks opponents rated %d to %d, and a guest has no rating", seeker, w.seek.RatingRange.Min, w.seek.RatingRange.Max)
		}
		return Answer{}, refuse.Forbidden("%s seeks opponents rated %d to %d; yours is %d", seeker, w.seek.RatingRange.Min, w.seek.RatingRange.Max, int(math.Round(e.rating)))
	}
	if s.cfg.Blocked != nil && s.cfg.Blocked(w.identity, e.identity) {
		return Answer{}, refuse.NotFound("there is no seek %q waiting: it was taken, canceled, or its player left", refuse.Clip(id))
	}
	s.mu.Lock()
	if s.book.byID[id] != w {
		s.mu.Unlock()
		return Answer{}, refuse.Conflict("this seek was taken or canceled meanwhile")
	}
	if mine := s.pairingOf(me.Identity, w.seek.Game); mine != nil {
		// The acceptor's own seek is pairing them with somebody else
		// at this moment: one game at a time.
		s.mu.Unlock()
		return Answer{}, refuse.Conflict("your own %s seek (%s) is pairing you with another player at this moment: play that game", w.g.Title(), mine.seek.ID)
	}
	if s.asking[asker{me.Identity, w.seek.Game}] {
		s.mu.Unlock()
		return Answer{}, askingConflict(w.g)
	}
	s.book.remove(w)
	s.pairing[w.seek.ID] = w
	s.asking[asker{me.Identity, w.seek.Game}] = true
	// The acceptor's own seek for the game leaves the book with it, so
	// that nobody else pairs with it while this table is made.
	own := s.book.byPlayer[me.Identity][w.seek.Game]
	if own != nil {
		s.book.remove(own)
		s.pairing[own.seek.ID] = own
	}
	s.mu.Unlock()
	seated, err := s.pair(ctx, w, e, own)
	if err != nil {
		return Answer{}, err
	}
	return Answer{Status: "paired", Table: &seated}, nil
}

// computer answers a seek of the computer: a table against it at once,
// at the level p's rating in the pool suggests (Level).
func (s *Service) computer(ctx context.Context, p *auth.Principal, me Player, req protocol.SeekRequest) (Answer, error) {
	if req.Rated {
		return Answer{}, refuse.Bad("rated games are between people: a seek of the computer is casual; leave out rated")
	}
	if req.RatingRange != nil {
		return Answer{}, refuse.Bad("the computer has no rating: leave out rating_range")
	}
	g, rules, k, err := s.terms(req)
	if err != nil {
		return Answer{}, err
	}
	r, ok := glicko.New(), false
	if me.Account {
		pool, _ := game.Pool(g, rules)
		if r, ok, err = s.cfg.Players.Rating(ctx, me.Identity, pool, s.now()); err != nil {
			return Answer{}, err
		}
	}
	level := Level(r.Value, ok)
	raw := table.RawRules(g, rules)
	seated, err := s.cfg.Tables.Create(ctx, p, table.CreateRequest{Game: g.Name(), Rules: raw, Seats: []string{"me", "computer:" + level}, Lexicon: k.lexicon, Private: true})
	if err != nil {
		return Answer{}, err
	}
	return Answer{Status: "computer", Table: &seated}, nil
}

// Level is the computer's level for a player rated r in a pool (rated
// false: a player new to it, or a guest): easy below 1400, strong from
// 1700, medium between and for newcomers. A new rating starts at 1500,
// and the computer's medium plays about there.
func Level(r float64, rated bool) string {
	switch {
	case !rated:
		return game.Medium
	case r < 1400:
		return game.Easy
	case r >= 1700:
		return game.Strong
	}
	return game.Medium
}

// Cancel withdraws p's seek id.
func (s *Service) Cancel(ctx context.Context, p *auth.Principal, id string) error {
	if p == nil {
		return refuse.With(401, "canceling a seek needs your identity token or session")
	}
	s.mu.Lock()
	e := s.book.byID[id]
	if e == nil || e.identity != p.Identity {
		pd, done := s.paired[id]
		w := s.pairing[id]
		s.mu.Unlock()
		switch {
		case done && pd.identity == p.Identity && pd.playing:
			return refuse.NotFound("your seek %s stopped waiting when your game at table %s began", refuse.Clip(id), pd.p.Table)
		case done && pd.identity == p.Identity:
			return refuse.Conflict("this seek paired already: its table is %s", pd.p.Table)
		case w != nil && w.identity == p.Identity:
			return refuse.Conflict("this seek has just found an opponent: its table is being made")
		}
		return refuse.NotFound("you have no seek %q waiting", refuse.Clip(id))
	}
	s.book.remove(e)
	s.mu.Unlock()
	s.tellGone(e, "canceled", "")
	return nil
}

// Drop takes identity's waiting seeks out of the book, telling its
// player ("gone"): the root calls it when an account will play no more
// (deleted, or closed by a moderator), so that no seek pairs anybody with
// a player who cannot move. A seek already pairing as Drop runs makes its
// table: its opponent then wins by claiming the game (a walk-away) or by
// the clock.
func (s *Service) Drop(identity string) {
	s.drop([]string{identity}, "gone", "")
}

// Renamed lists identity's seeks, those waiting and those whose table is
// being made, under name from now on: the root calls it when a moderator
// renames an account, so that a name taken away for giving offence
// leaves the lobby at once rather than when the seek ends. The table a
// seek makes seats its player under their name of then anyway (pair).
func (s *Service) Renamed(identity, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.book.byPlayer[identity] {
		e.renamed = name
	}
	for _, e := range s.pairing {
		if e.identity == identity {
			e.renamed = name
		}
	}
}

// Started withdraws the waiting seeks of the people seated at a game
// that began between two or more of them (n), telling each "seekGone"
// with reason "playing" and the table: a seek left waiting would pair its
// player into a second game, its clock running while they play the
// first. A game against the computer keeps them (the browser offers one
// while a seek waits), as does a game of one seat.
func (s *Service) Started(n table.GameNote) {
	var people []string
	for _, id := range n.Seats {
		if id != "" && !slices.Contains(people, id) {
			people = append(people, id)
		}
	}
	if len(people) >= 2 {
		s.drop(people, "playing", n.Table)
		if s.cfg.Peers != nil {
			// The book may be kept on another node.
			s.cfg.Peers.StartedElsewhere(people, n.Table)
		}
	}
}

// StartedHere withdraws identity's waiting seeks, as Started does, for a
// game of theirs that began at table on another node of a cluster.
func (s *Service) StartedHere(identity, table string) {
	s.drop([]string{identity}, "playing", table)
}

// Clear withdraws every waiting seek, telling each player ("gone"): on a
// node of a cluster, another node has taken the book over, and their
// players seek again there.
func (s *Service) Clear() {
	s.mu.Lock()
	gone := make([]*entry, 0, len(s.book.byID))
	for _, e := range s.book.byID {
		gone = append(gone, e)
	}
	for _, e := range gone {
		s.book.remove(e)
	}
	s.mu.Unlock()
	for _, e := range gone {
		s.tellGone(e, "gone", "")
	}
}

// drop withdraws the waiting seeks of identities, telling each player
// why (and the table, for "playing").
func (s *Service) drop(identities []string, reason, tableID string) {
	s.mu.Lock()
	var gone []*entry
	for _, id := range identities {
		for _, e := range s.book.byPlayer[id] {
			gone = append(gone, e)
		}
	}
	for _, e := range gone {
		s.book.remove(e)
		if reason == "playing" {
			s.paired[e.seek.ID] = paired{identity: e.identity, p: Pairing{Table: tableID}, at: s.now(), playing: true}
		}
	}
	s.mu.Unlock()
	for _, e := range gone {
		s.tellGone(e, reason, tableID)
	}
}

// Handed is a waiting seek as a node of a cluster hands it to another
// when it closes (Hand, Take): what the book keeps of it, its game and
// rules as the seek named them.
type Handed struct {
	Seek     Seek   `json:"seek"`
	Identity string `json:"identity"`
	Account  bool   `json:"account,omitempty"`
	// Rules are the rule options set away from their defaults but the
	// clock, as JSON; Clock the clock's.
	Rules       string    `json:"rules,omitempty"`
	Clock       string    `json:"clock,omitempty"`
	Lexicon     string    `json:"lexicon,omitempty"`
	Rated       bool      `json:"rated,omitempty"`
	Rating      float64   `json:"rating,omitempty"`
	HasRating   bool      `json:"has_rating,omitempty"`
	Provisional bool      `json:"provisional,omitempty"`
	Ranged      bool      `json:"ranged,omitempty"`
	Lo          float64   `json:"lo,omitempty"`
	Hi          *float64  `json:"hi,omitempty"` // nil: no upper bound
	Seen        time.Time `json:"seen"`
	Renamed     string    `json:"renamed,omitempty"`
	// Paired, when set, is the table a seek that paired lately made,
	// its player perhaps yet to read it (Get); Playing says the seek
	// stopped waiting for another game of its player's at that table.
	// Such a seek waits no more: only its answer is handed on.
	Paired  *Pairing `json:"paired,omitempty"`
	Playing bool     `json:"playing,omitempty"`
}

// Hand takes every waiting seek out of the book, telling nobody, for
// another node to Take: a node of a cluster that closes hands its book
// on rather than drop it. The answers of the seeks that paired lately
// (Get) go with them, so that a player whose page has yet to read its
// seek's table finds it on the node that takes them.
func (s *Service) Hand() []Handed {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Handed, 0, len(s.book.byID)+len(s.paired))
	for id, pd := range s.paired {
		pp := pd.p
		out = append(out, Handed{Seek: Seek{ID: id}, Identity: pd.identity, Paired: &pp, Playing: pd.playing})
	}
	clear(s.paired)
	answers := len(out)
	for _, e := range s.book.byID {
		h := Handed{Seek: e.seek, Identity: e.identity, Account: e.account, Rules: e.key.rules, Clock: e.key.clock,
			Lexicon: e.key.lexicon, Rated: e.key.rated, Rating: e.rating, HasRating: e.hasRating, Provisional: e.provisional,
			Ranged: e.ranged, Lo: e.lo, Seen: e.seen, Renamed: e.renamed}
		if !math.IsInf(e.hi, 1) {
			hi := e.hi
			h.Hi = &hi
		}
		out = append(out, h)
	}
	for _, h := range out[answers:] {
		s.book.remove(s.book.byID[h.Seek.ID])
	}
	return out
}

// Take adds seeks another node handed on to the book, as they waited
// there, and the answers of those that paired, read as there for
// PairedKept from now. One whose game or rules this node does not know,
// or whose player already has a seek for its game here, is dropped, its
// player told ("gone"). It returns how many seeks it took to wait.
func (s *Service) Take(hs []Handed) int {
	var gone []*entry
	taken := 0
	s.mu.Lock()
	for _, h := range hs {
		if h.Paired != nil {
			// An answer its player has yet to read, kept for
			// PairedKept from now.
			if auth.ValidID(h.Seek.ID) && h.Identity != "" {
				s.paired[h.Seek.ID] = paired{identity: h.Identity, p: *h.Paired, at: s.now(), playing: h.Playing}
			}
			continue
		}
		e, err := s.handed(h)
		switch {
		case err != nil:
			s.cfg.Logger.Warn("a seek handed on or held is dropped", "seek", h.Seek.ID, "err", err)
			if e != nil {
				gone = append(gone, e)
			}
		case s.book.byID[e.seek.ID] != nil || s.book.byPlayer[e.identity][e.seek.Game] != nil:
			gone = append(gone, e)
		default:
			s.book.add(e)
			taken++
		}
	}
	s.mu.Unlock()
	for _, e := range gone {
		s.tellGone(e, "gone", "")
	}
	return taken
}

// HeldKept is how long after a server stopped its seeks are taken back
// (TakeBack): a restart, within it, finds its players' pages still
// asking about them (they go on asking while the server is away);
// after a longer stop most have left, and a seek of one who has could
// pair somebody with nobody.
const HeldKept = 5 * time.Minute

// Hold takes every waiting seek out of the book, telling nobody, and
// keeps them in the store (Config.Held) for the next server to start:
// the server stops, and its players may wait for it. It returns how many
// it kept, the answers of seeks that paired lately among them; none
// without Config.Held.
func (s *Service) Hold(ctx context.Context) (int, error) {
	if s.cfg.Held == nil {
		return 0, nil
	}
	// A seek made from now on would be lost with the book's memory: it
	// is refused, as the server stops.
	s.mu.Lock()
	s.held = true
	s.mu.Unlock()
	return s.Keep(ctx, s.Hand())
}

// Keep keeps seeks handed out of the book (Hand) in the store (Config.Held)
// for the next server to take back: a node of a cluster that closes
// keeps there the seeks no other node took. It returns how many it kept;
// none without Config.Held.
func (s *Service) Keep(ctx context.Context, hs []Handed) (int, error) {
	if s.cfg.Held == nil || len(hs) == 0 {
		return 0, nil
	}
	now := s.now()
	var held []store.HeldSeek
	for _, h := range hs {
		b, err := json.Marshal(h)
		if err != nil {
			return 0, fmt.Errorf("seek %s: %w", h.Seek.ID, err)
		}
		held = append(held, store.HeldSeek{ID: h.Seek.ID, Body: b, Held: now})
	}
	if err := s.cfg.Held.HoldSeeks(ctx, held); err != nil {
		return 0, fmt.Errorf("holding %d seeks: %w", len(held), err)
	}
	return len(held), nil
}

// TakeBack adds to the book the seeks a server that stopped kept in the
// store (Hold) at most HeldKept ago, and deletes them there. Each waits
// as if its player had asked about it now: they have Window to come
// back, as a player who is about would. A seek that had paired reads
// as paired again (Take). Those held longer ago, or that
// this server cannot read (a game or rules it does not know), are
// dropped, their players told where a stream of theirs is open. It
// returns how many it took back.
func (s *Service) TakeBack(ctx context.Context) (int, error) {
	if s.cfg.Held == nil {
		return 0, nil
	}
	held, err := s.cfg.Held.TakeSeeks(ctx)
	if err != nil {
		return 0, fmt.Errorf("taking back the seeks held: %w", err)
	}
	now := s.now()
	hs := make([]Handed, 0, len(held))
	for _, sk := range held {
		var h Handed
		if err := json.Unmarshal(sk.Body, &h); err != nil {
			s.cfg.Logger.Warn("a seek held while no server ran", "seek", sk.ID, "err", err)
			continue
		}
		if now.Sub(sk.Held) > HeldKept {
			continue
		}
		h.Seen = now
		hs = append(hs, h)
	}
	return s.Take(hs), nil
}

// handed makes the book's entry of h, resolving its game and rules.
func (s *Service) handed(h Handed) (*entry, error) {
	if !auth.ValidID(h.Seek.ID) || h.Identity == "" {
		return nil, errors.New("a seek without its id or player")
	}
	e := &entry{seek: h.Seek, identity: h.Identity, account: h.Account,
		key:    key{game: h.Seek.Game, rules: h.Rules, clock: h.Clock, lexicon: h.Lexicon, rated: h.Rated},
		rating: h.Rating, hasRating: h.HasRating, provisional: h.Provisional, ranged: h.Ranged, lo: h.Lo, hi: math.Inf(1),
		seen: h.Seen, renamed: h.Renamed}
	if h.Hi != nil {
		e.hi = *h.Hi
	}
	g, err := s.cfg.Games.Lookup(h.Seek.Game)
	if err != nil {
		return e, err
	}
	raw := map[string]json.RawMessage{}
	if h.Rules != "" {
		if err := json.Unmarshal([]byte(h.Rules), &raw); err != nil {
			return e, err
		}
	}
	if h.Clock != "" {
		raw[game.ClockOption] = json.RawMessage(h.Clock)
	}
	if e.rules, err = game.ResolveFor(g, raw); err != nil {
		return e, err
	}
	e.g = g
	return e, nil
}

// Mine is p's seek id as its player reads it: waiting (Seek), or paired
// (Pairing).
type Mine struct {
	Status  string   `json:"status"`
	Seek    *Seek    `json:"seek,omitempty"`
	Pairing *Pairing `json:"table,omitempty"`
}

// Get returns p's seek id: waiting, or the table it made. Reading it
// counts as the player being about.
func (s *Service) Get(ctx context.Context, p *auth.Principal, id string) (Mine, error) {
	if p == nil {
		return Mine{}, refuse.With(401, "reading a seek needs your identity token or session")
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range []*entry{s.book.byID[id], s.pairing[id]} {
		if e != nil && e.identity == p.Identity {
			e.seen = now
			sk := e.listed()
			return Mine{Status: "waiting", Seek: &sk}, nil
		}
	}
	if pd, ok := s.paired[id]; ok && pd.identity == p.Identity {
		if pd.playing {
			return Mine{}, refuse.NotFound("your seek stopped waiting when your game at table %s began", pd.p.Table)
		}
		pp := pd.p
		return Mine{Status: "paired", Pairing: &pp}, nil
	}
	return Mine{}, refuse.NotFound("you have no seek %q waiting: it was canceled, you left it for too long, or it was lost while the server was down", refuse.Clip(id))
}

// List returns the seeks waiting, oldest first, for game when it is not
// empty, as p (nil for anybody) may take them: those of players p blocks
// or who block p are left out, unless p's blocks cannot be read just now.
// A player's own reading of it counts as being about.
func (s *Service) List(ctx context.Context, p *auth.Principal, gameName string) ([]Seek, error) {
	var apart map[string]bool
	if p != nil && s.cfg.Apart != nil {
		var err error
		if apart, err = s.cfg.Apart(ctx, p.Identity); err != nil {
			// Blocks that cannot be read (the store away) leave the list
			// whole, as the open tables are: an accept still keeps two
			// players apart (Blocked).
			s.cfg.Logger.Warn("the seeks listed whole: the reader's blocks could not be read", "err", err)
			apart = nil
		}
	}
	now := s.now()
	s.mu.Lock()
	if p != nil {
		for _, e := range s.book.byPlayer[p.Identity] {
			e.seen = now
		}
	}
	out := []Seek{}
	ranged := map[string]*entry{}
	for _, e := range s.book.byID {
		if (gameName == "" || e.seek.Game == gameName) && s.present(e, now) && !apart[e.identity] {
			out = append(out, e.listed())
			if e.ranged {
				ranged[e.seek.ID] = e
			}
		}
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	if p != nil && len(ranged) > 0 {
		// Ratings that cannot be read leave the seeks unmarked: an
		// accept still finds the range.
		if err := s.markOutOfRange(ctx, p.Identity, out, ranged, now); err != nil {
			s.cfg.Logger.Warn("the seeks listed unmarked: the reader's ratings could not be read", "err", err)
		}
	}
	return out, nil
}

// markOutOfRange sets OutOfRange on those of seeks, the ranged ones'
// entries by id, whose rating range leaves identity out, as Accept would
// find it at now: a guest has no rating, an account new to a pool the
// rating every player starts with. On an error, those marked before it
// stay marked.
func (s *Service) markOutOfRange(ctx context.Context, identity string, seeks []Seek, ranged map[string]*entry, now time.Time) error {
	me, err := s.cfg.Players.Player(ctx, identity)
	if err != nil {
		return err
	}
	ratings := map[string]float64{} // by pool
	for i, sk := range seeks {
		e := ranged[sk.ID]
		if e == nil || e.identity == identity {
			continue
		}
		if !me.Account {
			seeks[i].OutOfRange = true
			continue
		}
		pool, _ := game.Pool(e.g, e.rules)
		r, ok := ratings[pool]
		if !ok {
			got, played, err := s.cfg.Players.Rating(ctx, identity, pool, now)
			if err != nil {
				return err
			}
			if !played {
				got = glicko.New()
			}
			r, ratings[pool] = got.Value, got.Value
		}
		seeks[i].OutOfRange = !e.admits(r, true)
	}
	return nil
}

// Rated reports whether seek id, waiting in the book, is for a rated
// game.
func (s *Service) Rated(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.book.byID[id]
	return e != nil && e.key.rated
}

// Waiting returns identity's seeks waiting, oldest first: the opening
// lines of its player stream. On a node of a cluster it asks the other
// nodes too (the book may be kept on another); the seeks of a node that
// does not answer are left out.
func (s *Service) Waiting(ctx context.Context, identity string) []Seek {
	out := s.WaitingHere(identity)
	if s.cfg.Peers == nil {
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, peersWait)
	defer cancel()
	ans, err := s.cfg.Peers.WaitingElsewhere(ctx, identity)
	if err != nil {
		s.cfg.Logger.Warn("asking the other nodes for a player's seeks", "err", err)
	}
	for _, b := range ans {
		var sks []Seek
		if json.Unmarshal(b, &sks) == nil {
			out = append(out, sks...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// WaitingHere returns identity's seeks waiting on this node, oldest
// first.
func (s *Service) WaitingHere(identity string) []Seek {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Seek
	for _, e := range s.book.byPlayer[identity] {
		out = append(out, e.listed())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// SeekLine is a "seek" line of the player stream for seek sk.
func SeekLine(sk Seek) social.StreamEvent {
	b, _ := json.Marshal(streamSeek{Seek: sk})
	return social.StreamEvent{Type: "seek", Seek: b}
}

// Len returns the number of seeks waiting.
func (s *Service) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.book.byID)
}

// StorePlayers is Players read from a store: names of identities, and
// ratings of accounts.
type StorePlayers struct{ Store store.Store }

// Player returns identity's name and whether it is an account's.
func (sp StorePlayers) Player(ctx context.Context, identity string) (Player, error) {
	if ps, ok := sp.Store.(store.Players); ok {
		a, err := ps.AccountOf(ctx, identity)
		if err == nil {
			return Player{Identity: identity, Name: a.Name, Account: true}, nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return Player{}, refuse.With(503, "reading your account failed: try again")
		}
	}
	id, err := sp.Store.Identity(ctx, identity)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return Player{}, refuse.With(401, "your identity is not known here: sign in again")
		}
		return Player{}, refuse.With(503, "reading your identity failed: try again")
	}
	return Player{Identity: identity, Name: id.Name}, nil
}

// Rating returns identity's rating in pool, its RD grown to at as a
// profile's is.
func (sp StorePlayers) Rating(ctx context.Context, identity, pool string, at time.Time) (glicko.Rating, bool, error) {
	ps, ok := sp.Store.(store.Players)
	if !ok || pool == "" {
		return glicko.Rating{}, false, nil
	}
	rs, err := ps.Ratings(ctx, identity)
	if err != nil {
		return glicko.Rating{}, false, refuse.With(503, "reading your rating failed: try again")
	}
	for _, r := range rs {
		if r.Pool == pool && r.Games > 0 {
			g := glicko.Rating{Value: r.Rating, RD: r.RD, Volatility: r.Volatility}
			return glicko.System{}.Away(g, at.Sub(r.Updated)), true, nil
		}
	}
	return glicko.Rating{}, false, nil
}
