// Package tournament is the server's events: arenas, where players are
// paired again as soon as their game ends until the time is up, and Swiss
// events, a fixed number of rounds between a fixed field, with multi-seat
// Swiss for the games that play best with three or four. It hears games
// start and finish as a table.Observer, makes each game's table with
// table.Service.Pair, pairs through package pairing, tells the players
// through the player stream, and keeps every event in the store
// (store.Tournaments), so that a restart resumes each one where it was:
// the same standings, and the very pairing stored with the round.
//
// One goroutine's timer, set for the next moment any event is due (a
// start, an arena's end, an arena's next look at its waiting players),
// runs the schedule; one node at a time owns an event (Lease).
package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"parlour/game"
	"parlour/pairing"
	"parlour/server/chat"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
)

// The kinds of event.
const (
	Arena = "arena"
	Swiss = "swiss"
)

// Caps on what players make, each with its reason.
const (
	// MaxCreatedADay is how many events one player may create in a day:
	// enough for a club's evening and a rematch of it, few enough that
	// the list of events stays a list of events people mean to play.
	MaxCreatedADay = 5
	// MaxArenaMinutes is the longest arena: a day.
	MaxArenaMinutes = 24 * 60
	// MaxRounds is the most rounds a Swiss plays; a field of a thousand
	// needs ten to find its winner.
	MaxRounds = 50
	// MaxAhead is how far ahead an event may be set to start.
	MaxAhead = 60 * 24 * time.Hour
	// DefaultDelay is when an event starts when its creator does not
	// say: in a minute, time enough for others to see it and join.
	DefaultDelay = time.Minute
	// MaxSwissPlayers caps a Swiss's field: a round of 500 pairs in
	// well under the two seconds it may take.
	MaxSwissPlayers = 500
	// MaxArenaPlayers caps an arena: a wave of 5,000 waiting players
	// pairs in a few milliseconds.
	MaxArenaPlayers = 5000
	// ArenaLook is how often a running arena looks again at players
	// waiting without a game (an odd one out, one who was away and is
	// back), besides each time a game ends or somebody joins.
	ArenaLook = 10 * time.Second
	// ArenaPause is how long an arena waits after a game ends before it
	// pairs: long enough for the players of games ending together to
	// meet in one wave (so that a player is not paired straight back
	// with the opponent they just played when others are about to be
	// free), short enough that nobody notices it.
	ArenaPause = 2 * time.Second
	// TypicalTurns is how many turns a player takes in a game, for the
	// length a clock lets a game run (ExpectedLength).
	TypicalTurns = 20
	// ForfeitsToWithdraw is how many games a Swiss player may lose by
	// not showing up before the event withdraws them.
	ForfeitsToWithdraw = 2
	// Podium is how many winners a finished event names.
	Podium = 3
	// MinSetup is the least time an event's players have to set up a
	// game that has secret setups (SetupLimit).
	MinSetup = time.Minute
)

// SetupLimit is how long the players of an event's game on clock c have
// to give their secret setups (Quizl's grid, Salvo's fleet), counted
// from the pairing: the time the clock gives a first move, and at least
// MinSetup. Setups are never timed by the clock itself; without a limit
// a player who never sets up would hold their opponent at the table, and
// a Swiss round open, for good.
func SetupLimit(c game.Clock) time.Duration {
	var d time.Duration
	switch c.Kind {
	case game.ClockFischer:
		d = time.Duration(c.Initial) * time.Second
	case game.ClockTurn:
		d = time.Duration(c.Seconds) * time.Second
	case game.ClockCorrespondence:
		d = time.Duration(c.Days) * 24 * time.Hour
	}
	return max(d, MinSetup)
}

// Teller is what the service needs of the player streams: to tell a
// player of their game (social.Service).
type Teller interface {
	Tell(identity string, ev social.StreamEvent)
}

