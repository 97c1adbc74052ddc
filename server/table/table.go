package table

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"parlour/game"
	"parlour/server/chat"
	"parlour/store"
)

// meta is a table's description as the store keeps it: everything except
// the moves. Together with the moves it is the table's record.
type meta struct {
	Game    string                     `json:"game"`
	Rules   map[string]json.RawMessage `json:"rules,omitempty"`
	Lexicon string                     `json:"lexicon"`
	Seed    uint64                     `json:"seed"`
	Private bool                       `json:"private,omitempty"`
	// dayEnded is set once Config.DailyOver said the day of an attempt
	// at a daily puzzle is over, which it stays (conceal.go). It is not
	// stored: a table read again asks again. It sits here, in a gap of
	// the layout, to keep the table in its size class (TestSizes).
	dayEnded bool
	Seats    []seatMeta `json:"seats"`
	// Changes counts the changes that were not moves (joins, setups, the
	// start, a rematch): a table's version is Changes plus its moves.
	Changes int `json:"changes"`
	// Started is set when play began, at version Start.
	Started bool `json:"started,omitempty"`
	Start   int  `json:"start,omitempty"`
	// Set carries scores from game to game, for games with a set_target.
	Set *game.Set `json:"set,omitempty"`
	// Prev and Rematch link the tables of a series.
	Prev    string `json:"prev,omitempty"`
	Rematch string `json:"rematch,omitempty"`
	// Maker is the level of the computer that made a solitaire seat's
	// hidden setup, and MakerRandom says it fell back to a random one.
	Maker       string `json:"maker,omitempty"`
	MakerRandom bool   `json:"maker_random,omitempty"`
	// Daily names the daily puzzle ("quizl/2006-01-02") the table is an
	// attempt at, or is empty.
	Daily string `json:"daily,omitempty"`
	// Rated tables change their players' ratings in Pool when the game
	// ends (ratings.go).
	Rated bool   `json:"rated,omitempty"`
	Pool  string `json:"pool,omitempty"`
	// Challenge names the challenge whose acceptance opened the table,
	// for the players' streams (stream.go).
	Challenge string `json:"challenge,omitempty"`
	// Paired marks a table made for the players seated at it (by a
	// seek, a challenge or an event, and their rematches): a player who
	// leaves it before play begins closes it (leave.go), since nobody
	// else should take a seat the pairing chose.
	Paired bool `json:"paired,omitempty"`
	// Event names the tournament whose pairing made the table; its
	// record carries it.
	Event *game.Tournament `json:"event,omitempty"`
	// SetupBy is when the event that made the table wants every secret
	// setup in: a player whose setup has not come by then forfeits the
	// game. Kept here, not in Event, so that records stay as they were;
	// zero for any other table, and for an event's table made before the
	// table kept it.
	SetupBy time.Time `json:"setup_by,omitzero"`
	// StartedAt is when play started; a clock's first deadlines count
	// from it (clock.go). A value rather than a pointer: every game in
	// play has one, and a table keeps its description as long as it
	// lives.
	StartedAt time.Time `json:"started_at,omitzero"`
	// Forfeits are the moves the server played for seats whose time ran
	// out or whose game was claimed (clock.go).
	Forfeits []forfeit `json:"forfeits,omitempty"`
	// Code is the table's invite code (invites.go), if it has one.
	Code string `json:"code,omitempty"`
	// Cancelled says, in a player's words, why the table was closed
	// for good before play began (leave.go): its last player left, or
	// it waited too long.
	Cancelled string `json:"cancelled,omitempty"`
	// Aborted says who ended the game without a result before every
	// player had moved, and why (abort.go); the record carries it too.
	Aborted *abortMeta `json:"aborted,omitempty"`
	// Played holds the names the seats played under, kept when a
	// finished table's seat is renamed (RenameSeat): the stored moves
	// that name a player (game.MoveRenamer) were written with them, and
	// are read under the seats' names. A pointer: few tables have one,
	// and a table keeps its description as long as it lives.
	Played *[]string `json:"played,omitempty"`
}

// seatMeta is one seat: open, held by a person, or a computer.
type seatMeta struct {
	Name     string `json:"name"`
	Identity string `json:"identity,omitempty"`
	Computer string `json:"computer,omitempty"`
	// Player is "account" or "guest" for a person's seat, as the person
	// was when seated ("" in descriptions written before it was kept).
	Player string `json:"player,omitempty"`
	// Setup is the seat's checked secret setup, Salt the salt of its
	// commitment.
	Setup json.RawMessage `json:"setup,omitempty"`
	Salt  []byte          `json:"salt,omitempty"`
	// Hidden marks a setup the server made for the seat to attack
	// (solitaire): the seat itself may not see it before the end.
	Hidden bool `json:"hidden,omitempty"`
	// Deserted marks the seat of a pairing's table whose player did not
	// show up, which closed it (leave.go): an event scores them as having
	// forfeited its game, from here when the server stopped before it
	// heard of it (Service.Deserters). Kept by the seat, where it fills
	// what Hidden leaves of a word, so that no table grows for it.
	Deserted bool `json:"deserted,omitempty"`
}

