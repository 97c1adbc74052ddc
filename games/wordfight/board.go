package wordfight

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"parlour/game"
)

// The limits of a board's size, in squares, for the width and height rule
// options and for shape masks.
const (
	MinSide = 5
	MaxSide = 30
)

// Board is the shape every player's grid shares: its size and which squares
// are unusable. A Board is read-only once made and safe for concurrent use.
type Board struct {
	w, h    int
	blocked []bool // row-major; nil when every square is usable
	longest int    // the longest run of usable squares in a row or column
}

// NewBoard returns a w x h board whose unusable squares are marked '#' in
// shape (see ParseShape); an empty shape leaves every square usable.
func NewBoard(w, h int, shape string) (*Board, error) {
	if w < MinSide || w > MaxSide || h < MinSide || h > MaxSide {
		return nil, fmt.Errorf("a board is %d to %d squares each way, not %d x %d", MinSide, MaxSide, w, h)
	}
	b := &Board{w: w, h: h}
	if strings.TrimSpace(shape) != "" {
		rows, err := ParseShape(shape)
		if err != nil {
			return nil, fmt.Errorf("shape: %w", err)
		}
		if len(rows) != h || len(rows[0]) != w {
			return nil, fmt.Errorf("the shape is %s wide and %d high, but the board is %d x %d: set width %d and height %d",
				game.Count(len(rows[0]), "square", "squares"), len(rows), w, h, len(rows[0]), len(rows))
		}
		b.blocked = make([]bool, w*h)
		for r, row := range rows {
			copy(b.blocked[r*w:], row)
		}
	}
	if b.blocked != nil && !slices.Contains(b.blocked, false) {
		return nil, fmt.Errorf("the shape masks every square: mark the usable squares with '.'")
	}
	b.longest = b.longestRun()
	if b.longest < 2 {
		return nil, fmt.Errorf("the shape leaves no two usable squares side by side: no word fits")
	}
	return b, nil
}

// ParseShape reads a shape mask: rows of '.' (a usable square) and '#' (an
// unusable one), top row first, separated by '/', e.g. "#...#/...../.....".
// Spaces around rows are ignored. Every row must have the same length, and
// there must be MinSide to MaxSide rows and columns. The result holds true
// for each unusable square.
func ParseShape(s string) ([][]bool, error) {
	if len(s) > MaxSide*(MaxSide+1)+64 {
		return nil, fmt.Errorf("too long for a %d x %d board", MaxSide, MaxSide)
	}
	parts := strings.Split(s, "/")
	if len(parts) < MinSide || len(parts) > MaxSide {
		return nil, fmt.Errorf("%s, want %d to %d rows separated by /", game.Count(len(parts), "row", "rows"), MinSide, MaxSide)
	}
	rows := make([][]bool, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if len(p) < MinSide || len(p) > MaxSide {
			return nil, fmt.Errorf("row %d has %s, want %d to %d", i+1, game.Count(len(p), "square", "squares"), MinSide, MaxSide)
		}
		if i > 0 && len(p) != len(rows[0]) {
			return nil, fmt.Errorf("row %d has %s but row 1 has %d", i+1, game.Count(len(p), "square", "squares"), len(rows[0]))
		}
		row := make([]bool, len(p))
		for j := 0; j < len(p); j++ {
			switch p[j] {
			case '.':
			case '#':
				row[j] = true
			default:
				return nil, fmt.Errorf("row %d, square %d is %q: use '.' for a usable square and '#' for an unusable one", i+1, j+1, p[j])
			}
		}
		rows[i] = row
	}
	return rows, nil
}

// checkShape validates the shape rule option on its own: its syntax, and
// that a board of its own size holds a word (some square usable, and two
// usable side by side). Its fit with the width and height is checked with
// the other options, by Game.CheckRules.
func checkShape(v any) error {
	s, _ := v.(string)
	if strings.TrimSpace(s) == "" {
		return nil
	}
	rows, err := ParseShape(s)
	if err != nil {
		return err
	}
	_, err = NewBoard(len(rows[0]), len(rows), s)
	return err
}

// Width reports the number of columns.
func (b *Board) Width() int { return b.w }