// Config is what a Service is built from. Store (which must implement
// store.Tournaments and store.Players), Tables and Games are required.
type Config struct {
	Store  store.Store
	Tables *table.Service
	Games  *game.Registry
	// Streams tells players of their games (nil: nobody is told).
	Streams Teller
	// Online reports whether a player is online (social's presence):
	// an arena pairs only players who are (nil: everybody is).
	Online func(identity string) bool
	// Clock is the service's time (default: the table service's).
	Clock  table.Clock
	Logger *slog.Logger
	// Lease says which node owns each event's pairing (nil: this one,
	// always: a single node).
	Lease Lease
	// Rooms keeps the events' chat (nil: events have none; see Room).
	Rooms *chat.Rooms
	// Claim, on a node of a cluster, is how often the node renews the
	// leases of the events it runs and looks for live events no node
	// runs, to take them up (nodes.go); 0 on a single node, which runs
	// every event from the start.
	Claim time.Duration
	// Peers reach the other nodes of a cluster (nil on a single node).
	Peers Peers
	// Seated lists the live tables a player sits at, on every node (the
	// players' service): a player seated at another event's game may not
	// join, and an event taken up finds the tables its dead node made
	// wherever they went on (nil: only this node's tables count).
	Seated func(ctx context.Context, identity string) ([]table.SeatedTable, error)
	// Moderator reports whether identity holds the moderator role
	// (package moderation), who may cancel any event not yet started
	// (nil: nobody does).
	Moderator func(ctx context.Context, identity string) (bool, error)
	// Apart returns the identities identity blocks and those that block
	// it (relations.Service.Apart): an event never pairs two of them,
	// where another pairing is left (nil: nobody is kept apart).
	Apart func(ctx context.Context, identity string) (map[string]bool, error)
}

// Service is the events.
type Service struct {
	cfg    Config
	st     store.Tournaments
	pl     store.Players
	tables *table.Service
	log    *slog.Logger
	lease  Lease

	// mu guards the maps below and the timer; an event's own state is
	// guarded by its own mutex, taken before mu when both are.
	mu      sync.Mutex
	events  map[string]*event // live events, by id
	byTable map[string]*event // games under way, by table
	// playing is, for each player, the event whose game they sit at.
	playing map[string]string
	timer   table.Timer
	timerAt time.Time
	closed  bool
	// adopting makes one event taken up from the store at a time.
	adopting sync.Mutex
	// creating makes players' events one at a time, from the count of
	// their day's events to the event stored, so that the cap holds.
	creating sync.Mutex

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// waved, when set (by tests), hears of each arena wave: how many
	// pairs it seated and how long it took, pairing, tables and the
	// stored games all told.
	waved func(pairs int, took time.Duration)
}

// event is one live event in memory: its stored form, and what follows
// from it.
type event struct {
	mu sync.Mutex
	t  store.Tournament
	g  game.Game
	// rules are the games' rules, clock included.
	rules game.Rules
	clock game.Clock
	// last is each arena player's last opponent.
	last map[string]string
	// absent holds, for a table the event is closing because its setup
	// time ran out, the seats whose setups never came: they forfeit it
	// (Deserted).
	absent map[string][]int
	// busy holds the arena players found at a game elsewhere
	// (busyElsewhere), until when the arena leaves them out of its
	// waves: the next look asks again.
	busy map[string]time.Time
	// busied counts the marks in busy, so that a wave tells whether it
	// found somebody busy.
	busied int
	// lookAt is when a running arena looks at its waiting players next
	// (zero: when a game ends or somebody joins); an event whose start
	// could not be stored tries again then.
	lookAt time.Time
	// waving is set while an arena's pairing wave runs; again asks it
	// to run once more when it is done.
	waving, again bool
	// rounding is set while a Swiss round's tables are made.
	rounding bool
	// epoch is the epoch of the event's lease as last held: it fences
	// the event's writes (0 on a single node: unfenced).
	epoch int64

	// version counts the event's changes from a number taken when it
	// came into this node's memory (versionBase), changed closes at the
	// next.
	version int
	changed chan struct{}

	// dueAt is when the schedule runs the event next, as last noted
	// (zero: never); guarded by Service.mu.
	dueAt time.Time
}