func (s seatMeta) open() bool { return s.Identity == "" && s.Computer == "" }

// packed holds the parts of a table of one or two seats that it keeps as
// long as it lives, in one allocation: its seats, their names and
// attendance, and its set. They were made one by one, each among the
// garbage of its own request (or by the decoder), and each kept a span
// of its small size class from being given back once that garbage was
// collected; one larger object fills its spans.
type packed struct {
	seats   [2]seatMeta
	players [2]string
	here    [2]presence
	set     game.Set
	totals  [2]int
}

// pack moves t's seats, their names and attendance, and its set into one
// allocation, and the seats' setups and salts into another. It is done
// when play starts and when a table is read back: the seats are then
// what they stay. t.mu must be held, or t be nobody else's yet.
func (t *table) pack() {
	t.m.packSetups()
	n := len(t.m.Seats)
	if n > len(packed{}.seats) {
		return
	}
	p := &packed{}
	copy(p.seats[:], t.m.Seats)
	t.m.Seats = p.seats[:n:n]
	for i, s := range t.m.Seats {
		p.players[i] = s.Name
	}
	t.cfg.Players = p.players[:n:n]
	if len(t.here.seats) == n {
		copy(p.here[:], t.here.seats)
		t.here.seats = p.here[:n:n]
	}
	if s := t.m.Set; s != nil && len(s.Totals) <= len(p.totals) {
		p.set = *s
		k := copy(p.totals[:], s.Totals)
		p.set.Totals = p.totals[:k:k]
		t.m.Set = &p.set
	}
}

// packSetups moves the seats' setups and salts into one allocation (see
// packed).
func (m *meta) packSetups() {
	n := 0
	for _, s := range m.Seats {
		n += len(s.Setup) + len(s.Salt)
	}
	if n == 0 {
		return
	}
	buf := make([]byte, 0, n)
	part := func(p []byte) []byte {
		if len(p) == 0 {
			return p
		}
		i := len(buf)
		buf = append(buf, p...)
		return buf[i:len(buf):len(buf)]
	}
	for i := range m.Seats {
		m.Seats[i].Setup = part(m.Seats[i].Setup)
		m.Seats[i].Salt = part(m.Seats[i].Salt)
	}
}

func (m meta) clone() meta {
	c := m
	c.Seats = slices.Clone(m.Seats)
	c.Set = m.Set.Clone()
	return c
}

// recentSteps is how many moves' events a table keeps at hand for clients
// that resume; older ones are recomputed by replaying the record. A client
// that reconnects is seldom more than a move or two behind, while every
// step kept is held by every live table and walked by every garbage
// collection (at 32, the steps were a third of a busy server's heap; at
// 8, a Quizl table ten moves in still spent half its heap on them).
const recentSteps = 4

// RecentSteps is recentSteps, for the tests of clients that resume from
// further back.
const RecentSteps = recentSteps

// step is one accepted move and what it revealed.
type step struct {
	version int
	seat    game.Seat
	move    string
	events  []game.Event
}

// table is one live table: its description, its record's moves, and the
// state replaying them gives. mu guards everything below it.
type table struct {
	id      string
	g       game.Game
	created time.Time
	// epoch is the lease's epoch this copy was made or read under (0
	// when not clustered, -1 for a read-only copy): its writes are
	// fenced by it, and a node that holds another epoch drops it.
	epoch int64

	mu sync.Mutex
	// after holds what is to run once mu is let go (unlock): the
	// observers' calls.
	after  []func()
	m      meta
	status store.Status
	cfg    game.Config
	st     game.State // nil until play starts
	moves  []move
	recent []step
	// changed is closed at every change and made again only when a
	// watcher next waits (most moves have nobody waiting): watchers wait
	// on it and then read what they need under mu.
	changed  chan struct{}
	watchers int32
	// spectators counts the watchers that hold no seat (Watch, Close),
	// for the lobby's list of games to watch. rating is the mean rating
	// of a rated table's players in its pool, looked up once the first
	// time the list shows the game (live.go); rated (below, with the
	// table's other flags) says it is set.
	spectators int32
	rating     float64
	// pokes are the watchers woken each by a call of their own at every
	// change, rather than through changed (Watcher.OnChange).
	pokes []*Watcher
	// movers counts the followers answering a move of this table
	// (Watcher.Moving). While any does, a seat's follower may hold its
	// push (Watcher.Hold) for the mover to run once its own answer is
	// written: a door then spares a goroutine, and the waking of a
	// processor, at every move.
	movers int
	held   []func()
	// changedAt is when the description last changed (made, a join, a
	// leave, a setup, ...): a table whose game has not begun expires
	// after Config.OpenExpiry without a change (expireOpen).
	changedAt time.Time
	bots      []botSeat // nil until a computer seat needs one
	lastUse   time.Time
	// looked is when the service last handed the table out (Service.table),
	// in Unix nanoseconds: set under the service's read lock, it tells the
	// janitor, which parks tables under its write lock, that a request may
	// be about to use the table (park.go).
	looked atomic.Int64
	conf   *Config       // the service's: its Clock and WalkAway
	tc     *tableClock   // nil without a clock (clock.go)
	here   attendance    // claim.go
	ch     chat.Channels // chat.go
	// doubt is set when a write of a move failed: it may have been
	// committed all the same (settleDoubt).
	doubt bool
	// gone is set when another node of a cluster took the table over:
	// its watchers here end, and their clients connect again.
	gone  bool
	rated bool
	// evictQueued is set while the table waits in the janitor's queue to
	// leave memory (janitor.go), and queuedAt is the time its entry
	// there says: an entry of another time is one the table no longer
	// holds (it was queued again sooner, when its game ended).
	evictQueued bool
	// updateSize is the length of the last update encoded, to size the
	// next one's buffer at once (written outside mu).
	updateSize atomic.Int32
	queuedAt   time.Time

	// enc holds what the table keeps encoded only to answer sooner (nil
	// until it is first needed): shed drops it whole. Behind a pointer,
	// as the clock is, it keeps the table in the heap's 896-byte size
	// class (TestSizes).
	enc *encodings
}

