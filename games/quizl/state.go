package quizl

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"parlour/game"
)

// MaxMoveLen caps the length of a move's text.
const MaxMoveLen = 200

// Outcome is how a player finished with one opponent's grid.
type Outcome string

// The outcomes of a player against one opponent.
const (
	Playing  Outcome = ""         // not done yet
	Right    Outcome = "right"    // announced the password
	Tripped  Outcome = "tripped"  // uncovered it by calls, unannounced
	Resigned Outcome = "resigned" // gave up
)

// pair is what one player (the caller) has done against one grid.
// A pair takes 40 bytes: a game of n seats keeps n*n of them.
type pair struct {
	seen    uint32   // squares of the grid revealed to the caller
	points  int32    // score against this grid, once done
	penalty int32    // wrong-announcement penalties so far
	end     uint8    // the outcome, an index in outcomes()
	wrong   []string // wrong announcements, upper-case, in order
}

// outcomes returns the outcomes a pair's end indexes.
func outcomes() [4]Outcome { return [...]Outcome{Playing, Right, Tripped, Resigned} }

// outcome returns how the caller's play against the grid stands.
func (p *pair) outcome() Outcome { return outcomes()[p.end] }

// finish sets the pair's outcome to o and its points to points.
func (p *pair) finish(o Outcome, points int) {
	all := outcomes()
	p.end, p.points = uint8(slices.Index(all[:], o)), int32(points)
}

type moveKind uint8

const (
	kindCall moveKind = iota
	kindSay
	kindResign
)

// played is one accepted move. A table in memory keeps every move of its
// game here, so the fields are as small as they can be: a byte holds a
// seat, a square or a set of seats (at most MaxPlayers, 8), and the words
// of an announcement, the one move whose words are kept, are held apart
// (State.anns) so that a call takes twelve bytes.
type played struct {
	seat   int8
	target int8 // the grid announced against
	kind   moveKind
	square int8
	// revealed holds the owners (bit o) whose letter the call revealed;
	// tripped those whose password the call uncovered unannounced.
	revealed uint8
	tripped  uint8
	// ann indexes State.anns for an announcement.
	ann int32
}

// A set of seats must fit played's bytes.
const _ = uint8(1 << (MaxPlayers - 1))

// announcement is what an announcement keeps: its canonical notation,
// which a view would otherwise have to write again each time, and what
// it did in public words, as it was told (its points and penalty
// depended on the game then). A call's or a resignation's words are told
// again from the rest (State.text) rather than kept, since a table may
// hold its game for hours.
type announcement struct {
	say  string // "say Ben CRANE": ends with the word
	said string
}

// notationOf returns pl in canonical notation.
func (s *State) notationOf(pl played) string {
	switch pl.kind {
	case kindCall:
		return Square(pl.square).String()
	case kindSay:
		return s.anns[pl.ann].say
	}
	return "resign"
}

// wordOf returns the word the announcement pl announced.
func (s *State) wordOf(pl played) string {
	say := s.anns[pl.ann].say
	return say[strings.LastIndexByte(say, ' ')+1:]
}

// State is one play of Quizl. Create it with NewState or Game.New.
type State struct {
	cfg     game.Config
	ru      rules
	n       int
	solo    bool
	grids   []*Grid
	pairs   []pair // pairs[c*n+o]: caller c against the grid of o
	seats   []seatState
	resign  []bool
	turn    int // the seat to move, -1 once the game is over
	history []played
	anns    []announcement // the announcements of history, in turn
}

var _ game.State = (*State)(nil)

// NewState starts a play from one setup per seat in the record's notation.
// With one player the setup is the grid the player attacks.
func NewState(cfg game.Config, setups []json.RawMessage) (*State, error) {
	n := len(cfg.Players)
	if n < 1 || n > MaxPlayers {
		return nil, fmt.Errorf("Quizl takes 1 to %d players, not %d", MaxPlayers, n)
	}
	if len(setups) != n {
		return nil, fmt.Errorf("Quizl needs one grid per player: %s, %s", game.Count(n, "player", "players"), game.Count(len(setups), "grid", "grids"))
	}
	ru, err := readRules(cfg.Rules)
	if err != nil {
		return nil, err
	}
	grids := make([]*Grid, n)
	for i, raw := range setups {
		g, err := ParseSetup(raw, cfg.Lexicon)
		if err != nil {
			return nil, fmt.Errorf("the grid of %s: %w", cfg.Name(game.Seat(i)), err)
		}
		grids[i] = g
	}
	return newState(cfg, ru, grids), nil
}

