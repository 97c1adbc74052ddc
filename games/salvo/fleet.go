package salvo

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"parlour/game"
)

// Class is a kind of ship. Reports count hits per class, so the two
// submarines are one class.
type Class int8

// The classes of ship, in the order a fleet lists them.
const (
	Battleship Class = iota
	Cruiser
	Destroyer
	Submarine
)

// NumClasses is how many classes of ship there are.
const NumClasses = 4

// Len returns how many squares a ship of class c covers.
func (c Class) Len() int {
	switch c {
	case Battleship:
		return 5
	case Cruiser:
		return 4
	case Destroyer:
		return 3
	}
	return 2
}

// Count returns how many ships of class c a fleet has.
func (c Class) Count() int {
	if c == Submarine {
		return 2
	}
	return 1
}

// String returns the class's name, "battleship".
func (c Class) String() string {
	switch c {
	case Battleship:
		return "battleship"
	case Cruiser:
		return "cruiser"
	case Destroyer:
		return "destroyer"
	case Submarine:
		return "submarine"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// MarshalText writes the class's name.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a class's name.
func (c *Class) UnmarshalText(b []byte) error {
	for k := Battleship; k <= Submarine; k++ {
		if strings.EqualFold(string(b), k.String()) {
			*c = k
			return nil
		}
	}
	return fmt.Errorf("%q is not a class of ship", clipText(string(b)))
}

// FleetSize is how many ships a fleet has.
const FleetSize = 5

// ClassOf returns the class of the fleet's i-th ship (battleship, cruiser,
// destroyer, submarine, submarine).
func ClassOf(i int) Class {
	if i >= int(Submarine) {
		return Submarine
	}
	return Class(i)
}

// FleetSquares is how many squares a whole fleet covers.
const FleetSquares = 5 + 4 + 3 + 2 + 2

// Ship is a straight line of squares from Start to End. A ship is kept
// with Start before End in reading order, so equal ships are equal values.
type Ship struct {
	Start, End Square
}

// ParseShip reads a ship written as its two end squares, "B2-B6" (either
// end first, squares as ParseSquare reads them). It checks that the squares
// lie on one straight line (a row, a column or a diagonal), not the length.
func ParseShip(text string) (Ship, error) {
	a, rest, err := parseSquarePrefix(text)
	if err != nil {
		return Ship{}, fmt.Errorf("ship %q: %w", clipText(text), err)
	}
	if rest == "" || rest[0] != '-' {
		return Ship{}, fmt.Errorf("%q is not a ship: write its two end squares, such as B2-B6", clipText(text))
	}
	b, rest, err := parseSquarePrefix(rest[1:])
	if err != nil {
		return Ship{}, fmt.Errorf("ship %q: %w", clipText(text), err)
	}
	if rest != "" {
		return Ship{}, fmt.Errorf("%q is not a ship: write its two end squares, such as B2-B6", clipText(text))
	}
	return NewShip(a, b)
}

// NewShip returns the ship from a to b, which must lie on one row, column
// or diagonal.
func NewShip(a, b Square) (Ship, error) {
	if !a.Valid() || !b.Valid() {
		return Ship{}, errors.New("a ship's ends must be squares of the ocean")
	}
	if b < a {
		a, b = b, a
	}
	dr, dc := b.Row()-a.Row(), b.Col()-a.Col()
	if dr != 0 && dc != 0 && dr != dc && dr != -dc {
		return Ship{}, fmt.Errorf("%s-%s is not a straight line of squares", a, b)
	}
	return Ship{a, b}, nil
}

// step returns the change in row and column from one square to the next.
func (s Ship) step() (dr, dc int) {
	return sign(s.End.Row() - s.Start.Row()), sign(s.End.Col() - s.Start.Col())
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Len returns how many squares the ship covers.
func (s Ship) Len() int {
	return max(abs(s.End.Row()-s.Start.Row()), abs(s.End.Col()-s.Start.Col())) + 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Diagonal reports whether the ship lies on a diagonal.
func (s Ship) Diagonal() bool {
	dr, dc := s.step()
	return dr != 0 && dc != 0
}

// Squares lists the ship's squares from Start to End.
func (s Ship) Squares() []Square {
	dr, dc := s.step()
	out := make([]Square, s.Len())
	r, c := s.Start.Row(), s.Start.Col()
	for i := range out {
		out[i] = At(r+i*dr, c+i*dc)
	}
	return out
}

// Board returns the ship's squares as a board.
func (s Ship) Board() Board {
	dr, dc := s.step()
	var b Board
	r, c := s.Start.Row(), s.Start.Col()
	for i := range s.Len() {
		b = b.With(At(r+i*dr, c+i*dc))
	}
	return b
}

// String writes the ship as its end squares, "B2-B6".
func (s Ship) String() string { return s.Start.String() + "-" + s.End.String() }

// MarshalText writes the ship as String does.
func (s Ship) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a ship as ParseShip does.
func (s *Ship) UnmarshalText(b []byte) error {
	x, err := ParseShip(string(b))
	if err != nil {
		return err
	}
	*s = x
	return nil
}

// Fleet is a player's five ships in order: battleship, cruiser, destroyer,
// submarine, submarine.
type Fleet [FleetSize]Ship

// ParseFleet reads five ships written as ParseShip reads them, in fleet
// order. It checks each ship's shape, not the placement rules: see Check.
func ParseFleet(ships []string) (Fleet, error) {
	var f Fleet
	if len(ships) != FleetSize {
		return f, fmt.Errorf("a fleet has %d ships (battleship, cruiser, destroyer, submarine, submarine), not %d", FleetSize, len(ships))
	}
	for i, t := range ships {
		s, err := ParseShip(strings.TrimSpace(t))
		if err != nil {
			return f, fmt.Errorf("the %s: %w", shipName(i), err)
		}
		f[i] = s
	}
	return f, nil
}

// shipName names the fleet's i-th ship for people.
func shipName(i int) string {
	switch i {
	case 3:
		return "first submarine"
	case 4:
		return "second submarine"
	}
	return ClassOf(i).String()
}

// Strings writes the fleet's ships as ParseFleet reads them.
func (f Fleet) Strings() []string {
	out := make([]string, FleetSize)
	for i, s := range f {
		out[i] = s.String()
	}
	return out
}

// Board returns every square of the fleet.
func (f Fleet) Board() Board {
	var b Board
	for _, s := range f {
		b = b.Or(s.Board())
	}
	return b
}

// Same reports whether f and g put every ship on the same squares, the two
// submarines either way round.
func (f Fleet) Same(g Fleet) bool {
	if f[0] != g[0] || f[1] != g[1] || f[2] != g[2] {
		return false
	}
	return f[3] == g[3] && f[4] == g[4] || f[3] == g[4] && f[4] == g[3]
}

// Placement holds the rule options that decide where ships may lie.
type Placement struct {
	// Strict forbids more than one square of a ship on the ocean's outside
	// rows and columns, and a ship touching more than one square of another.
	Strict bool
	// Diagonal lets ships lie on diagonals; squares that share only a corner
	// then touch too.
	Diagonal bool
}

// CheckShip reports why ship s cannot be the fleet's i-th ship under p on
// its own (wrong length, diagonal when not allowed, too much of it on the
// edge), or nil.
func (p Placement) CheckShip(i int, s Ship) error {
	c := ClassOf(i)
	if s.Len() != c.Len() {
		return fmt.Errorf("the %s %s covers %s: a %s covers %d", shipName(i), s, game.Count(s.Len(), "square", "squares"), c, c.Len())
	}
	if s.Diagonal() && !p.Diagonal {
		return fmt.Errorf("the %s %s lies diagonally: at this table ships lie across or down", shipName(i), s)
	}
	if p.Strict {
		edge := 0
		for _, q := range s.Squares() {
			if q.OnEdge() {
				edge++
			}
		}
		if edge > 1 {
			return fmt.Errorf("the %s %s has %d squares on the edge of the ocean: at most one square of a ship may lie on row 1, row 10, column A or column J", shipName(i), s, edge)
		}
	}
	return nil
}

// Check reports why f breaks the placement rules p, naming the ship and the
// rule it breaks, or nil when f is a legal fleet.
func (p Placement) Check(f Fleet) error {
	var boards, near [FleetSize]Board
	for i, s := range f {
		if err := p.CheckShip(i, s); err != nil {
			return err
		}
		boards[i] = s.Board()
		near[i] = boards[i].Neighbours(p.Diagonal)
	}
	for i := range f {
		for j := range i {
			if o := boards[i].And(boards[j]); !o.Empty() {
				return fmt.Errorf("the %s %s overlaps the %s %s on %s", shipName(i), f[i], shipName(j), f[j], o)
			}
			if !p.Strict {
				continue
			}
			if near[i].And(boards[j]).Count() > 1 || near[j].And(boards[i]).Count() > 1 {
				return fmt.Errorf("the %s %s touches the %s %s on more than one square", shipName(i), f[i], shipName(j), f[j])
			}
		}
	}
	return nil
}

// Setup is a seat's secret setup as a record holds it.
type Setup struct {
	Fleet []string `json:"fleet"`
}

// ParseSetup reads a setup, {"fleet": ["B2-B6", ...]}, and checks it under
// p.
func ParseSetup(raw []byte, p Placement) (Fleet, error) {
	var s Setup
	if err := strictUnmarshal(raw, &s); err != nil {
		return Fleet{}, fmt.Errorf(`a Salvo setup is {"fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}: %w`, err)
	}
	if s.Fleet == nil {
		return Fleet{}, errors.New(`the setup has no fleet: write {"fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`)
	}
	if len(s.Fleet) == FleetSize && slices.ContainsFunc(s.Fleet, func(t string) bool { return strings.TrimSpace(t) == "" }) {
		return Fleet{}, p.partial(s.Fleet)
	}
	f, err := ParseFleet(s.Fleet)
	if err != nil {
		return Fleet{}, err
	}
	if err := p.Check(f); err != nil {
		if all := p.Problems(f, [FleetSize]bool{true, true, true, true, true}); len(all) > 1 {
			return Fleet{}, problemsError(all, nil)
		}
		return Fleet{}, err
	}
	return f, nil
}

// Problem is one way a fleet breaks the placement rules: what is wrong, in
// a player's words, and the ships it concerns (indices in fleet order).
type Problem struct {
	Ships []int
	Text  string
}

// Problems lists every way the ships of f marked in placed break the
// placement rules p, in fleet order: each ship's own problem (see
// CheckShip), then each pair of ships that overlap or, under strict
// placement, touch on more than one square. Check stops at the first.
func (p Placement) Problems(f Fleet, placed [FleetSize]bool) []Problem {
	var out []Problem
	var boards, near [FleetSize]Board
	for i, s := range f {
		if !placed[i] {
			continue
		}
		if err := p.CheckShip(i, s); err != nil {
			out = append(out, Problem{Ships: []int{i}, Text: err.Error()})
		}
		boards[i] = s.Board()
		near[i] = boards[i].Neighbours(p.Diagonal)
	}
	for i := range f {
		for j := range i {
			if !placed[i] || !placed[j] {
				continue
			}
			if o := boards[i].And(boards[j]); !o.Empty() {
				out = append(out, Problem{Ships: []int{j, i}, Text: fmt.Sprintf("the %s %s overlaps the %s %s on %s", shipName(i), f[i], shipName(j), f[j], o)})
				continue
			}
			if p.Strict && (near[i].And(boards[j]).Count() > 1 || near[j].And(boards[i]).Count() > 1) {
				out = append(out, Problem{Ships: []int{j, i}, Text: fmt.Sprintf("the %s %s touches the %s %s on more than one square", shipName(i), f[i], shipName(j), f[j])})
			}
		}
	}
	return out
}

// partial checks a fleet with ships still to place (written ""), so that a
// fleet can be checked ship by ship as it is placed: the error names every
// problem among the ships placed, then the ships still to place.
func (p Placement) partial(ships []string) error {
	var f Fleet
	var placed [FleetSize]bool
	var missing []int
	for i, t := range ships {
		if strings.TrimSpace(t) == "" {
			missing = append(missing, i)
			continue
		}
		s, err := ParseShip(strings.TrimSpace(t))
		if err != nil {
			return fmt.Errorf("the %s: %w", shipName(i), err)
		}
		f[i], placed[i] = s, true
	}
	return problemsError(p.Problems(f, placed), missing)
}

// problemsError joins every problem and, last, the ships still to place
// into one refusal: "the battleship A1-E1 has 5 squares on the edge of the
// ocean: ...; still to place: the cruiser and the destroyer".
func problemsError(problems []Problem, missing []int) error {
	var parts []string
	for _, pr := range problems {
		parts = append(parts, pr.Text)
	}
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for k, i := range missing {
			names[k] = "the " + shipName(i)
		}
		list := names[0]
		if n := len(names); n > 1 {
			list = strings.Join(names[:n-1], ", ") + " and " + names[n-1]
		}
		parts = append(parts, "still to place: "+list)
	}
	return errors.New(strings.Join(parts, "; "))
}

// SetupOf returns f as a setup in canonical form.
func SetupOf(f Fleet) json.RawMessage {
	b, _ := json.Marshal(Setup{Fleet: f.Strings()}) // cannot fail: strings only
	return b
}

// Placements lists every place a ship of length n may lie under p on its
// own (in the ocean, straight, not too much on the edge).
func (p Placement) Placements(n int) []Ship {
	var out []Ship
	dirs := [][2]int{{0, 1}, {1, 0}}
	if p.Diagonal {
		dirs = append(dirs, [2]int{1, 1}, [2]int{1, -1})
	}
	for r := range Size {
		for c := range Size {
			for _, d := range dirs {
				er, ec := r+(n-1)*d[0], c+(n-1)*d[1]
				if er < 0 || er >= Size || ec < 0 || ec >= Size {
					continue
				}
				s, _ := NewShip(At(r, c), At(er, ec)) // straight by construction
				if p.Strict {
					edge := 0
					for _, q := range s.Squares() {
						if q.OnEdge() {
							edge++
						}
					}
					if edge > 1 {
						continue
					}
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// Sampler draws legal fleets uniformly at random under one Placement. It
// holds the placement tables, so keep one for many draws.
type Sampler struct {
	p      Placement
	places [FleetSize][]placed
}

type placed struct {
	ship        Ship
	board, near Board
}

// NewSampler returns a sampler of fleets legal under p.
func NewSampler(p Placement) *Sampler {
	s := &Sampler{p: p}
	for i := range FleetSize {
		if i > 0 && ClassOf(i) == ClassOf(i-1) {
			s.places[i] = s.places[i-1]
			continue
		}
		for _, sh := range p.Placements(ClassOf(i).Len()) {
			b := sh.Board()
			s.places[i] = append(s.places[i], placed{sh, b, b.Neighbours(p.Diagonal)})
		}
	}
	return s
}

// Fleet draws a fleet uniformly from every legal fleet, by drawing each
// ship uniformly from its own placements and starting over whenever a ship
// breaks a rule against the ships before it.
func (s *Sampler) Fleet(r *rand.Rand) Fleet {
	var f Fleet
	var got [FleetSize]placed
outer:
	for {
		for i := range FleetSize {
			pl := s.places[i][r.IntN(len(s.places[i]))]
			for j := range i {
				if pl.board.Intersects(got[j].board) {
					continue outer
				}
				if s.p.Strict && (pl.near.And(got[j].board).Count() > 1 || got[j].near.And(pl.board).Count() > 1) {
					continue outer
				}
			}
			got[i] = pl
			f[i] = pl.ship
		}
		return f
	}
}

// RandomFleet returns a legal fleet under p drawn uniformly at random from r.
func RandomFleet(r *rand.Rand, p Placement) Fleet {
	return NewSampler(p).Fleet(r)
}