// encodings is what a table keeps encoded only to answer sooner.
type encodings struct {
	// pushed holds the socket messages encoded for the table's current
	// version, one per view (see sharedUpdate), and info the encoding of
	// its public information that they share; encodings of older
	// versions, or older than maxShareAge, are dropped at the next look.
	// Both are held weakly: they are worth keeping only for the sockets
	// that ask within maxShareAge, and an idle table would otherwise hold
	// its last update, a few kilobytes a view, for as long as it idles;
	// the collector takes them once no socket is writing them (and one
	// taken early is only encoded again). infoLen is the last info's
	// length, to size the next one's buffer.
	pushed  []weak.Pointer[encodedUpdate]
	info    weak.Pointer[encodedInfo]
	infoLen int
	// rules is cfg.Rules encoded, once: the rules never change.
	rules []byte
	// commitments are the seats' commitments, once play has started.
	commitments []string
	// setups holds each seat's setup encoded (setupJSON).
	setups []encodedSetup
}

// encodings returns t's encodings, made if it has none. t.mu must be
// held.
func (t *table) encodings() *encodings {
	if t.enc == nil {
		t.enc = &encodings{}
	}
	return t.enc
}

// maxShareAge bounds how long an encoded update is shared. Every watcher
// of a change reads it within moments of each other; a watcher that comes
// later gets its own, so that what depends on the time (a clock's time
// left, a seat away long enough to show) is as fresh as it was before
// updates were shared.
const maxShareAge = 100 * time.Millisecond

// encodedInfo is the encoding of the table's Info at one version.
type encodedInfo struct {
	version int
	made    time.Time
	b       []byte
}

// infoJSON returns the table's public information encoded, shared by the
// updates of every seat at one version. t.mu must be held.
func (t *table) infoJSON(now time.Time) ([]byte, error) {
	enc := t.encodings()
	if e := enc.info.Value(); e != nil && e.version == t.version() && now.Sub(e.made) < maxShareAge {
		return e.b, nil
	}
	if enc.rules == nil {
		r, err := json.Marshal(t.cfg.Rules)
		if err != nil {
			return nil, err
		}
		enc.rules = r
	}
	size := 1024
	if enc.infoLen > 0 { // the last version's: the next is about as long
		size = enc.infoLen + 128
	}
	in := t.info()
	b, err := in.appendJSON(make([]byte, 0, size), enc.rules)
	if err != nil {
		return nil, err
	}
	enc.info, enc.infoLen = weak.Make(&encodedInfo{version: t.version(), made: now, b: b}), len(b)
	return b, nil
}

// forgetShared drops the shared encodings: something they show changed
// without a new version (a seat's connections came or went). t.mu must be
// held.
func (t *table) forgetShared() {
	if t.enc == nil {
		return
	}
	clear(t.enc.pushed)
	t.enc.pushed = t.enc.pushed[:0]
	t.enc.info = weak.Pointer[encodedInfo]{}
}

// version returns the table's version: one more at every change.
func (t *table) version() int { return t.m.Changes + len(t.moves) }

// broadcast wakes every watcher. t.mu must be held.
func (t *table) broadcast() {
	if t.changed != nil {
		close(t.changed)
		t.changed = nil
	}
	for _, w := range t.pokes {
		w.poke()
	}
}

// awaitChange returns a channel closed at the table's next change. t.mu
// must be held.
func (t *table) awaitChange() <-chan struct{} {
	if t.changed == nil {
		t.changed = make(chan struct{})
	}
	return t.changed
}