// NewStateGrids is NewState for grids already checked.
func NewStateGrids(cfg game.Config, grids []*Grid) (*State, error) {
	n := len(cfg.Players)
	if n < 1 || n > MaxPlayers || len(grids) != n {
		return nil, fmt.Errorf("Quizl needs 1 to %d players and one grid each: %s, %s", MaxPlayers, game.Count(n, "player", "players"), game.Count(len(grids), "grid", "grids"))
	}
	ru, err := readRules(cfg.Rules)
	if err != nil {
		return nil, err
	}
	gs := make([]*Grid, n)
	for i, g := range grids {
		if g == nil {
			return nil, fmt.Errorf("%s has no grid", cfg.Name(game.Seat(i)))
		}
		c := *g
		if err := c.Check(cfg.Lexicon); err != nil {
			return nil, fmt.Errorf("the grid of %s: %w", cfg.Name(game.Seat(i)), err)
		}
		gs[i] = &c
	}
	return newState(cfg, ru, gs), nil
}

func newState(cfg game.Config, ru rules, grids []*Grid) *State {
	n := len(grids)
	s := State{cfg: cfg, ru: ru, n: n, solo: n == 1}
	if n <= 2 {
		return s.duel(grids)
	}
	s.grids = grids
	s.pairs = make([]pair, n*n)
	s.seats = make([]seatState, n)
	s.resign = make([]bool, n)
	return &s
}

// duel holds a game of one or two players, the common case, in one
// allocation: the State, its grids and the slices it never grows. A
// table keeps its game in memory while its players think, and a few
// larger objects fill the heap's spans better than many small ones
// scattered among the garbage of the requests that made them.
type duel struct {
	s      State
	grids  [2]*Grid
	gs     [2]Grid
	pairs  [4]pair
	seats  [2]seatState
	resign [2]bool
}

// duel returns s, for one or two grids, in a duel of its own, the grids
// copied in and their passwords in one string.
func (s State) duel(grids []*Grid) *State {
	n := len(grids)
	d := &duel{s: s}
	size := 0
	for _, g := range grids {
		size += len(g.Password)
	}
	var pw strings.Builder
	pw.Grow(size)
	for i, g := range grids {
		d.gs[i] = *g
		d.grids[i] = &d.gs[i]
		pw.WriteString(g.Password)
	}
	all := pw.String()
	for i := range n {
		d.gs[i].Password, all = all[:len(d.gs[i].Password)], all[len(d.gs[i].Password):]
	}
	d.s.grids = d.grids[:n:n]
	d.s.pairs = d.pairs[: n*n : n*n]
	d.s.seats = d.seats[:n:n]
	d.s.resign = d.resign[:n:n]
	return &d.s
}

// seatState is what a State keeps of one seat across the grids it attacks:
// one slice of them, rather than one slice each, keeps a State within the
// heap's 240-byte size class.
type seatState struct {
	called uint32 // the squares the seat has called
	award  int    // points gained from others' wrong announcements
}

// opponent reports whether seat c attacks the grid of o.
func (s *State) opponent(c, o int) bool { return s.solo || c != o }

func (s *State) pair(c, o int) *pair { return &s.pairs[c*s.n+o] }

// done reports whether seat c is done with every opponent.
func (s *State) done(c int) bool {
	for o := range s.n {
		if s.opponent(c, o) && s.pair(c, o).outcome() == Playing {
			return false
		}
	}
	return true
}

// over reports whether the game has ended.
func (s *State) over() bool { return s.turn < 0 }

// ToMove returns the seat to move, or none once the game is over.
func (s *State) ToMove() []game.Seat {
	if s.over() {
		return nil
	}
	return []game.Seat{game.Seat(s.turn)}
}

