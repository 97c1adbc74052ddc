package salvo

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Size is the width and height of an ocean: columns A-J, rows 1-10.
const Size = 10

// Squares is the number of squares in an ocean.
const Squares = Size * Size

// Square is one square of an ocean, numbered row by row from 0 (A1) to 99
// (J10): Square(10*row + column), both counted from 0.
type Square int8

// NoSquare stands for no square at all.
const NoSquare Square = -1

// At returns the square in row r and column c, both counted from 0.
func At(r, c int) Square { return Square(r*Size + c) }

// Row returns the square's row, counted from 0 (row 1 is 0).
func (s Square) Row() int { return int(s) / Size }

// Col returns the square's column, counted from 0 (column A is 0).
func (s Square) Col() int { return int(s) % Size }

// Valid reports whether s is a square of the ocean.
func (s Square) Valid() bool { return s >= 0 && s < Squares }

// OnEdge reports whether s lies on an outside row or column of the ocean.
func (s Square) OnEdge() bool {
	r, c := s.Row(), s.Col()
	return r == 0 || r == Size-1 || c == 0 || c == Size-1
}

// squareNames holds every square's name, three bytes each, padded with a
// space, so that String can slice it without allocating.
const squareNames = "" +
	"A1 B1 C1 D1 E1 F1 G1 H1 I1 J1 " +
	"A2 B2 C2 D2 E2 F2 G2 H2 I2 J2 " +
	"A3 B3 C3 D3 E3 F3 G3 H3 I3 J3 " +
	"A4 B4 C4 D4 E4 F4 G4 H4 I4 J4 " +
	"A5 B5 C5 D5 E5 F5 G5 H5 I5 J5 " +
	"A6 B6 C6 D6 E6 F6 G6 H6 I6 J6 " +
	"A7 B7 C7 D7 E7 F7 G7 H7 I7 J7 " +
	"A8 B8 C8 D8 E8 F8 G8 H8 I8 J8 " +
	"A9 B9 C9 D9 E9 F9 G9 H9 I9 J9 " +
	"A10B10C10D10E10F10G10H10I10J10"

// String returns the square's name, such as "B3" or "J10".
func (s Square) String() string {
	if !s.Valid() {
		return "none"
	}
	n := squareNames[3*int(s) : 3*int(s)+3]
	if n[2] == ' ' {
		return n[:2]
	}
	return n
}

