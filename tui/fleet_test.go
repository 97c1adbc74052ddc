package tui

import (
	"testing"
)

// FuzzParseShip: a ship read from the server is written back the same.
func FuzzParseShip(f *testing.F) {
	for _, s := range []string{"B2-B6", "D2-G2", "J10-J9", "A1-A1", "Z99-Z0", "-", "B2-C3"} {
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

// TestParseShipRefuses: a ship whose ends are not both squares, or that
// runs diagonally, is not read.
func TestParseShipRefuses(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"A0-A-1", "A1-A0", "A-1-A2", "B2-C3", "B2", "B2-", "-B2", "B2-B6-B7"} {
		if sh, ok := parseShip(s); ok {
			t.Errorf("parseShip(%q) = %+v, want it refused", s, sh)
		}
	}
}
