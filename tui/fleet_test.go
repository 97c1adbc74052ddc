package tui

import (
	"slices"
	"strings"
	"testing"
)

// FuzzParseShip: a ship read from the server is written back the same.
func FuzzParseShip(f *testing.F) {
	for _, s := range []string{"B2-B6", "D2-G2", "J10-J9", "A1-A1", "Z99-Z0", "-", "B2-C3", "E1-A5", "C4-A2", "A5-E1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, ok := parseShip(s)
		if !ok {
			return
		}
		back, ok := parseShip(sh.String())
		if !ok || back != sh {
			t.Errorf("%q read as %+v, written %q, read back %+v", s, sh, sh.String(), back)
		}
	})
}

// TestParseSquare: a square is a letter and a row from 1; anything else,
// from a view or a player, is refused rather than read as a square before
// the grid.
func TestParseSquare(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in       string
		col, row int
		ok       bool
	}{
		{"A1", 0, 0, true},
		{"b7", 1, 6, true},
		{" J10 ", 9, 9, true},
		{"C010", 2, 9, true},
		{"A0", 0, 0, false},
		{"A-1", 0, 0, false},
		{"A+3", 0, 0, false},
		{"A 3", 0, 0, false},
		{"A", 0, 0, false},
		{"", 0, 0, false},
		{"11", 0, 0, false},
		{"É1", 0, 0, false},
		{"A99999999999999999999", 0, 0, false},
	} {
		col, row, ok := parseSquare(c.in)
		if ok != c.ok || ok && (col != c.col || row != c.row) {
			t.Errorf("parseSquare(%q) = %d, %d, %v; want %d, %d, %v", c.in, col, row, ok, c.col, c.row, c.ok)
		}
	}
}

// TestParseShipRefuses: a ship whose ends are not both squares, or do
// not lie on one row, column or diagonal, is not read.
func TestParseShipRefuses(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"A0-A-1", "A1-A0", "A-1-A2", "B2-C4", "A1-J2", "B2", "B2-", "-B2", "B2-B6-B7"} {
		if sh, ok := parseShip(s); ok {
			t.Errorf("parseShip(%q) = %+v, want it refused", s, sh)
		}
	}
}

// TestParseShip: a ship is read from either end, across, down or along
// either diagonal, and written back as the referee writes it, top end
// (or left end) first, with the squares it covers.
func TestParseShip(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, out string
		want    ship
		squares []string
	}{
		{"B2-B4", "B2-B4", ship{col: 1, row: 1, n: 3, dir: down}, []string{"B2", "B3", "B4"}},
		{"D2-B2", "B2-D2", ship{col: 1, row: 1, n: 3, dir: across}, []string{"B2", "C2", "D2"}},
		{"B2-D4", "B2-D4", ship{col: 1, row: 1, n: 3, dir: downRight}, []string{"B2", "C3", "D4"}},
		{"d4-b2", "B2-D4", ship{col: 1, row: 1, n: 3, dir: downRight}, []string{"B2", "C3", "D4"}},
		{"E1-A5", "E1-A5", ship{col: 4, row: 0, n: 5, dir: downLeft}, []string{"E1", "D2", "C3", "B4", "A5"}},
		{"A5-E1", "E1-A5", ship{col: 4, row: 0, n: 5, dir: downLeft}, []string{"E1", "D2", "C3", "B4", "A5"}},
		{"J9-I10", "J9-I10", ship{col: 9, row: 8, n: 2, dir: downLeft}, []string{"J9", "I10"}},
	} {
		sh, ok := parseShip(c.in)
		if !ok || sh != c.want {
			t.Errorf("parseShip(%q) = %+v, %v; want %+v", c.in, sh, ok, c.want)
			continue
		}
		if sh.String() != c.out {
			t.Errorf("%q is written %q, want %q", c.in, sh.String(), c.out)
		}
		var got []string
		for r := range 10 {
			for col := range 10 {
				if sh.covers(col, r) {
					got = append(got, sqName(col, r))
				}
			}
		}
		slices.SortFunc(got, func(a, b string) int { return cmpSquare(a) - cmpSquare(b) })
		want := slices.Clone(c.squares)
		slices.SortFunc(want, func(a, b string) int { return cmpSquare(a) - cmpSquare(b) })
		if !slices.Equal(got, want) {
			t.Errorf("%q covers %v, want %v", c.in, got, want)
		}
	}
}

// cmpSquare orders squares in reading order.
func cmpSquare(q string) int {
	c, r, _ := parseSquare(q)
	return r*10 + c
}

// TestShipTurns: space turns a ship across, down and, only where the
// table allows diagonal ships, along the two diagonals, from its first
// square, pulled back onto the ocean where the turn would take it off;
// the arrows move it and stop at the ocean's edges, diagonals too.
func TestShipTurns(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		from     string
		diagonal bool
		keys     string
		want     []string // the ship after each key
	}{
		{"straight only", "B2-B4", false, "space space space", []string{"B2-D2", "B2-B4", "B2-D2"}},
		{"diagonals", "B2-B4", true, "space space space space", []string{"B2-D4", "C2-A4", "C2-E2", "C2-C4"}},
		{"a diagonal at a table without", "B2-D4", false, "space space", []string{"B2-B4", "B2-D2"}},
		{"at the bottom", "A8-A10", true, "space space space", []string{"A8-C10", "C8-A10", "C8-E8"}},
		{"at the right", "J1-J5", true, "space space", []string{"F1-J5", "F1-B5"}},
		{"moved", "E1-A5", true, "left up right down down", []string{"E1-A5", "E1-A5", "F1-B5", "F2-B6", "F3-B7"}},
		{"moved to the corner", "H8-J10", true, "right down left", []string{"H8-J10", "H8-J10", "G8-I10"}},
	} {
		sh, ok := parseShip(c.from)
		if !ok {
			t.Fatalf("%s: %q not read", c.name, c.from)
		}
		for i, k := range strings.Fields(c.keys) {
			if !sh.move(k, c.diagonal) {
				t.Fatalf("%s: %s not taken", c.name, k)
			}
			if sh.String() != c.want[i] {
				t.Errorf("%s: key %d (%s) leaves %s, want %s", c.name, i+1, k, sh, c.want[i])
				break
			}
		}
	}
}