// Score returns seat c's points this game: what it scored against each
// opponent plus what others' wrong announcements gave it.
func (s *State) Score(c int) int {
	t := s.seats[c].award
	for o := range s.n {
		if s.opponent(c, o) {
			t += int(s.pair(c, o).points)
		}
	}
	return t
}

// Result reports the status, the scores and, once the game is over, the
// winners: the highest scorers (none when every score is equal). In
// solitaire the player wins by announcing the password.
func (s *State) Result() game.Result {
	r := game.Result{Status: game.InProgress, Winners: []game.Seat{}, Scores: make([]int, s.n)}
	for c := range s.n {
		r.Scores[c] = s.Score(c)
	}
	if !s.over() {
		return r
	}
	r.Status = game.Finished
	if s.solo {
		if s.pair(0, 0).outcome() == Right {
			r.Winners = append(r.Winners, 0)
		}
		return r
	}
	best, all := r.Scores[0], true
	for _, v := range r.Scores {
		best = max(best, v)
		all = all && v == r.Scores[0]
	}
	if !all {
		for c, v := range r.Scores {
			if v == best {
				r.Winners = append(r.Winners, game.Seat(c))
			}
		}
	}
	return r
}

// move is a parsed move.
type move struct {
	kind   moveKind
	square Square
	target int
	word   string
}

// parse reads a move of seat c in the game's notation.
func (s *State) parse(c int, text string) (move, error) {
	t := strings.TrimSpace(text)
	if len(t) > MaxMoveLen {
		return move{}, fmt.Errorf("the move is too long (%d characters)", len(t))
	}
	low := strings.ToLower(t)
	switch {
	case low == "":
		return move{}, fmt.Errorf("the move is empty: call a square (72), announce a word (%sWORD) or resign", s.sayHow())
	case low == "resign":
		return move{kind: kindResign}, nil
	case low == "say" || strings.HasPrefix(low, "say ") || strings.HasPrefix(low, "say\t"):
		return s.parseSay(c, strings.TrimSpace(t[3:]))
	}
	sq, err := ParseSquare(t)
	if err != nil {
		if hint := s.hint(t); hint != "" {
			return move{}, fmt.Errorf("%s is not a Quizl move: %s", show(t), hint)
		}
		return move{}, fmt.Errorf("%w (or announce a word with %sWORD, or resign)", err, s.sayHow())
	}
	return move{kind: kindCall, square: sq}, nil
}

// hint says the move a player who wrote t most likely meant, in the
// notation's words, or "" when t does not look like one: a bare word is an
// announcement, "call 72" a call, and "announce" or "guess" are said
// "say".
func (s *State) hint(t string) string {
	say := s.sayHow()
	verb, rest, _ := strings.Cut(t, " ")
	rest = strings.TrimSpace(rest)
	switch v := strings.ToLower(verb); {
	case len(t) > 24:
		return ""
	case v == "announce" || v == "guess":
		if rest == "" || strings.ContainsAny(rest, " \t") {
			return "to announce a word, write " + say + "WORD"
		}
		if problem := passwordProblem(rest, s.cfg.Lexicon); problem != "" {
			return fmt.Sprintf("announcements are written %sWORD, and %s cannot be one: it %s", say, show(rest), problem)
		}
		return fmt.Sprintf("to announce %s, write %s%s", show(rest), say, strings.ToUpper(rest))
	case v == "call" || v == "shoot" || v == "fire":
		if _, err := ParseSquare(rest); err == nil {
			return fmt.Sprintf("to call %s, write just %s", rest, rest)
		}
		return "to call a square, write just the square: its row (5-9) and column (0-4), as in 72"
	case v == "resign":
		return "to resign, write just resign"
	case rest == "" && passwordProblem(t, s.cfg.Lexicon) == "":
		// A word that could be a password: only then is an
		// announcement what the player most likely meant ("hint" or
		// "pass" is not).
		return fmt.Sprintf("to announce %s, write %s%s", show(t), say, strings.ToUpper(t))
	}
	return ""
}

