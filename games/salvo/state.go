package salvo

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"parlour/game"
)

// maxMoveLen caps the length of a move's text; the longest sensible move,
// an outline written with dashes in every square, is well under it.
const maxMoveLen = 200

// allSunk is the sunk mask of a fleet whose every ship is sunk.
const allSunk = 1<<FleetSize - 1

// Why a player left the game.
const (
	OutResigned     = "resigned"
	OutOutlined     = "outlined"      // an opponent outlined the fleet
	OutWrongOutline = "wrong outline" // the player's own outline was wrong
)

// State is one play of Salvo. Build it with NewState or Game.New.
type State struct {
	cfg        game.Config
	place      Placement
	ownerLoses bool
	n          int

	fleets []Fleet
	ships  [][FleetSize]Board // per seat, each ship's squares
	all    []Board            // per seat, the whole fleet's squares
	hit    []Board            // per seat, the squares of its fleet hit by anyone
	fired  []Board            // fired[shooter*n+target]: squares shooter fired at target
	sunk   []uint8            // per seat, bit i set when ship i is sunk
	lost   []int              // shots each seat has lost
	sank   []int              // ships each seat has sunk
	out    []string           // why each seat left the game, "" while in it
	nSalvo []int              // salvos each seat has fired

	salvos   []Salvo
	outlines []Outline

	turn    game.Seat // the seat to move, Spectator once the game is over
	winners []game.Seat
	// ending is why the game would end after the move being applied:
	// each move sets it before the game may end.
	ending game.End
	// practice is set for NewPractice's solitaire play: seat 0 fires and
	// seat 1 only holds the fleet, never taking a turn.
	practice bool
	// solo is set for a one-seat table (practice against a hidden fleet,
	// see NewState): the fleet's seat 1 is no seat of the table, so it
	// never wins, scores or hears of the hits on it, and seat 0 has no
	// fleet of its own.
	solo bool
}

// FleetOwner names the owner of the hidden fleet a lone player fires at in
// a one-seat game, for the texts that name the target ("Ann fired salvo 1
// at the computer").
const FleetOwner = "the computer"

var _ game.State = (*State)(nil)

// NewState starts a play from one checked setup per seat (see
// Game.CheckSetup). The first seat moves first.
//
// With one player the game is practice: the one setup is the hidden fleet
// the player fires at (made by the computer; the player has no fleet of
// its own), nobody fires back, and the player wins by outlining it
// rightly, as at a table of two.
func NewState(cfg game.Config, setups []json.RawMessage) (*State, error) {
	n := len(cfg.Players)
	if n == 1 {
		if len(setups) != 1 {
			return nil, fmt.Errorf("Salvo practice needs the hidden fleet as its one setup, got %d setups", len(setups))
		}
		f, err := ParseSetup(setups[0], PlacementOf(cfg.Rules))
		if err != nil {
			return nil, fmt.Errorf("the hidden fleet: %w", err)
		}
		two := cfg
		two.Players = []string{cfg.Players[0], FleetOwner}
		s, err := newPractice(two, f)
		if err != nil {
			return nil, err
		}
		s.solo = true
		return s, nil
	}
	if n < 2 || n > MaxPlayers {
		return nil, fmt.Errorf("Salvo takes 1 to %d players, not %d", MaxPlayers, n)
	}
	if len(setups) != n {
		return nil, fmt.Errorf("Salvo needs a fleet for each of the %d players, got %d", n, len(setups))
	}
	s := &State{
		cfg:        cfg,
		place:      PlacementOf(cfg.Rules),
		ownerLoses: cfg.Rules.String(OptShotsLostBy) == LostByOwner,
		n:          n,
		fleets:     make([]Fleet, n),
		ships:      make([][FleetSize]Board, n),
		all:        make([]Board, n),
		hit:        make([]Board, n),
		fired:      make([]Board, n*n),
		sunk:       make([]uint8, n),
		lost:       make([]int, n),
		sank:       make([]int, n),
		out:        make([]string, n),
		nSalvo:     make([]int, n),
	}
	for i, raw := range setups {
		f, err := ParseSetup(raw, s.place)
		if err != nil {
			return nil, fmt.Errorf("the fleet of %s: %w", cfg.Name(game.Seat(i)), err)
		}
		s.fleets[i] = f
		for j, sh := range f {
			s.ships[i][j] = sh.Board()
		}
		s.all[i] = f.Board()
	}
	return s, nil
}

// NewPractice starts a solitaire play: one player, seat 0, fires at the
// fleet target, which must be legal under rules, and nobody fires back.
// Everything else is refereed as at a table of two: the reports, the shots
// lost, the outline that wins or loses. Seat 1 holds the fleet and never
// moves. Computer players train and are measured on it.
func NewPractice(rules game.Rules, target Fleet) (*State, error) {
	if err := PlacementOf(rules).Check(target); err != nil {
		return nil, fmt.Errorf("the practice fleet: %w", err)
	}
	return newPractice(game.Config{Players: []string{"you", "the fleet"}, Rules: rules}, target)
}

