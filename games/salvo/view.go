package salvo

import (
	"encoding/json"
	"fmt"
	"strings"

	"parlour/game"
)

// Tally counts something per class of ship, indexed by Class. In JSON it
// is an object keyed by class name, leaving out zeros.
type Tally [NumClasses]int

// Total returns the sum over every class.
func (t Tally) Total() int { return t[0] + t[1] + t[2] + t[3] }

// MarshalJSON writes t as {"destroyer": 1, "submarine": 2}.
func (t Tally) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for c := range Class(NumClasses) {
		if t[c] == 0 {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, "%q:%d", c.String(), t[c])
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// UnmarshalJSON reads t as MarshalJSON writes it.
func (t *Tally) UnmarshalJSON(b []byte) error {
	var m map[string]int
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*t = Tally{}
	for k, v := range m {
		var c Class
		if err := c.UnmarshalText([]byte(k)); err != nil {
			return err
		}
		t[c] = v
	}
	return nil
}

// Report is what a salvo's target tells everybody at the table: how many
// of the salvo's shots hit each class of ship, and how many ships of each
// class it sank. It never says which shot hit.
type Report struct {
	Hits Tally `json:"hits"`
	Sank Tally `json:"sank"`
}

// numberWords spells small counts the way people report them.
const numberWords = "no   one  two  threefour five "

func countWord(n int) string {
	if n >= 0 && n <= 5 {
		return strings.TrimSpace(numberWords[5*n : 5*n+5])
	}
	return fmt.Sprint(n)
}

// Text says the report in words: "one in the destroyer, two in
// submarines; sank a submarine", or "all in the ocean".
func (r Report) Text() string {
	var parts []string
	for c := range Class(NumClasses) {
		n := r.Hits[c]
		switch {
		case n == 0:
			continue
		case c != Submarine:
			parts = append(parts, countWord(n)+" in the "+c.String())
		case n == 1:
			parts = append(parts, "one in a submarine")
		default:
			parts = append(parts, countWord(n)+" in submarines")
		}
	}
	if len(parts) == 0 {
		return "all in the ocean"
	}
	text := strings.Join(parts, ", ")
	var sank []string
	for c := range Class(NumClasses) {
		switch n := r.Sank[c]; {
		case n == 0:
		case c != Submarine:
			sank = append(sank, "the "+c.String())
		case n == 1:
			sank = append(sank, "a submarine")
		default:
			sank = append(sank, "both submarines")
		}
	}
	if len(sank) > 0 {
		text += "; sank " + strings.Join(sank, " and ")
	}
	return text
}

// Salvo is one salvo fired and its report, as everybody at the table hears
// it.
type Salvo struct {
	By game.Seat `json:"by"`
	At game.Seat `json:"at"`
	// Number counts the shooter's salvos from 1.
	Number  int      `json:"number"`
	Squares []Square `json:"squares"`
	Report  Report   `json:"report"`
}

// Outline is one outline made and whether it was right.
type Outline struct {
	By    game.Seat `json:"by"`
	Of    game.Seat `json:"of"`
	Fleet Fleet     `json:"fleet"`
	Right bool      `json:"right"`
}

// Player is what everybody knows about one seat.
type Player struct {
	Name string `json:"name"`
	// Shots is how many shots the seat's salvos have now.
	Shots int `json:"shots"`
	// Target is the seat it fires at, Spectator once it is out.
	Target game.Seat `json:"target"`
	// ShipsSunk is how many ships it has sunk: its score.
	ShipsSunk int `json:"ships_sunk"`
	// ShipsLost is how many ships of its own fleet are sunk.
	ShipsLost int `json:"ships_lost"`
	// Out says why it left the game (OutResigned, ...), "" while in it.
	Out string `json:"out,omitempty"`
}

// ShipView is one ship of a seat's own fleet and which of its squares have
// been hit.
type ShipView struct {
	Class   Class    `json:"class"`
	Ship    Ship     `json:"ship"`
	Squares []Square `json:"squares"`
	Hit     []bool   `json:"hit"`
	Sunk    bool     `json:"sunk"`
}

// Tracking is the ocean a seat keeps of one opponent it has fired at: the
// squares it fired at with each salvo's number, and its tally.
type Tracking struct {
	Target game.Seat `json:"target"`
	// Ocean holds, row by row, the number of this seat's salvo that fired
	// at each square, 0 where it has not fired.
	Ocean [Size][Size]int `json:"ocean"`
	// Hits counts the hits this seat's salvos scored per class.
	Hits Tally `json:"hits"`
	// Sunk counts the target's ships sunk per class, by anybody.
	Sunk Tally `json:"sunk"`
}

// View is what one seat may see, as State.View returns it. A seat sees its
// own fleet and where it was hit, every salvo and its report, and the
// outlines made; it never sees another seat's ships nor which squares of a
// salvo hit, until the game is over and every fleet is shown.
type View struct {
	// Seat is the seat this view is for, Spectator for an onlooker.
	Seat game.Seat `json:"seat"`
	// Practice is set at a one-seat table: Players[0] fires at the hidden
	// fleet, Players[1] (named FleetOwner), which is no seat of the table
	// and never moves; the player has no Fleet of its own.
	Practice      bool   `json:"practice,omitempty"`
	Placement     string `json:"placement"`
	DiagonalShips bool   `json:"diagonal_ships"`
	ShotsLostBy   string `json:"shots_lost_by"`

	Players  []Player    `json:"players"`
	ToMove   []game.Seat `json:"to_move"`
	Finished bool        `json:"finished"`
	Winners  []game.Seat `json:"winners,omitempty"`

	// Target is whom this seat fires at, Spectator when nobody.
	Target game.Seat `json:"target"`
	// Shots is how many squares this seat's next salvo names.
	Shots int `json:"shots"`
	// MustOutline is set when every ship of the target is sunk: the seat's
	// only moves are to outline that fleet or to resign.
	MustOutline bool `json:"must_outline"`

	// Fleet is this seat's own fleet; empty for a spectator.
	Fleet []ShipView `json:"fleet,omitempty"`
	// Tracking has one ocean per opponent this seat has fired at.
	Tracking []Tracking `json:"tracking,omitempty"`
	// Salvos lists every salvo fired, oldest first.
	Salvos   []Salvo   `json:"salvos"`
	Outlines []Outline `json:"outlines,omitempty"`
	// Fleets shows every seat's fleet, once the game is over.
	Fleets []Fleet `json:"fleets,omitempty"`
}

// View returns what seat may see now; Spectator gets the public view.
func (s *State) View(seat game.Seat) any {
	return s.SeatView(seat)
}

// ConcealedView is seat's view without the end's reveal of the fleets
// (game.Concealer): the squares seat's salvos uncovered stay all it knows
// of the others' fleets.
func (s *State) ConcealedView(seat game.Seat) any {
	v := s.SeatView(seat)
	v.Fleets = nil
	return v
}

// SeatView is View with its concrete type.
func (s *State) SeatView(seat game.Seat) View {
	if seat < 0 || int(seat) >= s.n || s.solo && seat != 0 {
		seat = game.Spectator
	}
	v := View{
		Seat:          seat,
		Practice:      s.solo,
		Placement:     PlacementFree,
		DiagonalShips: s.place.Diagonal,
		ShotsLostBy:   LostBySinker,
		Players:       make([]Player, s.n),
		ToMove:        s.ToMove(),
		Finished:      s.turn < 0,
		Target:        game.Spectator,
		Salvos:        append([]Salvo{}, s.salvos...), // [] rather than null before the first salvo
		Outlines:      append([]Outline(nil), s.outlines...),
	}
	if s.place.Strict {
		v.Placement = PlacementStrict
	}
	if s.ownerLoses {
		v.ShotsLostBy = LostByOwner
	}
	for i := range s.n {
		p := &v.Players[i]
		p.Name = s.cfg.Players[i]
		p.Shots = s.Shots(game.Seat(i))
		p.Target = s.Target(game.Seat(i))
		p.ShipsSunk = s.sank[i]
		p.ShipsLost = popcount8(s.sunk[i])
		p.Out = s.out[i]
	}
	if v.Finished {
		v.Winners = append([]game.Seat(nil), s.winners...)
		v.Fleets = append([]Fleet(nil), s.fleets...)
	}
	if seat == game.Spectator {
		return v
	}
	if !v.Finished && s.out[seat] == "" {
		if t := s.Target(seat); t >= 0 {
			v.Target = t
			v.MustOutline = s.sunk[t] == allSunk
			if !v.MustOutline {
				v.Shots = s.salvoSize(seat, t)
			}
		}
	}
	if s.solo {
		v.Tracking = s.tracking(seat)
		return v
	}
	v.Fleet = make([]ShipView, FleetSize)
	squares := make([]Square, 0, FleetSquares) // one backing array for every ship
	hits := make([]bool, 0, FleetSquares)
	for i, sh := range s.fleets[seat] {
		dr, dc := sh.step()
		from := len(squares)
		for j := range sh.Len() {
			q := At(sh.Start.Row()+j*dr, sh.Start.Col()+j*dc)
			squares = append(squares, q)
			hits = append(hits, s.hit[seat].Has(q))
		}
		v.Fleet[i] = ShipView{
			Class: ClassOf(i), Ship: sh,
			Squares: squares[from:len(squares):len(squares)], Hit: hits[from:len(hits):len(hits)],
			Sunk: s.sunk[seat]&(1<<i) != 0,
		}
	}
	v.Tracking = s.tracking(seat)
	return v
}

// tracking returns the oceans seat keeps of the opponents it has fired at.
func (s *State) tracking(seat game.Seat) []Tracking {
	var out []Tracking
	for _, sv := range s.salvos {
		if sv.By != seat {
			continue
		}
		var tr *Tracking
		for k := range out {
			if out[k].Target == sv.At {
				tr = &out[k]
			}
		}
		if tr == nil {
			out = append(out, Tracking{Target: sv.At})
			tr = &out[len(out)-1]
			for c := range Class(NumClasses) {
				for i := range FleetSize {
					if ClassOf(i) == c && s.sunk[sv.At]&(1<<i) != 0 {
						tr.Sunk[c]++
					}
				}
			}
		}
		for _, q := range sv.Squares {
			tr.Ocean[q.Row()][q.Col()] = sv.Number
		}
		for c := range tr.Hits {
			tr.Hits[c] += sv.Report.Hits[c]
		}
	}
	return out
}

func popcount8(x uint8) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