// sayHow is how an announcement begins in this game: "say NAME " when
// three or more players each have a password to announce.
func (s *State) sayHow() string {
	if s.n > 2 {
		return "say NAME "
	}
	return "say "
}

func (s *State) parseSay(c int, rest string) (move, error) {
	fs := strings.Fields(rest)
	if len(fs) == 0 {
		if s.n > 2 {
			return move{}, errors.New("say whose password and which word: say NAME WORD")
		}
		return move{}, errors.New("say which word: say WORD")
	}
	word := fs[len(fs)-1]
	name := strings.TrimSpace(strings.TrimSuffix(rest, word))
	m := move{kind: kindSay, word: strings.ToUpper(word)}
	switch {
	case name == "" && s.n > 2:
		return move{}, fmt.Errorf("say whose password %s is: say NAME %s", show(word), show(word))
	case name == "" && s.solo:
		m.target = 0
	case name == "":
		m.target = 1 - c
	case s.solo:
		return move{}, errors.New("in solitaire there is one grid to announce, and no player to name: say one word (say WORD)")
	default:
		o, err := s.whom(c, name)
		if err != nil {
			return move{}, err
		}
		if o == c {
			return move{}, errors.New("you cannot announce your own password")
		}
		m.target = o
	}
	if problem := passwordProblem(m.word, s.cfg.Lexicon); problem != "" {
		return move{}, fmt.Errorf("cannot announce %s: it %s", show(word), problem)
	}
	return m, nil
}

// whom finds the seat an announcement of seat c names: a player's whole
// name, then a seat number (counted from 0, as the table lists seats),
// then the start of exactly one opponent's name, all case-insensitive, so
// that "say comp CRANE" reaches "Computer (strong)".
func (s *State) whom(c int, name string) (int, error) {
	if o, ok := s.cfg.SeatOf(name); ok {
		return int(o), nil
	}
	if n, err := strconv.Atoi(name); err == nil && name[0] != '+' && name[0] != '-' {
		if n < 0 || n >= s.n {
			return 0, fmt.Errorf("there is no seat %d: the seats are 0 to %d (%s)", n, s.n-1, s.seatList())
		}
		return n, nil
	}
	var found []int
	self := false
	for o, p := range s.cfg.Players {
		if len(p) >= len(name) && strings.EqualFold(p[:len(name)], name) {
			if o == c {
				self = true
				continue
			}
			found = append(found, o)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) == 0 && self:
		return c, nil
	case len(found) == 0:
		return 0, fmt.Errorf("nobody here is called %q: say a player's name, the start of one, or a seat number (%s)", clipName(name), s.seatList())
	}
	names := make([]string, len(found))
	for i, o := range found {
		names[i] = s.cfg.Players[o]
	}
	return 0, fmt.Errorf("%q could be %s: say more of the name, or the seat number (%s)", clipName(name), orNames(names), s.seatList())
}

// seatList lists the seats as "0 Ann, 1 Ben, 2 Computer (strong)".
func (s *State) seatList() string {
	var b strings.Builder
	for o, p := range s.cfg.Players {
		if o > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s", o, p)
	}
	return b.String()
}

// orNames joins names as "A, B or C".
func orNames(n []string) string {
	if len(n) < 2 {
		return strings.Join(n, "")
	}
	return strings.Join(n[:len(n)-1], ", ") + " or " + n[len(n)-1]
}