// newPractice starts practice under cfg, whose two players are the one
// who fires and the fleet target.
func newPractice(cfg game.Config, target Fleet) (*State, error) {
	s, err := NewState(cfg, []json.RawMessage{SetupOf(target), SetupOf(target)})
	if err != nil {
		return nil, err
	}
	s.practice = true
	return s, nil
}

// ToMove lists the seat to move, or none once the game is over.
func (s *State) ToMove() []game.Seat {
	if s.turn < 0 {
		return nil
	}
	return []game.Seat{s.turn}
}

// Result reports the status, the winners and each seat's ships sunk.
func (s *State) Result() game.Result {
	// Winners is never nil: no winner is an empty list, [] to the API's
	// readers, as in every game.
	r := game.Result{Status: game.InProgress, Winners: []game.Seat{}, Scores: append([]int(nil), s.sank...)}
	if s.solo {
		r.Scores = r.Scores[:1]
	}
	if s.turn < 0 {
		r.Status = game.Finished
		r.Winners = append(r.Winners, s.winners...)
	}
	return r
}

// Out implements game.Leaver: a seat out of the game (resigned, its
// fleet outlined, or a wrong outline of its own) fires no more.
func (s *State) Out(seat game.Seat) bool {
	return seat >= 0 && int(seat) < s.n && s.out[seat] != ""
}

// Target returns the seat that seat fires at: the next seat in order still
// in the game, or Spectator when there is none.
func (s *State) Target(seat game.Seat) game.Seat {
	if seat < 0 || int(seat) >= s.n || s.out[seat] != "" {
		return game.Spectator
	}
	for i := 1; i < s.n; i++ {
		t := (int(seat) + i) % s.n
		if s.out[t] == "" {
			return game.Seat(t)
		}
	}
	return game.Spectator
}

// Shots returns how many shots seat's salvos have now, before counting the
// squares left to fire at.
func (s *State) Shots(seat game.Seat) int {
	return max(1, MaxShots-s.lost[seat])
}

// salvoSize returns how many squares seat's next salvo at t names.
func (s *State) salvoSize(seat, t game.Seat) int {
	return min(s.Shots(seat), Squares-s.fired[int(seat)*s.n+int(t)].Count())
}

// Apply plays move for seat: "fire A1 C3 E5 G7 I9", "outline B2-B6 D2-G2
// I4-I6 D8-E8 G9-G10" or "resign". A refused move changes nothing.
func (s *State) Apply(seat game.Seat, move string) ([]game.Event, error) {
	text := strings.TrimSpace(move)
	if err := game.CheckTurn(s.cfg, s.ToMove(), seat); err != nil {
		// A player still in the game may resign whenever it is in play,
		// not only on their turn.
		if s.turn < 0 || seat < 0 || int(seat) >= s.n || s.out[seat] != "" || !strings.EqualFold(text, "resign") {
			return nil, err
		}
	}
	if len(text) > maxMoveLen {
		return nil, fmt.Errorf("%q: a move is at most %d characters", clipText(text), maxMoveLen)
	}
	verb, rest, _ := strings.Cut(text, " ")
	var evs []game.Event
	var err error
	switch strings.ToLower(verb) {
	case "fire":
		evs, err = s.fire(seat, rest)
	case "outline":
		evs, err = s.outline(seat, rest)
	case "resign":
		if strings.TrimSpace(rest) != "" {
			return nil, fmt.Errorf("%q: write just resign", clipText(text))
		}
		s.ending = game.End{Reason: EndResign, Seat: seat, Against: game.Spectator}
		evs = s.leave(seat, OutResigned, []game.Event{{
			Kind: "resign", Text: s.cfg.Name(seat) + " resigns",
			Data: ResignEvent{Seat: seat},
		}})
	case "":
		return nil, errors.New(`the move is empty: write "fire" and your squares, "outline" and the fleet, or "resign"`)
	default:
		if _, err := ParseSquare(verb); err == nil {
			return nil, fmt.Errorf(`%q is not a Salvo move: to fire at those squares, write "fire %s"`, clipText(text), clipText(text))
		}
		return nil, fmt.Errorf(`%q is not a Salvo move: write "fire" and your squares, "outline" and the fleet, or "resign"`, clipText(text))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", clipText(text), err)
	}
	return evs, nil
}

// fields splits a list of squares or ships on spaces and commas.
func fields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == ',' || r == '\t' || r == '\n' || r == '\r'
	})
}