// record returns the table's whole record.
func (t *table) record() *game.Record {
	rec := &game.Record{
		Parlour: game.FormatVersion,
		Game:    t.m.Game,
		Rules:   t.m.Rules,
		Lexicon: t.m.Lexicon,
		Players: t.players(),
		Moves:   t.gameMoves(),
		Event:   t.m.Event,
	}
	if rec.Rules == nil {
		rec.Rules = map[string]json.RawMessage{}
	}
	if rec.Moves == nil {
		rec.Moves = []game.Move{} // a list, as the format has it, even empty
	}
	seed := t.m.Seed
	rec.Seed = &seed
	if a := t.m.Aborted; a != nil {
		at := a.At
		rec.Aborted = &game.Abort{By: t.m.Seats[a.Seat].Name, At: &at}
	}
	if t.g.HasSetup() {
		rec.Setup = map[string]json.RawMessage{}
		for _, s := range t.m.Seats {
			if s.Setup != nil {
				rec.Setup[s.Name] = s.Setup
			}
		}
	}
	return rec
}

// players returns the seats' names. While t.cfg's are still the seats',
// it returns those rather than a copy: the game's state and the records
// made of the table keep theirs for as long as the table lives, and
// nothing changes one in place (a change of names makes a new one).
func (t *table) players() []string {
	if t.cfg.Players != nil && slices.EqualFunc(t.cfg.Players, t.m.Seats, func(p string, s seatMeta) bool { return p == s.Name }) {
		return t.cfg.Players
	}
	p := make([]string, len(t.m.Seats))
	for i, s := range t.m.Seats {
		p[i] = s.Name
	}
	return p
}

// recordFor returns the record as seat may see it: whole once the game is
// over; before that without other seats' setups, the seed, or moves the
// game keeps secret.
func (t *table) recordFor(seat game.Seat) *game.Record {
	rec := t.record()
	if t.status == store.Finished {
		return rec
	}
	rec.Seed = nil
	if !t.m.Started {
		out := *rec
		out.Setup = map[string]json.RawMessage{}
		if seat >= 0 && int(seat) < len(t.m.Seats) && !t.m.Seats[seat].Hidden && t.m.Seats[seat].Setup != nil {
			out.Setup[t.m.Seats[seat].Name] = t.m.Seats[seat].Setup
		}
		if !t.g.HasSetup() {
			out.Setup = nil
		}
		return &out
	}
	out := rec.For(t.g, t.cfg, t.st.Result(), seat)
	if seat >= 0 && int(seat) < len(t.m.Seats) && t.m.Seats[seat].Hidden {
		delete(out.Setup, t.m.Seats[seat].Name)
	}
	return out
}

// ready reports whether every seat is taken and every setup given.
func (t *table) ready() bool {
	for _, s := range t.m.Seats {
		if s.open() || (t.g.HasSetup() && s.Setup == nil) {
			return false
		}
	}
	return true
}

// deriveStatus derives the store status from the description and state.
func (t *table) deriveStatus() store.Status {
	switch {
	case t.m.Cancelled != "":
		return store.Cancelled
	case t.st != nil && t.st.Result().Status.Over():
		return store.Finished
	case t.m.Started:
		return store.Playing
	case slices.ContainsFunc(t.m.Seats, seatMeta.open):
		return store.Open
	default:
		return store.Setup
	}
}

// Info is what anybody may know of a table besides the game's view:
// who sits where, whose turn it is, the setup commitments, and once the
// game is over the result and the salts that open the commitments.
type Info struct {
	ID     string       `json:"id"`
	Game   string       `json:"game"`
	Title  string       `json:"title"`
	Status store.Status `json:"status"`
	Rules  game.Rules   `json:"rules"`
	// Lexicon names the lexicon the table's words are checked against,
	// so that a client's own checks (the editors' /check-setup, Word
	// Fight's /preview) use the same one.
	Lexicon string `json:"lexicon"`
	Private bool   `json:"private,omitempty"`
	// Code is the table's invite code while it is under way: whoever
	// sees the table knows its id, and so its invite link, already.
	Code   string      `json:"code,omitempty"`
	Seats  []SeatInfo  `json:"seats"`
	ToMove []game.Seat `json:"to_move"`
	// Abortable is set while the game is in play and some player has not
	// yet made a move: a seated player may then abort it (abort.go).
	Abortable bool `json:"abortable,omitempty"`
	// Commitments holds, once play starts, the SHA-256 commitment of each
	// seat's secret setup (see Commitment).
	Commitments []string `json:"commitments,omitempty"`
	// Reveal opens the commitments once the game is over.
	Reveal []Reveal     `json:"reveal,omitempty"`
	Result *game.Result `json:"result,omitempty"`
	// Aborted, beside a result of status "aborted", says who ended the
	// game without a result and why.
	Aborted *AbortInfo `json:"aborted,omitempty"`
	Set     *game.Set  `json:"set,omitempty"`
	Prev    string     `json:"prev,omitempty"`
	Rematch string     `json:"rematch,omitempty"`
	Created time.Time  `json:"created"`
	// Solitaire says who made the setup a lone seat attacks.
	Solitaire *SolitaireInfo `json:"solitaire,omitempty"`
	// Daily names the daily puzzle the table is an attempt at
	// ("quizl/2006-01-02"), if any.
	Daily string `json:"daily,omitempty"`
	// DayOver reports a daily attempt still under way whose day has
	// ended: it takes no move but a resignation, which ends it unsolved.
	DayOver bool `json:"day_over,omitempty"`
	// Event names the tournament the table is a game of, if any.
	Event *game.Tournament `json:"event,omitempty"`
	// SetupBy, while the table is in setup, is when the event that made
	// it wants every secret setup in: a player whose setup has not come
	// by then forfeits the game. The players are told, not left to find
	// out when it is too late.
	SetupBy *time.Time `json:"setup_by,omitempty"`
	// Paired marks a table made for the players seated at it (by a seek,
	// a challenge or an event): one who leaves before play begins closes
	// it rather than open the seat.
	Paired bool `json:"paired,omitempty"`
	// Rated is set on a rated table, and Pool names its rating pool.
	Rated bool   `json:"rated,omitempty"`
	Pool  string `json:"pool,omitempty"`
	// Clock is the table's clock, when its rules set one; each seat to
	// move then has its Deadline.
	Clock *ClockInfo `json:"clock,omitempty"`
	// Spectators, in the lobby's lists only, is how many follow the
	// table without a seat (live.go). The updates pushed at every move
	// leave it out: a count that changed would otherwise make every
	// watcher's update differ, and it is news for the lobby, not the
	// players.
	Spectators *int `json:"spectators,omitempty"`
	// Rating, in the lobby's list of games in play only, is the mean
	// rating of a rated table's players in its pool (live.go).
	Rating *float64 `json:"rating,omitempty"`
}