// clipName shortens a name a player wrote for an error message.
func clipName(s string) string {
	const max = 24
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

// Normalize returns move, as seat c would play it, in the record's
// notation: a call as its square, an announcement with the opponent's
// whole name (three or more players) or none, resign as "resign". It
// implements game.Normalizer; it does not check whose turn it is or
// whether the move is legal now, only that it can be read.
func (s *State) Normalize(seat game.Seat, text string) (string, error) {
	m, err := s.parse(int(seat), text)
	if err != nil {
		return "", err
	}
	return s.notation(m), nil
}

var _ game.Normalizer = (*State)(nil)

// notation writes m in canonical notation.
func (s *State) notation(m move) string {
	switch m.kind {
	case kindCall:
		return m.square.String()
	case kindSay:
		if s.n > 2 {
			return "say " + s.cfg.Players[m.target] + " " + m.word
		}
		return "say " + m.word
	}
	return "resign"
}

// Out implements game.Leaver: a seat whose every hunt is settled (its
// passwords found, tripped over or given up) moves no more, though the
// others may still hunt its grid.
func (s *State) Out(seat game.Seat) bool {
	c := int(seat)
	return c >= 0 && c < s.n && s.done(c)
}

// Apply plays move for seat. A refused move changes nothing and returns an
// error naming it in a player's words.
func (s *State) Apply(seat game.Seat, text string) ([]game.Event, error) {
	c := int(seat)
	if err := game.CheckTurn(s.cfg, s.ToMove(), seat); err != nil {
		if !s.over() && c >= 0 && c < s.n && s.done(c) {
			// Waiting for another would read as if the seat's turn were
			// to come; it is not: its part of the game is over.
			if s.resign[c] {
				return nil, fmt.Errorf("%w: you resigned, and the others play on without you", game.ErrNotYourTurn)
			}
			return nil, fmt.Errorf("%w: every grid you hunted is settled, and the others play on", game.ErrNotYourTurn)
		}
		// A player may resign whenever the game is in play, not only on
		// their turn, while they still hunt some grid.
		if s.over() || c < 0 || c >= s.n || !strings.EqualFold(strings.TrimSpace(text), "resign") {
			return nil, err
		}
	}
	m, err := s.parse(c, text)
	if err != nil {
		return nil, err
	}
	switch m.kind {
	case kindCall:
		if s.seats[c].called&(1<<m.square) != 0 {
			return nil, fmt.Errorf("square %s was already called", m.square)
		}
	case kindSay:
		p := s.pair(c, m.target)
		if p.outcome() != Playing {
			return nil, fmt.Errorf("you are already done with %s", s.whose(m.target))
		}
		for _, w := range p.wrong {
			if w == m.word {
				return nil, fmt.Errorf("you already announced %s for %s, and it was wrong", m.word, s.whose(m.target))
			}
		}
	}
	// The move is legal: from here on the state changes.
	pl := played{seat: int8(c), kind: m.kind, square: int8(m.square), target: int8(m.target)}
	if m.kind == kindSay {
		pl.ann = int32(len(s.anns))
		s.anns = append(s.anns, announcement{say: s.notation(m)})
	}
	var evs []game.Event
	switch m.kind {
	case kindCall:
		evs = s.call(c, m.square, &pl)
	case kindSay:
		evs = s.say(c, m.target, m.word, &pl)
	case kindResign:
		evs = s.resignSeat(c, &pl)
	}
	s.history = append(s.history, pl)
	if c == s.turn {
		s.advance(c)
	} // else a resignation out of turn: the turn stays where it was
	if s.over() {
		evs = append(evs, s.endEvents()...)
	}
	return evs, nil
}

// soloGrid is how texts name the grid a solitaire player attacks.
const soloGrid = "the grid"

// whose names the grid of o as its attacker sees it: the owner's name, or
// "the grid" in solitaire.
func (s *State) whose(o int) string {
	if s.solo {
		return soloGrid
	}
	return s.cfg.Players[o]
}

// Revealed is the private event data of a call: the letters the called
// square holds in the grids of the caller's opponents still in play.
type Revealed struct {
	Square  string   `json:"square"`
	Letters []Letter `json:"letters"`
}

// Letter is one letter of one grid.
type Letter struct {
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Square string `json:"square"`
	Letter string `json:"letter"`
}

// Called is the public event data of a call.
type Called struct {
	Seat   int    `json:"seat"`
	Square string `json:"square"`
}

// Finished is the public event data when a player is done with a grid.
type Finished struct {
	Seat    int     `json:"seat"`
	Against int     `json:"against"`
	Outcome Outcome `json:"outcome"`
	Points  int     `json:"points"`
}

// Announced is the public event data of an announcement.
type Announced struct {
	Seat    int    `json:"seat"`
	Against int    `json:"against"`
	Word    string `json:"word"`
	Right   bool   `json:"right"`
	// Points is what a right announcement scored.
	Points int `json:"points,omitempty"`
	// Penalty and Award are what a wrong announcement cost and gave.
	Penalty int `json:"penalty,omitempty"`
	Award   int `json:"award,omitempty"`
}

func (s *State) call(c int, sq Square, pl *played) []game.Event {
	bit := uint32(1) << sq
	s.seats[c].called |= bit
	rev := Revealed{Square: sq.String(), Letters: make([]Letter, 0, s.n)}
	var trips []int
	for o := range s.n {
		if !s.opponent(c, o) {
			continue
		}
		p := s.pair(c, o)
		if p.outcome() != Playing {
			continue
		}
		p.seen |= bit
		pl.revealed |= 1 << o
		rev.Letters = append(rev.Letters, Letter{Seat: o, Name: s.whose(o), Square: rev.Square, Letter: string(s.grids[o].Letters[sq])})
		if m := s.grids[o].Line.Mask(); p.seen&m == m {
			p.finish(Tripped, 0)
			trips = append(trips, o)
			pl.tripped |= 1 << o
		}
	}
	name := s.cfg.Players[c]
	evs := make([]game.Event, 2, 2+len(trips))
	evs[0] = game.Event{Kind: "call", Text: name + " called " + rev.Square, Data: Called{Seat: c, Square: rev.Square}}
	evs[1] = game.Event{To: []game.Seat{game.Seat(c)}, Kind: "revealed", Text: revealedText(rev), Data: rev}
	for _, o := range trips {
		evs = append(evs, game.Event{Kind: "tripped", Text: s.trippedText(c, o), Data: Finished{Seat: c, Against: o, Outcome: Tripped}})
	}
	return evs
}

// trippedText tells that c's call uncovered o's password unannounced.
func (s *State) trippedText(c, o int) string {
	return fmt.Sprintf("%s has uncovered every letter of %s password without announcing it: 0 points against %s", s.cfg.Players[c], s.possessive(o), s.whose(o))
}

// text returns what pl did, in public words: a call with every password
// it uncovered unannounced, an announcement as it was told, a
// resignation.
func (s *State) text(pl played) string {
	name := s.cfg.Players[pl.seat]
	switch pl.kind {
	case kindCall:
		t := name + " called " + Square(pl.square).String()
		for o := range s.n {
			if pl.tripped&(1<<o) != 0 {
				t += "; " + s.trippedText(int(pl.seat), o)
			}
		}
		return t
	case kindSay:
		return s.anns[pl.ann].said
	}
	return name + " resigned"
}

func (s *State) possessive(o int) string {
	if s.solo {
		return "the grid's"
	}
	return s.cfg.Players[o] + "'s"
}

func revealedText(r Revealed) string {
	var b strings.Builder
	// Room for the whole text at once: growing by doubling would take
	// several allocations on every call.
	n := len(r.Square) + len(" holds nothing new: you are done with every grid")
	for _, l := range r.Letters {
		n += len(", ") + len(l.Letter) + len(" in ") + len(l.Name) + len("'s grid")
	}
	b.Grow(n)
	b.WriteString(r.Square)
	b.WriteString(" holds ")
	for i, l := range r.Letters {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l.Letter)
		b.WriteString(" in ")
		b.WriteString(l.Name)
		if l.Name != soloGrid {
			b.WriteString("'s grid")
		}
	}
	if len(r.Letters) == 0 {
		b.WriteString("nothing new: you are done with every grid")
	}
	return b.String()
}