func (s *State) fire(seat game.Seat, list string) ([]game.Event, error) {
	t := s.Target(seat)
	name := s.cfg.Name(t)
	if s.sunk[t] == allSunk {
		return nil, fmt.Errorf("every ship of %s's fleet is sunk: outline it, or resign", name)
	}
	size := s.salvoSize(seat, t)
	fired := s.fired[int(seat)*s.n+int(t)]
	var squares []Square
	var salvo Board
	for _, f := range fields(list) {
		q, err := ParseSquare(f)
		if err != nil {
			return nil, err
		}
		if salvo.Has(q) {
			return nil, fmt.Errorf("%s is named twice", q)
		}
		if fired.Has(q) {
			return nil, fmt.Errorf("you have already fired at %s in %s's ocean", q, name)
		}
		salvo = salvo.With(q)
		squares = append(squares, q)
	}
	if len(squares) != size {
		left := Squares - fired.Count()
		switch {
		case len(squares) == 0:
			example := []string{"A1", "C3", "E5", "G7", "I9"}
			return nil, fmt.Errorf("name the %s of your salvo, such as fire %s", plural(size, "square"), strings.Join(example[:min(size, len(example))], " "))
		case size < s.Shots(seat):
			return nil, fmt.Errorf("only %s of %s's ocean are left to fire at: name all of them, not %d", plural(left, "square"), name, len(squares))
		default:
			return nil, fmt.Errorf("your salvo has %s: you named %d", plural(size, "shot"), len(squares))
		}
	}

	// The move is legal: apply it.
	s.fired[int(seat)*s.n+int(t)] = fired.Or(salvo)
	s.nSalvo[seat]++
	sv := Salvo{By: seat, At: t, Number: s.nSalvo[seat], Squares: squares}
	for i, b := range s.ships[t] {
		sv.Report.Hits[ClassOf(i)] += b.And(salvo).Count()
	}
	hits := salvo.And(s.all[t])
	s.hit[t] = s.hit[t].Or(hits)
	for i, b := range s.ships[t] {
		if s.sunk[t]&(1<<i) == 0 && b.AndNot(s.hit[t]).Empty() {
			s.sunk[t] |= 1 << i
			sv.Report.Sank[ClassOf(i)]++
			s.sank[seat]++
			if s.ownerLoses {
				s.lost[t]++
			} else {
				s.lost[seat]++
			}
		}
	}
	s.salvos = append(s.salvos, sv)

	evs := []game.Event{{
		Kind: "salvo",
		Text: fmt.Sprintf("%s fired salvo %d at %s: %s: %s", s.cfg.Name(seat), sv.Number, name, squareList(squares), sv.Report.Text()),
		Data: sv,
	}}
	if !s.solo { // the hidden fleet is nobody to tell
		evs = append(evs, game.Event{
			To:   []game.Seat{t},
			Kind: "hits",
			Text: hitsText(s.cfg.Name(seat), hits),
			Data: HitsEvent{By: seat, Number: sv.Number, Hits: hits.Squares()},
		})
	}
	if s.sunk[t] == allSunk {
		evs = append(evs, game.Event{
			Kind: "fleet_sunk",
			Text: fmt.Sprintf("every ship of %s's fleet is sunk: %s must outline it", name, s.cfg.Name(seat)),
			Data: FleetSunkEvent{Seat: t, By: seat},
		})
	}
	// A salvo cannot end the game: the shooter's own fleet is afloat.
	return s.advance(seat, evs), nil
}

func (s *State) outline(seat game.Seat, list string) ([]game.Event, error) {
	t := s.Target(seat)
	name := s.cfg.Name(t)
	if s.sunk[t] != allSunk {
		return nil, fmt.Errorf("you may outline %s's fleet only once every ship of it is sunk", name)
	}
	f, err := ParseFleet(fields(list))
	if err != nil {
		return nil, fmt.Errorf("an outline names the fleet's five ships in order, such as outline B2-B6 D2-G2 I4-I6 D8-E8 G9-G10: %w", err)
	}
	if err := s.place.Check(f); err != nil {
		return nil, fmt.Errorf("no fleet can lie like that: %w", err)
	}
	right := f.Same(s.fleets[t])
	s.outlines = append(s.outlines, Outline{By: seat, Of: t, Fleet: f, Right: right})
	ev := game.Event{Kind: "outline", Data: s.outlines[len(s.outlines)-1]}
	if right {
		ev.Text = fmt.Sprintf("%s outlined %s's fleet rightly: %s", s.cfg.Name(seat), name, strings.Join(f.Strings(), " "))
		s.ending = game.End{Reason: EndOutlined, Seat: seat, Against: t}
		return s.leave(t, OutOutlined, []game.Event{ev}), nil
	}
	ev.Text = fmt.Sprintf("%s outlined %s's fleet wrongly", s.cfg.Name(seat), name)
	s.ending = game.End{Reason: EndWrongOutline, Seat: seat, Against: t}
	return s.leave(seat, OutWrongOutline, []game.Event{ev}), nil
}