// SeatInfo describes one seat publicly.
type SeatInfo struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	// Kind is "person", "computer" or "open". Player says more of who
	// sits there: "account", "guest" (a player without an account, whose
	// name clients mark as a guest's) or "computer"; "" for an open seat,
	// or a person seated before the server kept it.
	Kind   string `json:"kind"`
	Player string `json:"player,omitempty"`
	Level  string `json:"level,omitempty"`
	// Ready reports whether the seat's secret setup is in.
	Ready bool `json:"ready"`
	// Deadline is when the seat's time for this turn runs out, at a table
	// with a clock, and TimeLeft the seconds to it (clock.go).
	Deadline *time.Time `json:"deadline,omitempty"`
	TimeLeft *float64   `json:"time_left,omitempty"`
	// AwaySince is, for a person to move at a table without a clock,
	// when that seat was last seen, while it has no connection open: once
	// it is DefaultWalkAway old the others may claim the game (claim.go).
	AwaySince *time.Time `json:"away_since,omitempty"`
	// ClaimAt is, beside AwaySince, when the others may claim the game if
	// the seat stays away: AwaySince and the walk-away time. A client
	// counts down to it and offers the claim then.
	// ClaimIn is the seconds from the update's making to ClaimAt (0 once
	// it has passed): a client counts down from it, as from TimeLeft, so
	// that its own clock does not matter.
	ClaimAt *time.Time `json:"claim_at,omitempty"`
	ClaimIn *float64   `json:"claim_in,omitempty"`
	// Connected reports, for a person's seat while the game is played,
	// whether the seat has a WebSocket or an event stream open; the
	// others' watchers are sent an update as soon as it changes.
	// AbsentSince is, while it is false, when the seat was last seen (its
	// last request, or when its last connection closed).
	Connected   *bool      `json:"connected,omitempty"`
	AbsentSince *time.Time `json:"absent_since,omitempty"`
	// Out reports, while the game is played, a seat out of it, never to
	// move in it again (a player of three who resigned or ran out of
	// time, a Quizl player whose hunts are settled: game.Leaver), for
	// clients to offer it no resignation and no word of its turn.
	Out bool `json:"out,omitempty"`
}

// Reveal is one seat's setup and the salt of its commitment.
type Reveal struct {
	Seat       int             `json:"seat"`
	Salt       string          `json:"salt"`
	Setup      json.RawMessage `json:"setup"`
	Commitment string          `json:"commitment"`
}