// Right reports whether word is a right announcement against g: the
// password, or any other line of g that reads a genuine word (the "two
// key-words" rule; a checked grid has no second word).
func (g *Grid) right(word string) bool {
	if word == g.Password {
		return true
	}
	for l := range Line(Lines) {
		if g.Read(l) == word {
			return true
		}
	}
	return false
}

func (s *State) say(c, o int, word string, pl *played) []game.Event {
	p := s.pair(c, o)
	name := s.cfg.Players[c]
	a := Announced{Seat: c, Against: o, Word: word}
	var evs []game.Event
	if s.grids[o].right(word) {
		a.Right = true
		p.finish(Right, max(0, MaxPoints-bits.OnesCount32(p.seen)-int(p.penalty)))
		said := fmt.Sprintf("%s announced %s for %s: right, %s", name, word, s.whose(o), game.Count(int(p.points), "point", "points"))
		s.anns[pl.ann].said = said
		a.Points = int(p.points)
		return append(evs, game.Event{Kind: "announce", Text: said, Data: a})
	}
	p.penalty += int32(s.ru.penalty)
	p.wrong = append(p.wrong, word)
	a.Penalty = s.ru.penalty
	said := fmt.Sprintf("%s announced %s for %s: wrong", name, word, s.whose(o))
	if s.ru.penalty > 0 {
		said += fmt.Sprintf(", %d off %s score against %s", s.ru.penalty, name+"'s", s.whose(o))
	}
	if !s.solo && s.ru.award > 0 {
		s.seats[o].award += s.ru.award
		a.Award = s.ru.award
		said += fmt.Sprintf(", %d to %s", s.ru.award, s.cfg.Players[o])
	}
	s.anns[pl.ann].said = said
	return append(evs, game.Event{Kind: "announce", Text: said, Data: a})
}