// MarshalText writes the square's name.
func (s Square) MarshalText() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("square %d is off the ocean", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a square's name, as ParseSquare does.
func (s *Square) UnmarshalText(b []byte) error {
	q, err := ParseSquare(string(b))
	if err != nil {
		return err
	}
	*s = q
	return nil
}

// ParseSquare reads a square written as a column letter and a row number,
// "B3", "b3" or "B-3".
func ParseSquare(text string) (Square, error) {
	s, rest, err := parseSquarePrefix(text)
	if err != nil {
		return NoSquare, err
	}
	if rest != "" {
		return NoSquare, fmt.Errorf("%q is not a square: write a column A-J and a row 1-10, such as B3", clipText(text))
	}
	return s, nil
}

// parseSquarePrefix reads a square from the start of text and returns the
// rest: a column letter, an optional '-', and one or two digits.
func parseSquarePrefix(text string) (Square, string, error) {
	bad := func() error {
		return fmt.Errorf("%q is not a square: write a column A-J and a row 1-10, such as B3", clipText(text))
	}
	if text == "" {
		return NoSquare, "", errors.New("a square is missing: write a column A-J and a row 1-10, such as B3")
	}
	ch := text[0] | 0x20 // lower case for letters
	if ch < 'a' || ch > 'z' {
		return NoSquare, "", bad()
	}
	i := 1
	if i < len(text) && text[i] == '-' && i+1 < len(text) && isDigit(text[i+1]) {
		i++
	}
	j := i
	for j < len(text) && isDigit(text[j]) {
		j++
	}
	if j == i || j-i > 2 {
		return NoSquare, "", bad()
	}
	row := 0
	for _, d := range text[i:j] {
		row = 10*row + int(d-'0')
	}
	name := string(ch-0x20) + text[i:j]
	if ch > 'j' {
		return NoSquare, "", fmt.Errorf("%s is off the ocean: the columns are A-J", name)
	}
	if row < 1 || row > Size {
		return NoSquare, "", fmt.Errorf("%s is off the ocean: the rows are 1-10", name)
	}
	return At(row-1, int(ch-'a')), text[j:], nil
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// clipText shortens text quoted back in an error message.
func clipText(s string) string {
	if len(s) > 24 {
		return s[:24] + "..."
	}
	return s
}

// Board is a set of squares of one ocean.
type Board struct{ lo, hi uint64 }

// BoardOf returns the board holding squares.
func BoardOf(squares ...Square) Board {
	var b Board
	for _, s := range squares {
		b = b.With(s)
	}
	return b
}

// Has reports whether s is on b.
func (b Board) Has(s Square) bool {
	if s < 64 {
		return b.lo&(1<<uint(s)) != 0
	}
	return b.hi&(1<<uint(s-64)) != 0
}

// With returns b with s added.
func (b Board) With(s Square) Board {
	if s < 64 {
		b.lo |= 1 << uint(s)
	} else {
		b.hi |= 1 << uint(s-64)
	}
	return b
}

// Without returns b with s taken away.
func (b Board) Without(s Square) Board {
	if s < 64 {
		b.lo &^= 1 << uint(s)
	} else {
		b.hi &^= 1 << uint(s-64)
	}
	return b
}

// Bits returns b as two words, bit i of the first for square i and bit i
// of the second for square 64+i: a compact key for maps and hashes.
func (b Board) Bits() [2]uint64 { return [2]uint64{b.lo, b.hi} }

// Count reports how many squares b holds.
func (b Board) Count() int { return bits.OnesCount64(b.lo) + bits.OnesCount64(b.hi) }

// Empty reports whether b holds no square.
func (b Board) Empty() bool { return b.lo == 0 && b.hi == 0 }

// And returns the squares on both b and c.
func (b Board) And(c Board) Board { return Board{b.lo & c.lo, b.hi & c.hi} }

// Or returns the squares on b or c.
func (b Board) Or(c Board) Board { return Board{b.lo | c.lo, b.hi | c.hi} }

// AndNot returns the squares on b but not on c.
func (b Board) AndNot(c Board) Board { return Board{b.lo &^ c.lo, b.hi &^ c.hi} }

// Intersects reports whether b and c share a square.
func (b Board) Intersects(c Board) bool { return b.lo&c.lo != 0 || b.hi&c.hi != 0 }

// Squares lists b's squares in order.
func (b Board) Squares() []Square {
	out := make([]Square, 0, b.Count())
	for w, x := range [2]uint64{b.lo, b.hi} {
		for x != 0 {
			i := bits.TrailingZeros64(x)
			out = append(out, Square(64*w+i))
			x &= x - 1
		}
	}
	return out
}

// First returns b's first square, or NoSquare when b is empty.
func (b Board) First() Square {
	if b.lo != 0 {
		return Square(bits.TrailingZeros64(b.lo))
	}
	if b.hi != 0 {
		return Square(64 + bits.TrailingZeros64(b.hi))
	}
	return NoSquare
}

// String lists b's squares, "A1 B3".
func (b Board) String() string {
	var sb strings.Builder
	for i, s := range b.Squares() {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(s.String())
	}
	return sb.String()
}

// Neighbours returns the squares that touch a square of b without being on
// b: those sharing a side with it, and with corners also those sharing only
// a corner.
func (b Board) Neighbours(corners bool) Board {
	var n Board
	for w, x := range [2]uint64{b.lo, b.hi} {
		for ; x != 0; x &= x - 1 {
			n = n.around(Square(64*w+bits.TrailingZeros64(x)), corners)
		}
	}
	return n.AndNot(b)
}

// around returns b with the squares touching s added.
func (n Board) around(s Square, corners bool) Board {
	{
		r, c := s.Row(), s.Col()
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				if (dr == 0) == (dc == 0) && !(corners && dr != 0) {
					continue
				}
				rr, cc := r+dr, c+dc
				if rr < 0 || rr >= Size || cc < 0 || cc >= Size {
					continue
				}
				n = n.With(At(rr, cc))
			}
		}
	}
	return n
}