// Height reports the number of rows.
func (b *Board) Height() int { return b.h }

// Usable reports whether the square in row r, column c (from 0) is on the
// board and not masked out.
func (b *Board) Usable(r, c int) bool {
	if r < 0 || c < 0 || r >= b.h || c >= b.w {
		return false
	}
	return b.blocked == nil || !b.blocked[r*b.w+c]
}

// Longest reports the length of the longest word the board can hold.
func (b *Board) Longest() int { return b.longest }

// Shape returns the board's mask in ParseShape's syntax.
func (b *Board) Shape() string {
	var sb strings.Builder
	for r := 0; r < b.h; r++ {
		if r > 0 {
			sb.WriteByte('/')
		}
		for c := 0; c < b.w; c++ {
			if b.Usable(r, c) {
				sb.WriteByte('.')
			} else {
				sb.WriteByte('#')
			}
		}
	}
	return sb.String()
}

func (b *Board) longestRun() int {
	best := 0
	for r := 0; r < b.h; r++ {
		n := 0
		for c := 0; c < b.w; c++ {
			if b.Usable(r, c) {
				n++
				best = max(best, n)
			} else {
				n = 0
			}
		}
	}
	for c := 0; c < b.w; c++ {
		n := 0
		for r := 0; r < b.h; r++ {
			if b.Usable(r, c) {
				n++
				best = max(best, n)
			} else {
				n = 0
			}
		}
	}
	return best
}

// Placement says where a word goes: the square of its first letter (row and
// column from 0) and whether it reads down or across.
type Placement struct {
	Row, Col int
	Down     bool
}

// String writes p in move notation: "B2 across", "C10 down".
func (p Placement) String() string {
	d := "across"
	if p.Down {
		d = "down"
	}
	return Square(p.Row, p.Col) + " " + d
}

// Square names the square in row r, column c (from 0): columns A-Z then
// AA-AD, rows from 1, as in "B2".
func Square(r, c int) string {
	return column(c) + strconv.Itoa(r+1)
}

func column(c int) string {
	if c < 26 {
		return string(rune('A' + c))
	}
	return "A" + string(rune('A'+c-26))
}

// ParseSquare reads a square name such as "B2" or "ad30" (case-insensitive)
// and returns its row and column from 0. It does not check that the square
// is on any particular board.
func ParseSquare(s string) (r, c int, err error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && i < 3 && isLetter(s[i]) {
		i++
	}
	if i == 0 || i > 2 || i == len(s) || len(s)-i > 2 {
		return 0, 0, fmt.Errorf("%q is not a square: write a column letter and a row number, such as B2", clipText(s))
	}
	col := int(lower(s[0]) - 'a')
	if i == 2 {
		if lower(s[0]) != 'a' {
			return 0, 0, fmt.Errorf("%q is not a square: columns run A to Z, then AA to AD", clipText(s))
		}
		col = 26 + int(lower(s[1])-'a')
	}
	row := 0
	for _, ch := range []byte(s[i:]) {
		if ch < '0' || ch > '9' {
			return 0, 0, fmt.Errorf("%q is not a square: write a column letter and a row number, such as B2", clipText(s))
		}
		row = row*10 + int(ch-'0')
	}
	if row < 1 {
		return 0, 0, fmt.Errorf("%q is not a square: rows are numbered from 1", clipText(s))
	}
	return row - 1, col, nil
}

// ParsePlacement reads a placement in move notation, "B2 across" or
// "B2 down" (case-insensitive), without checking it against any board.
func ParsePlacement(s string) (Placement, error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return Placement{}, fmt.Errorf("%q is not a placement: write the first letter's square and across or down, such as B2 across", clipText(s))
	}
	r, c, err := ParseSquare(f[0])
	if err != nil {
		return Placement{}, err
	}
	p := Placement{Row: r, Col: c}
	switch strings.ToLower(f[1]) {
	case "across":
	case "down":
		p.Down = true
	default:
		return Placement{}, fmt.Errorf("%q is not a direction: say across or down", clipText(f[1]))
	}
	return p, nil
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// clipText shortens s for an error message.
func clipText(s string) string {
	if len(s) > 24 {
		return s[:24] + "..."
	}
	return s
}