func (s *State) resignSeat(c int, pl *played) []game.Event {
	s.resign[c] = true
	for o := range s.n {
		if p := s.pair(c, o); s.opponent(c, o) && p.outcome() == Playing {
			p.finish(Resigned, 0)
		}
	}
	return []game.Event{{Kind: "resign", Text: s.cfg.Players[c] + " resigned", Data: Finished{Seat: c, Against: -1, Outcome: Resigned}}}
}

// Compact gives back the room the history grew into (game.Compacter): a
// table keeps its game in memory while its players think.
func (s *State) Compact() {
	if cap(s.history) > len(s.history) {
		s.history = append(make([]played, 0, len(s.history)), s.history...)
	}
	if cap(s.anns) > len(s.anns) {
		s.anns = append(make([]announcement, 0, len(s.anns)), s.anns...)
	}
}

// advance passes the turn to the next seat after c that is not done, or
// ends the game.
func (s *State) advance(c int) {
	for i := 1; i <= s.n; i++ {
		if t := (c + i) % s.n; !s.done(t) {
			s.turn = t
			return
		}
	}
	s.turn = -1
}

// The reasons a game of Quizl ends, as its end event gives them: what the
// last move did, that left every player done with every grid.
const (
	// EndAnnounced: Seat announced Against's password rightly (Word).
	EndAnnounced = "announced"
	// EndTripped: Seat's call uncovered Against's password unannounced.
	EndTripped = "tripped"
	// EndResign: Seat resigned.
	EndResign = "resign"
)

// Reveal is the public event data at the end of a game: why it ended, the
// result, and every grid.
type Reveal struct {
	game.End
	Grids []Setup `json:"grids"`
}

func (s *State) endEvents() []game.Event {
	res := s.Result()
	r := Reveal{End: game.End{Seat: game.Spectator, Against: game.Spectator, Winners: res.Winners, Scores: res.Scores}}
	if len(s.history) > 0 {
		last := s.history[len(s.history)-1]
		r.Seat = game.Seat(last.seat)
		switch last.kind {
		case kindSay:
			r.Reason, r.Against, r.Word = EndAnnounced, game.Seat(last.target), s.wordOf(last)
		case kindCall:
			r.Reason = EndTripped
			for o := range s.n {
				if last.tripped&(1<<o) != 0 {
					r.Against = game.Seat(o)
				}
			}
		default:
			r.Reason = EndResign
		}
	}
	for _, g := range s.grids {
		r.Grids = append(r.Grids, Setup{Grid: g.Rows(), Password: g.Password})
	}
	var b strings.Builder
	b.WriteString("game over:")
	for c := range s.n {
		fmt.Fprintf(&b, " %s %d", s.cfg.Players[c], r.Scores[c])
		if c < s.n-1 {
			b.WriteString(",")
		}
	}
	return []game.Event{{Kind: "end", Text: b.String(), Data: r}}
}