// New returns the events' service, with every event not finished loaded
// from the store and the schedule armed: an event due while the server
// was down starts (or ends) at once. On a node of a cluster (Claim), the
// node takes up the events no other node runs instead, then and at each
// Claim.
func New(ctx context.Context, cfg Config) (*Service, error) {
	ts, ok := cfg.Store.(store.Tournaments)
	if !ok {
		return nil, fmt.Errorf("tournament: the store (%T) keeps no events", cfg.Store)
	}
	pl, ok := cfg.Store.(store.Players)
	if !ok {
		return nil, fmt.Errorf("tournament: the store (%T) keeps no players", cfg.Store)
	}
	if cfg.Tables == nil || cfg.Games == nil {
		return nil, errors.New("tournament: config needs Tables and Games")
	}
	if cfg.Clock == nil {
		cfg.Clock = cfg.Tables.Config().Clock
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Lease == nil {
		cfg.Lease = Always{}
	}
	s := &Service{cfg: cfg, st: ts, pl: pl, tables: cfg.Tables, log: cfg.Logger, lease: cfg.Lease,
		events: map[string]*event{}, byTable: map[string]*event{}, playing: map[string]string{}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if s.clustered() {
		// The events are taken up as the node finds them run by nobody.
		s.goDo(s.claimLoop)
		return s, nil
	}
	live, err := ts.LiveTournaments(ctx)
	if err != nil {
		s.cancel()
		return nil, fmt.Errorf("tournament: reading the events under way: %w", err)
	}
	for _, t := range live {
		ev, err := s.load(t)
		if err != nil {
			s.log.Error("an event cannot be resumed", "event", t.ID, "err", err)
			continue
		}
		s.events[t.ID] = ev
		for _, g := range t.Games {
			if g.Points == nil {
				s.byTable[g.Table] = ev
				for _, id := range g.Players {
					s.playing[id] = t.ID
				}
			}
		}
	}
	// Games that ended while the events were away are scored, and Swiss
	// rounds whose tables were not all made are made, before anything
	// else is due.
	for _, ev := range s.events {
		s.resume(ev)
	}
	s.mu.Lock()
	s.arm()
	s.mu.Unlock()
	return s, nil
}

// load builds the memory of stored event t.
func (s *Service) load(t store.Tournament) (*event, error) {
	g, err := s.cfg.Games.Lookup(t.Game)
	if err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if len(t.Rules) > 0 {
		if err := json.Unmarshal(t.Rules, &raw); err != nil {
			return nil, fmt.Errorf("event %s's rules: %w", t.ID, err)
		}
	}
	if raw == nil {
		raw = map[string]json.RawMessage{}
	}
	raw[game.ClockOption] = t.Clock
	rules, err := game.ResolveFor(g, raw)
	if err != nil {
		return nil, fmt.Errorf("event %s's rules: %w", t.ID, err)
	}
	clock, _ := game.ClockOf(rules)
	ev := &event{t: t, g: g, rules: rules, clock: clock, last: map[string]string{}, absent: map[string][]int{}, busy: map[string]time.Time{}, version: versionBase(), changed: make(chan struct{})}
	for _, gm := range t.Games {
		if len(gm.Players) == 2 {
			ev.last[gm.Players[0]], ev.last[gm.Players[1]] = gm.Players[1], gm.Players[0]
		}
	}
	return ev, nil
}

// Close stops the schedule and waits for the work it started.
func (s *Service) Close() {
	s.mu.Lock()
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}

// now is the service's time, to the microsecond: as the stores keep
// times, so that an event reads the same from memory and after a
// restart.
func (s *Service) now() time.Time { return s.cfg.Clock.Now().UTC().Truncate(time.Microsecond) }

// goDo runs f on a goroutine of its own that Close waits for.
func (s *Service) goDo(f func()) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// event returns live event id, or nil.
func (s *Service) event(id string) *event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.events[id]
}

// hold takes or renews this node's lease of ev, noting its epoch for
// ev's writes, and reports whether this node holds it. An event another
// node holds leaves this node's memory; so does one this node holds
// again at a new epoch, after another node held it, whose copy is stale:
// the claim reads it again from the store. ev.mu must be held.
func (s *Service) hold(ctx context.Context, ev *event) bool {
	epoch, ok, err := s.lease.Hold(ctx, ev.t.ID)
	if err != nil {
		s.log.Warn("an event's lease", "event", ev.t.ID, "err", err)
		return false
	}
	if !ok || (ev.epoch != 0 && epoch != ev.epoch) {
		s.drop(ev)
		return false
	}
	ev.epoch = epoch
	return true
}

// versionBase is the version an event starts from when it comes into a
// node's memory (at a restart, or taken up from another node): the
// microseconds since 1970 by the wall clock, not the service's Clock.
// The version is not stored, and counting from 0 again after a restart
// would come back to the number a page holds, which then waits for a
// change it has missed. An event changes far less than once a
// microsecond, so the new count starts past any the old one reached,
// and the number stays whole in a browser (below 2^53) for centuries.
func versionBase() int { return int(time.Now().UnixMicro()) }

// bump marks a change of ev for whoever follows it. ev.mu must be held.
func (ev *event) bump() {
	ev.version++
	close(ev.changed)
	ev.changed = make(chan struct{})
}

// Mark returns event id's version and a channel closed at its next
// change, for a page or stream that follows the event live; a finished
// or cancelled event never changes again, and its channel is nil. A
// version grows with each change, and starts past any it reached when
// the event comes into memory again (versionBase): a follower treats any
// other version than the one it saw as a change. It is refused with
// 404 for an event that does not exist.
func (s *Service) Mark(ctx context.Context, id string) (version int, changed <-chan struct{}, err error) {
	if ev := s.event(id); ev != nil {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		return ev.version, ev.changed, nil
	}
	t, err := s.stored(ctx, id)
	if err != nil || t.Status.Over() {
		return 0, nil, err
	}
	// Live, and run by no node but this one from now on (or refused
	// for now: another node runs it).
	ev, err := s.live(ctx, id)
	if err != nil {
		return 0, nil, err
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	return ev.version, ev.changed, nil
}

// stored reads event id from the store.
func (s *Service) stored(ctx context.Context, id string) (store.Tournament, error) {
	t, err := s.st.Tournament(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return t, refuse.NotFound("there is no event %s", refuse.Clip(id))
	}
	if err != nil {
		return t, refuse.ReadFailed(s.log, "an event", err)
	}
	return t, nil
}

// write stores w of ev. ev.mu must be held. A write fenced off (another
// node took the event over) drops ev from this node's memory.
func (s *Service) write(ctx context.Context, ev *event, w store.TournamentWrite) error {
	w.Epoch = ev.epoch
	if err := s.st.WriteTournament(context.WithoutCancel(ctx), ev.t.ID, w); err != nil {
		if isFenced(err) {
			s.drop(ev)
			return errElsewhere(ev.t.Name)
		}
		return refuse.SaveFailed(s.log, "the event", err)
	}
	return nil
}

// running returns the events this node runs now, taken from s.events
// under s.mu, for work that then locks each event in turn.
func (s *Service) running() []*event {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*event, 0, len(s.events))
	for _, ev := range s.events {
		out = append(out, ev)
	}
	return out
}

// entrant returns ev's entrant identity, or nil. ev.mu must be held.
func (ev *event) entrant(identity string) *store.Entrant {
	for i := range ev.t.Entrants {
		if ev.t.Entrants[i].Identity == identity {
			return &ev.t.Entrants[i]
		}
	}
	return nil
}

// active returns ev's entrants who have not left, in the order they
// joined. ev.mu must be held.
func (ev *event) active() []store.Entrant {
	var out []store.Entrant
	for _, e := range ev.t.Entrants {
		if !e.Left {
			out = append(out, e)
		}
	}
	return out
}

// counts reports whether entrant e counts as one of an event's players:
// in it, gone after playing (they keep their place in the standings), or
// gone with their first game under way (seated in seated, the players
// of the event's games under way), which will count. One who joined and
// left before playing is out of it, and frees their place under the
// event's cap.
func counts(e store.Entrant, seated map[string]bool) bool {
	return !e.Left || e.Games > 0 || e.Byes > 0 || seated[e.Identity]
}

// seatedAt returns the players of t's games under way.
func seatedAt(t store.Tournament) map[string]bool {
	seated := map[string]bool{}
	for _, g := range t.Games {
		if g.Points == nil {
			for _, id := range g.Players {
				seated[id] = true
			}
		}
	}
	return seated
}

// players returns how many of ev's entrants count as its players
// (counts): those its cap holds to max_players. ev.mu must be held.
func (ev *event) players() int {
	n, seated := 0, seatedAt(ev.t)
	for _, e := range ev.t.Entrants {
		if counts(e, seated) {
			n++
		}
	}
	return n
}

// underway returns ev's games under way. ev.mu must be held.
func (ev *event) underway() []store.TournamentGame {
	var out []store.TournamentGame
	for _, g := range ev.t.Games {
		if g.Points == nil {
			out = append(out, g)
		}
	}
	return out
}

// tables is the set of the tables of ev's games, scored or not.
func (ev *event) tables() map[string]bool {
	known := make(map[string]bool, len(ev.t.Games))
	for _, g := range ev.t.Games {
		known[g.Table] = true
	}
	return known
}

// byePoints is what a Swiss bye scores at tables of seats: a win at a
// table of two; at a multi-seat table the mean of a table's places (3 at
// four, 2 at three), so that sitting out neither lifts a player over the
// table they missed nor sinks them under it.
func byePoints(seats int) int {
	if seats <= 2 {
		return pairing.PlacePoints(1, 2)
	}
	return seats - 1
}

// tieGames returns t's finished games as the tie-breaks read them, with
// each Swiss bye as a game of one (package pairing counts it against
// virtual opponents as strong as the player).
func tieGames(t store.Tournament) []pairing.Game {
	var out []pairing.Game
	for _, g := range t.Games {
		if g.Points != nil {
			out = append(out, pairing.Game{Players: g.Players, Points: g.Points})
		}
	}
	for _, r := range t.Pairings {
		var round pairing.Round
		if json.Unmarshal(r.Pairing, &round) != nil {
			continue
		}
		for _, id := range round.Byes {
			out = append(out, pairing.Game{Players: []string{id}, Points: []int{byePoints(t.Seats)}, Seats: t.Seats})
		}
	}
	return out
}

// field returns ev's entrants as a pairing sees them; all of them when
// everyone is set, otherwise those who have not left. ev.mu must be
// held.
func (ev *event) field(everyone bool) []pairing.Entrant {
	met := map[string][]string{}
	for _, g := range ev.t.Games {
		for _, a := range g.Players {
			for _, b := range g.Players {
				if a != b {
					met[a] = append(met[a], b)
				}
			}
		}
	}
	var out []pairing.Entrant
	for _, e := range ev.t.Entrants {
		if everyone || !e.Left {
			out = append(out, pairing.Entrant{ID: e.Identity, Points: e.Points, Rating: e.Rating, Byes: e.Byes, Met: met[e.Identity]})
		}
	}
	return out
}

// apart returns, for each of identities, those of them it is kept apart
// from (Config.Apart), for a pairing's Avoid. A player whose blocks
// cannot be read is kept apart from nobody this time, and the log says
// so: the event goes on.
func (s *Service) apart(ctx context.Context, identities []string) map[string][]string {
	if s.cfg.Apart == nil {
		return nil
	}
	in := make(map[string]bool, len(identities))
	for _, id := range identities {
		in[id] = true
	}
	out := map[string][]string{}
	for _, id := range identities {
		ap, err := s.cfg.Apart(ctx, id)
		if err != nil {
			s.log.Warn("an event's pairing could not read a player's blocks", "identity", id, "err", err)
			continue
		}
		for other := range ap {
			if in[other] {
				out[id] = append(out[id], other)
			}
		}
	}
	return out
}

// ranking returns every entrant's identity in standings order: points,
// then Buchholz, then Sonneborn-Berger, then rating. ev.mu must be held.
func (ev *event) ranking() []string {
	return pairing.Rank(ev.field(true), tieGames(ev.t))
}

// ExpectedLength is how long a game of seats players on clock c may run:
// each player's whole time with TypicalTurns increments on a Fischer
// clock, TypicalTurns full turns each on a turn clock. An arena pairs no
// game that would not end by this reckoning before the arena does.
func ExpectedLength(c game.Clock, seats int) time.Duration {
	var each int
	switch c.Kind {
	case game.ClockFischer:
		each = c.Initial + TypicalTurns*c.Increment
	case game.ClockTurn:
		each = TypicalTurns * c.Seconds
	case game.ClockCorrespondence:
		each = TypicalTurns * c.Days * 24 * 60 * 60
	}
	return time.Duration(seats*each) * time.Second
}

// names maps identities to entrants' names. ev.mu must be held.
func (ev *event) names(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		if e := ev.entrant(id); e != nil {
			out[i] = e.Name
		}
	}
	return out
}