func (t *table) info() Info {
	in := Info{
		ID: t.id, Game: t.g.Name(), Title: t.g.Title(), Status: t.status,
		Rules: t.cfg.Rules, Lexicon: t.cfg.Lexicon.Name(), Private: t.m.Private, ToMove: []game.Seat{},
		Seats: make([]SeatInfo, 0, len(t.m.Seats)), Set: t.m.Set, Prev: t.m.Prev, Rematch: t.m.Rematch, Created: t.created,
		Solitaire: t.solitaireInfo(), Daily: t.m.Daily, DayOver: t.dayOver(), Event: t.m.Event, Paired: t.m.paired(), Rated: t.m.Rated, Pool: t.m.Pool,
	}
	if t.status.Live() {
		in.Code = t.m.Code
	}
	if t.status == store.Setup && !t.m.SetupBy.IsZero() {
		by := t.m.SetupBy
		if t.tc.on() && !t.tc.setupBy.IsZero() {
			by = t.tc.setupBy
		}
		in.SetupBy = &by
	}
	for i, s := range t.m.Seats {
		si := SeatInfo{Seat: i, Name: s.Name, Kind: "person", Player: s.Player, Ready: s.Setup != nil || !t.g.HasSetup()}
		switch {
		case s.Computer != "":
			si.Kind, si.Player, si.Level = "computer", "computer", s.Computer
		case s.open():
			si.Kind = "open"
		}
		in.Seats = append(in.Seats, si)
	}
	if t.st != nil {
		if tm := t.st.ToMove(); len(tm) > 0 {
			in.ToMove = append(make([]game.Seat, 0, len(tm)), tm...)
		}
		in.Abortable = t.status == store.Playing && t.abortable()
		if l, ok := t.st.(game.Leaver); ok && t.status == store.Playing {
			for i := range in.Seats {
				in.Seats[i].Out = l.Out(game.Seat(i))
			}
		}
	}
	if t.m.Started && t.g.HasSetup() {
		enc := t.encodings()
		if len(enc.commitments) != len(t.m.Seats) {
			// The setups are fixed once play starts: their commitments
			// are computed once.
			enc.commitments = make([]string, len(t.m.Seats))
			for i, s := range t.m.Seats {
				enc.commitments[i] = Commitment(s.Salt, s.Setup)
			}
		}
		in.Commitments = append(in.Commitments, enc.commitments...)
	}
	if t.conf != nil && t.conf.Clock != nil {
		now := t.conf.Clock.Now()
		t.clockInfo(&in, now)
		t.awayInfo(&in, now)
	}
	if t.status == store.Finished {
		r := t.st.Result()
		in.Result = &r
		in.Aborted = t.abortInfo()
		if t.g.HasSetup() && !t.concealed() {
			for i, s := range t.m.Seats {
				in.Reveal = append(in.Reveal, Reveal{Seat: i, Salt: hex.EncodeToString(s.Salt), Setup: compactJSON(s.Setup), Commitment: in.Commitments[i]})
			}
		}
	}
	return in
}

// MoveInfo is one move as a seat may see it, with the events it revealed
// to that seat.
type MoveInfo struct {
	Version int          `json:"version"`
	Seat    game.Seat    `json:"seat"`
	Player  string       `json:"player"`
	Move    string       `json:"move"`
	Events  []game.Event `json:"events"`
}

// Update is one message to a seat: the table as it stands at Version,
// the seat's view, and the moves since the version the seat had.
type Update struct {
	Version int       `json:"version"`
	Seat    game.Seat `json:"seat"`
	Table   Info      `json:"table"`
	// Setup is the seat's own secret setup, once given.
	Setup json.RawMessage `json:"setup,omitempty"`
	// View is State.View(seat), once play has started.
	View any `json:"view,omitempty"`
	// ViewTail, on a socket that asked for tails ("view_tails" in its
	// hello), names the view's log and the index of the first entry the
	// view holds: the earlier ones are those of the view the socket was
	// sent before (docs/protocol.md).
	ViewTail map[string]int `json:"view_tail,omitempty"`
	Moves    []MoveInfo     `json:"moves,omitempty"`
	// Chat holds the chat messages the seat may see that it has not been
	// sent yet, and Muted the channels its identity muted (chat.go).
	Chat  []ChatLine `json:"chat,omitempty"`
	Muted []string   `json:"muted,omitempty"`
}

// moveFor returns step s as seat may see it.
func (t *table) moveFor(s step, seat game.Seat) MoveInfo {
	mi := MoveInfo{Version: s.version, Seat: s.seat, Player: t.cfg.Name(s.seat), Move: s.move, Events: t.visible(s.events, seat)}
	if mi.Events == nil {
		mi.Events = []game.Event{}
	}
	if h, ok := t.g.(game.MoveHider); ok && s.seat != seat && t.status != store.Finished {
		if shown, hidden := h.HiddenMove(s.seat, seat, s.move); hidden {
			mi.Move = shown
		}
	}
	return mi
}

// update builds the message for seat, with the moves after version since
// (since < 0: none). Everything in it comes from the seat's view, the
// events visible to the seat, and public table facts.
func (t *table) update(reg *game.Registry, seat game.Seat, since int) (Update, error) {
	u, err := t.updateParts(reg, seat, since, true)
	u.Table = t.info()
	return u, err
}

// updateParts is update without the table's public information.
// Without view, the update has no view.
func (t *table) updateParts(reg *game.Registry, seat game.Seat, since int, view bool) (Update, error) {
	u := Update{Version: t.version(), Seat: seat}
	if seat >= 0 && int(seat) < len(t.m.Seats) && !t.m.Seats[seat].Hidden {
		u.Setup = t.m.Seats[seat].Setup
	}
	if t.st != nil && view {
		u.View = t.viewFor(seat)
	}
	if since < 0 || !t.m.Started || since >= u.Version {
		return u, nil
	}
	first := since - t.m.Start // index of the first move the seat lacks
	if first < 0 {
		first = 0
	}
	if first >= len(t.moves) {
		return u, nil
	}
	steps, err := t.steps(reg, first)
	if err != nil {
		return u, err
	}
	for _, s := range steps {
		u.Moves = append(u.Moves, t.moveFor(s, seat))
	}
	return u, nil
}