// leave takes seat out of the game for why and moves play on.
func (s *State) leave(seat game.Seat, why string, evs []game.Event) []game.Event {
	mover := s.turn
	if why == OutResigned && seat != mover {
		// A resignation out of turn: the turn stays with the seat to
		// move, so it passes on from the seat before.
		mover = game.Seat((int(mover) + s.n - 1) % s.n)
	}
	s.out[seat] = why
	evs = append(evs, game.Event{
		Kind: "out",
		Text: fmt.Sprintf("%s is out of the game (%s)", s.cfg.Name(seat), why),
		Data: OutEvent{Seat: seat, Why: why},
	})
	return s.advance(mover, evs)
}

// advance ends the game if it is over, or passes the turn on from seat to
// the next seat still in the game with ships afloat.
func (s *State) advance(seat game.Seat, evs []game.Event) []game.Event {
	var in []game.Seat
	afloat := false
	for i := range s.n {
		if s.out[i] == "" {
			in = append(in, game.Seat(i))
			afloat = afloat || s.sunk[i] != allSunk
		}
	}
	if len(in) <= 1 || !afloat {
		s.turn = game.Spectator
		s.winners = in
		if s.solo {
			// The lone player wins by outlining the hidden fleet; the
			// fleet itself is no seat and wins nothing.
			s.winners = slices.DeleteFunc(in, func(w game.Seat) bool { return w != 0 })
		}
		return append(evs, s.endEvent())
	}
	for i := 1; i <= s.n; i++ {
		t := (int(seat) + i) % s.n
		if s.practice && t != 0 {
			continue
		}
		if s.out[t] == "" && s.sunk[t] != allSunk {
			s.turn = game.Seat(t)
			break
		}
	}
	return evs
}

// endEvent announces the result and shows every fleet.
func (s *State) endEvent() game.Event {
	names := make([]string, len(s.winners))
	for i, w := range s.winners {
		names[i] = s.cfg.Name(w)
	}
	text := "the game is over: "
	switch len(names) {
	case 0:
		text += "nobody wins"
	case 1:
		text += names[0] + " wins"
	default:
		text += strings.Join(names, " and ") + " share the win"
	}
	end := EndEvent{End: s.ending, Fleets: make(map[string][]string, s.n)}
	end.Winners = slices.Clone(s.winners)
	if end.Winners == nil {
		end.Winners = []game.Seat{}
	}
	end.Scores = s.Result().Scores
	for i, f := range s.fleets {
		if s.solo && i == 0 {
			continue // the lone player has no fleet: both setups are the hidden one
		}
		end.Fleets[s.cfg.Name(game.Seat(i))] = f.Strings()
	}
	return game.Event{Kind: "end", Text: text, Data: end}
}

// The reasons a game of Salvo ends, as its end event gives them: what the
// last move did.
const (
	// EndOutlined: Seat outlined Against's fleet rightly.
	EndOutlined = "outlined"
	// EndWrongOutline: Seat outlined Against's fleet wrongly and is out.
	EndWrongOutline = "wrong_outline"
	// EndResign: Seat resigned.
	EndResign = "resign"
)

// The events' data, for front ends (Salvo and Outline are the data of
// "salvo" and "outline").
type (
	// HitsEvent tells a fleet's owner which of its squares a salvo hit.
	HitsEvent struct {
		By     game.Seat `json:"by"`
		Number int       `json:"number"`
		Hits   []Square  `json:"hits"`
	}
	// FleetSunkEvent says that every ship of Seat's fleet is sunk, By
	// being the player who must now outline it.
	FleetSunkEvent struct {
		Seat game.Seat `json:"seat"`
		By   game.Seat `json:"by"`
	}
	// OutEvent says Seat is out of the game, and why (OutResigned, ...).
	OutEvent struct {
		Seat game.Seat `json:"seat"`
		Why  string    `json:"why"`
	}
	// ResignEvent says Seat resigned.
	ResignEvent struct {
		Seat game.Seat `json:"seat"`
	}
	// EndEvent is the end: why, the result, and every fleet by its
	// owner's name.
	EndEvent struct {
		game.End
		Fleets map[string][]string `json:"fleets"`
	}
)

func squareList(sq []Square) string {
	var b strings.Builder
	for i, q := range sq {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(q.String())
	}
	return b.String()
}

func hitsText(shooter string, hits Board) string {
	if hits.Empty() {
		return shooter + "'s salvo missed your fleet"
	}
	return shooter + "'s salvo hit your fleet on " + hits.String()
}

// plural writes n and noun, "1 shot", "3 shots".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
