package quizl

import (
	"math/bits"
	"strings"

	"parlour/game"
)

// Unknown marks a square whose letter a view does not show.
const Unknown = '.'

// View is what one seat may see of a play, as State.View returns it: its
// own grid, what its calls revealed of each opponent's grid, whose turn it
// is, who is done, the scores and the moves. A spectator's view holds no
// letter of any grid until the game ends; after the end every view shows
// every grid.
type View struct {
	// Seat is the viewer's seat, -1 for a spectator.
	Seat    int      `json:"seat"`
	Players []string `json:"players"`
	// Solitaire is set when one player attacks a computer-made grid.
	Solitaire bool `json:"solitaire,omitempty"`
	// Grid and Password are the viewer's own (none for a spectator or in
	// solitaire).
	Grid     []string `json:"grid,omitempty"`
	Password string   `json:"password,omitempty"`
	// Called lists the squares the viewer has called, in order.
	Called []string `json:"called,omitempty"`
	// Boards has one entry per grid the viewer attacks (every grid, for a
	// spectator), in seat order.
	Boards []Board `json:"boards"`
	// ToMove is the seat to move, -1 once the game is over.
	ToMove int `json:"to_move"`
	// Done reports, per seat, whether it has finished with every grid.
	Done     []bool `json:"done"`
	Resigned []bool `json:"resigned"`
	// Scores are every seat's points this game so far.
	Scores   []int  `json:"scores"`
	Moves    []Seen `json:"moves"`
	Finished bool   `json:"finished"`
	// Winners are set once the game is over.
	Winners []int `json:"winners,omitempty"`
}

// Board is one grid as the viewer knows it.
type Board struct {
	// Seat owns the grid (0 in solitaire, where the grid is the computer's).
	Seat int    `json:"seat"`
	Name string `json:"name"`
	// Grid holds the letters the viewer's calls revealed, Unknown ('.')
	// elsewhere; after the game every letter.
	Grid []string `json:"grid"`
	// Password is shown once the viewer announced it right, and to
	// everyone after the game.
	Password string `json:"password,omitempty"`
	// Outcome, Points, Penalty and Wrong are the viewer's standing against
	// this grid (empty for a spectator).
	Outcome Outcome  `json:"outcome,omitempty"`
	Points  int      `json:"points,omitempty"`
	Penalty int      `json:"penalty,omitempty"`
	Wrong   []string `json:"wrong,omitempty"`
}

// Letter returns the letter the board shows at square sq, or Unknown.
func (b *Board) Letter(sq Square) byte {
	if sq < 0 || sq >= Squares || len(b.Grid) != Size {
		return Unknown
	}
	return b.Grid[sq.Row()-5][sq.Col()]
}

// Seen is one move as the viewer sees it.
type Seen struct {
	Seat int    `json:"seat"`
	Move string `json:"move"`
	// Text says what happened, in public words.
	Text string `json:"text"`
	// Revealed holds the letters the move showed the viewer: its own calls'.
	Revealed []Letter `json:"revealed,omitempty"`
}

// View returns what seat may see now, as a View. Any seat outside the
// table gets the spectator's view.
func (s *State) View(seat game.Seat) any { return s.ViewOf(seat) }

// ViewOf is View with the concrete type.
func (s *State) ViewOf(seat game.Seat) View {
	return s.viewOf(int(seat), 0, false)
}

// ConcealedView is seat's view without the end's reveal of the grids and
// passwords seat did not find (game.Concealer).
func (s *State) ConcealedView(seat game.Seat) any {
	return s.viewReveal(int(seat), 0, false, false)
}

// LogName is "moves", as a View's.
func (s *State) LogName() string { return View{}.LogName() }

// AppendViewTail appends seat's view with only the moves from index from
// on, as View(seat).(View).AppendJSONTail(b, from) would, and returns how
// many moves the whole view holds: a socket that has the earlier moves is
// sent the new ones without the others being built (TestAppendViewTail).
func (s *State) AppendViewTail(b []byte, seat game.Seat, from int) ([]byte, int) {
	from = min(max(from, 0), len(s.history))
	return s.viewOf(int(seat), from, true).appendJSON(b, 0), len(s.history)
}

// viewOf builds c's view with the moves from index from on. A borrowed
// view shares the state's slices rather than copying them: it must be
// done with (encoded) before the state changes.
func (s *State) viewOf(c, from int, borrow bool) View {
	return s.viewReveal(c, from, borrow, true)
}