// steps returns the steps of moves first.. (0-based), from the recent ones
// at hand or by replaying the record.
func (t *table) steps(reg *game.Registry, first int) ([]step, error) {
	if len(t.recent) > 0 {
		oldest := t.recent[0].version - t.m.Start - 1
		if first >= oldest {
			return t.recent[first-oldest:], nil
		}
	}
	rec := t.record()
	_, _, all, err := game.Replay(reg, rec, t.cfg.Lexicon)
	if err != nil {
		return nil, fmt.Errorf("replaying table %s: %w", t.id, err)
	}
	out := make([]step, 0, len(all)-first)
	for i := first; i < len(all); i++ {
		out = append(out, step{version: t.m.Start + i + 1, seat: all[i].Seat, move: all[i].Move.Move, events: t.noted(i, all[i].Events)})
	}
	return out, nil
}

func (t *table) remember(s step) {
	if len(t.recent) == recentSteps {
		copy(t.recent, t.recent[1:])
		t.recent = t.recent[:recentSteps-1]
	}
	t.recent = append(t.recent, s)
}

// encodedUpdate is one update encoded as a socket message, shared by
// every socket that follows the table with the same view: the same seat,
// at the same version, coming from the same version. The first to ask
// holds ready locked until msg (or err) is set; the others wait on it
// (a mutex, unlike a channel, costs nothing to make).
type encodedUpdate struct {
	version, since int
	seat           game.Seat
	tail           int // the view's log from this entry on; -1: whole
	made           time.Time
	ready          sync.Mutex
	msg            []byte
	err            error
	// logLen is the length of the view's log (-1: the view has none),
	// set before ready is unlocked.
	logLen int
}

// sharedUpdate returns the encoding of seat's update from version since
// to the table's version, and whether this caller is the first to ask
// (it then builds and encodes the update, and unlocks ready). Every socket
// of one view shares one encoding, so a change pushed to N watchers of a
// view, or to any number of spectators, is built and encoded once. t.mu
// must be held.
func (t *table) sharedUpdate(seat game.Seat, since, tail int, now time.Time) (e *encodedUpdate, first bool) {
	v := t.version()
	enc := t.encodings()
	// The first entry stands for all: they were made at one version,
	// within maxShareAge. One the collector took goes with the others.
	if len(enc.pushed) > 0 {
		if e := enc.pushed[0].Value(); e == nil || e.version != v || now.Sub(e.made) >= maxShareAge {
			clear(enc.pushed)
			enc.pushed = enc.pushed[:0]
		}
	}
	for _, p := range enc.pushed {
		if e := p.Value(); e != nil && e.seat == seat && e.since == since && e.tail == tail {
			return e, false
		}
	}
	e = &encodedUpdate{version: v, since: since, seat: seat, tail: tail, made: now}
	e.ready.Lock()
	enc.pushed = append(enc.pushed, weak.Make(e))
	return e, true
}

// updateMessage returns what encodes seat's update from version since as
// a socket message, with no chat: the table's public information encoded
// once for every seat at this version (infoJSON), and the rest, which
// encode encodes outside the lock (a view's tail that its state appends
// itself, game.TailViewer, is encoded here, and the message with it: encode
// only hands it over). With tail >= 0, a view with a log
// (game.TailAppender) holds only the log's entries from tail on, and the
// update says so in its "view_tail"; logLen is the length of the view's
// log, -1 when it has none (the view is then whole). The bytes are
// env's head, json.Marshal(u) and env's tail. t.mu must be held.
func (t *table) updateMessage(reg *game.Registry, env Envelope, seat game.Seat, since, tail int, now time.Time) (encode func() ([]byte, error), logLen int, err error) {
	info, err := t.infoJSON(now)
	if err != nil {
		return nil, -1, err
	}
	// A state that encodes a view's tail itself does so here, under the
	// lock, without building the view whole, straight into the message.
	tv, direct := t.st.(game.TailViewer)
	direct = direct && tail >= 0 && !t.concealed()
	u, err := t.updateParts(reg, seat, since, !direct)
	if err != nil {
		return nil, -1, err
	}
	setup, err := t.setupJSON(seat, u.Setup)
	if err != nil {
		return nil, -1, err
	}
	size := max(512+len(env.Head)+len(env.Tail)+len(info)+len(setup), int(t.updateSize.Load())+256)
	if direct {
		b := appendUpdateHead(make([]byte, 0, size), env.Head, u.Version, u.Seat, info, setup)
		b, logLen = tv.AppendViewTail(append(b, `,"view":`...), seat, tail)
		if tail <= logLen {
			msg, err := t.appendUpdateEnd(appendViewTail(b, tv.LogName(), tail), u.Moves, env.Tail)
			if err != nil {
				return nil, -1, err
			}
			return func() ([]byte, error) { return msg, nil }, logLen, nil
		}
		// Not this view's log: send it whole (encode builds its own
		// message).
		u.View, tail = t.viewFor(seat), -1
	}
	ta, logged := u.View.(game.TailAppender)
	logLen = -1
	var logName string
	version, view, moves := u.Version, u.View, u.Moves // what encode keeps of u
	if logged {
		logLen, logName = ta.LogLen(), ta.LogName()
	}
	if !logged || tail > logLen {
		tail = -1
	}
	return func() ([]byte, error) {
		b := appendUpdateHead(make([]byte, 0, size), env.Head, version, seat, info, setup)
		if view != nil {
			b = append(b, `,"view":`...)
			if tail >= 0 {
				b = ta.AppendJSONTail(b, tail)
				b = appendViewTail(b, logName, tail)
			} else if a, ok := view.(game.JSONAppender); ok {
				b = a.AppendJSON(b)
			} else {
				v, err := json.Marshal(view)
				if err != nil {
					return nil, err
				}
				b = append(b, v...)
			}
		}
		return t.appendUpdateEnd(b, moves, env.Tail)
	}, logLen, nil
}