// viewReveal is viewOf, with the grids and passwords shown whole at the
// end only when reveal is set.
func (s *State) viewReveal(c, from int, borrow, reveal bool) View {
	if c < 0 || c >= s.n {
		c = -1
	}
	end := s.over()
	v := View{
		Seat:      c,
		Players:   s.cfg.Players,
		Solitaire: s.solo,
		ToMove:    s.turn,
		Done:      make([]bool, s.n),
		Resigned:  s.resign,
		Scores:    make([]int, s.n),
		Finished:  end,
	}
	if !borrow {
		v.Players = append([]string(nil), v.Players...)
		v.Resigned = append([]bool(nil), v.Resigned...)
	}
	for i := range s.n {
		v.Done[i] = s.done(i)
		v.Scores[i] = s.Score(i)
	}
	if end {
		for _, w := range s.Result().Winners {
			v.Winners = append(v.Winners, int(w))
		}
	}
	if c >= 0 && !s.solo {
		v.Grid = s.grids[c].Rows()
		v.Password = s.grids[c].Password
	}
	if c >= 0 && s.seats[c].called != 0 {
		v.Called = make([]string, 0, bits.OnesCount32(s.seats[c].called))
	}
	v.Boards = make([]Board, 0, s.n)
	for o := range s.n {
		if c >= 0 && !s.opponent(c, o) {
			continue
		}
		g := s.grids[o]
		b := Board{Seat: o, Name: s.whose(o)}
		var seen uint32
		if c >= 0 {
			p := s.pair(c, o)
			seen = p.seen
			b.Outcome, b.Points, b.Penalty = p.outcome(), int(p.points), int(p.penalty)
			if len(p.wrong) > 0 {
				b.Wrong = p.wrong
				if !borrow {
					b.Wrong = append([]string(nil), p.wrong...)
				}
			}
			if p.outcome() == Right {
				b.Password = s.rightWord(c, o)
			}
		}
		if end && reveal {
			seen = 1<<Squares - 1
			b.Password = g.Password
		}
		b.Grid = tracking(g, seen)
		v.Boards = append(v.Boards, b)
	}
	v.Moves = make([]Seen, len(s.history)-from)
	// Every letter the viewer's calls revealed, in one array that the
	// moves' Revealed share.
	shown := 0
	for _, pl := range s.history[from:] {
		if pl.kind == kindCall && int(pl.seat) == c {
			shown += bits.OnesCount8(pl.revealed)
		}
	}
	letters := make([]Letter, 0, shown)
	for i, pl := range s.history {
		if i < from {
			if pl.kind == kindCall && int(pl.seat) == c {
				v.Called = append(v.Called, s.notationOf(pl))
			}
			continue
		}
		m := Seen{Seat: int(pl.seat), Move: s.notationOf(pl), Text: s.text(pl)}
		if pl.kind == kindCall && int(pl.seat) == c {
			v.Called = append(v.Called, m.Move)
			if pl.revealed != 0 {
				m.Revealed = letters[len(letters) : len(letters) : len(letters)+bits.OnesCount8(pl.revealed)]
				for o := range s.n {
					if pl.revealed&(1<<o) != 0 {
						m.Revealed = append(m.Revealed, Letter{Seat: o, Name: s.whose(o), Square: m.Move, Letter: string(s.grids[o].Letters[pl.square])})
					}
				}
				letters = letters[:len(letters)+len(m.Revealed)]
			}
		}
		v.Moves[i-from] = m
	}
	return v
}

// rightWord returns the word c announced right against o.
func (s *State) rightWord(c, o int) string {
	for i := len(s.history) - 1; i >= 0; i-- {
		if pl := s.history[i]; int(pl.seat) == c && pl.kind == kindSay && int(pl.target) == o {
			return s.wordOf(pl)
		}
	}
	return ""
}

// tracking writes g's letters on the squares of seen, Unknown elsewhere, as
// five rows.
func tracking(g *Grid, seen uint32) []string {
	var b [Squares]byte
	for i := range b {
		if seen&(1<<i) != 0 {
			b[i] = g.Letters[i]
		} else {
			b[i] = Unknown
		}
	}
	all := string(b[:])
	rows := make([]string, Size)
	for r := range Size {
		rows[r] = all[r*Size : r*Size+Size]
	}
	return rows
}

// String draws the view's boards as text, for logs and tests.
func (v View) String() string {
	var b strings.Builder
	for _, bd := range v.Boards {
		b.WriteString(bd.Name)
		b.WriteString(":\n  01234\n")
		for r, row := range bd.Grid {
			b.WriteByte(byte('5' + r))
			b.WriteByte(' ')
			b.WriteString(row)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