// appendUpdateHead appends the start of an update in its envelope,
// whose head is head, up to its view: the table's information and the
// seat's setup come encoded.
func appendUpdateHead(b []byte, head string, version int, seat game.Seat, info, setup []byte) []byte {
	b = append(b, head...)
	b = append(b, `{"version":`...)
	b = strconv.AppendInt(b, int64(version), 10)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(seat), 10)
	b = append(b, `,"table":`...)
	b = append(b, info...)
	if len(setup) > 0 {
		b = append(append(b, `,"setup":`...), setup...)
	}
	return b
}

// appendUpdateEnd appends the rest of an update after its view: the
// moves, if any, the closing brace and the envelope's tail. It notes the
// message's length, to size the next one's buffer.
func (t *table) appendUpdateEnd(b []byte, moves []MoveInfo, tail string) ([]byte, error) {
	if len(moves) > 0 {
		var err error
		if b, err = appendMoves(append(b, `,"moves":`...), moves); err != nil {
			return nil, err
		}
	}
	b = append(append(b, '}'), tail...)
	t.updateSize.Store(int32(len(b)))
	return b, nil
}

// appendViewTail appends an update's "view_tail": the view's log, named
// log, holds the entries from index from on.
func appendViewTail(b []byte, log string, from int) []byte {
	b = append(b, `,"view_tail":{`...)
	b = game.AppendJSONString(b, log)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(from), 10)
	return append(b, '}')
}

// setupJSON returns setup, seat's own, as json.Marshal encodes it
// (compacted): once per setup given, since it goes into every update the
// seat is sent. t.mu must be held.
func (t *table) setupJSON(seat game.Seat, setup json.RawMessage) ([]byte, error) {
	if len(setup) == 0 || seat < 0 || int(seat) >= len(t.m.Seats) {
		return nil, nil
	}
	enc := t.encodings()
	if len(enc.setups) != len(t.m.Seats) {
		enc.setups = make([]encodedSetup, len(t.m.Seats))
	}
	e := &enc.setups[seat]
	if e.src != &setup[0] || e.n != len(setup) {
		b, err := json.Marshal(setup)
		if err != nil {
			return nil, err
		}
		*e = encodedSetup{src: &setup[0], n: len(setup), b: b}
	}
	return e.b, nil
}

// encodedSetup is a seat's setup encoded, and the setup it was encoded
// from (its first byte and length: a setup given again is another).
type encodedSetup struct {
	src *byte
	n   int
	b   []byte
}

// nameComputers names the computer seats: "Computer (easy)", or, where
// the table seats more than one computer of that level, "Computer 3
// (easy)" after its seat, as an open seat is "Seat 3", so that each
// computer's name says where it sits.
func nameComputers(seats []seatMeta) {
	levels := map[string]int{}
	for _, st := range seats {
		if st.Computer != "" {
			levels[st.Computer]++
		}
	}
	for i, st := range seats {
		switch {
		case st.Computer == "":
		case levels[st.Computer] > 1:
			seats[i].Name = fmt.Sprintf("Computer %d (%s)", i+1, st.Computer)
		default:
			seats[i].Name = "Computer (" + st.Computer + ")"
		}
	}
}

// uniqueName returns name, or name with a number after it, so that no two
// seats share a name (records need unique names). Seat skip is ignored.
// The number goes before a closing parenthesis ("Computer 2 (easy)"), so
// that it does not read as a score after the name ("Computer (easy) 2 0").
func uniqueName(seats []seatMeta, name string, skip int) string {
	taken := func(n string) bool {
		for i, s := range seats {
			if i != skip && strings.EqualFold(s.Name, n) {
				return true
			}
		}
		return false
	}
	if !taken(name) {
		return name
	}
	base, paren := name, ""
	if i := strings.LastIndex(name, " ("); i > 0 && strings.HasSuffix(name, ")") {
		base, paren = name[:i], name[i:]
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s %d%s", base, i, paren); !taken(n) {
			return n
		}
	}
}
