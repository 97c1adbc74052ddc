package tui

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Salvo's fleet editor: the ships of a random legal fleet, moved and
// turned by keys; the referee checks each change.

// The directions a ship may lie in from its first square, the one a
// fleet's notation writes first (the top end, or the left end of a ship
// across): the order space turns a ship through. The diagonals come last,
// so that a table without diagonal ships turns through the first two.
const (
	across    = iota // left to right
	down             // top to bottom
	downRight        // diagonally, right as it goes down
	downLeft         // diagonally, left as it goes down
)

// shipDirs are the steps from one square of a ship to the next (column,
// row), by direction.
var shipDirs = [...]struct{ dc, dr int }{
	across:    {1, 0},
	down:      {0, 1},
	downRight: {1, 1},
	downLeft:  {-1, 1},
}

// ship is one ship of the fleet being placed: its first square (column
// 0-9 for A-J, row 0-9 for 1-10), its length and its direction (across,
// down, downRight or downLeft).
type ship struct {
	col, row, n int
	dir         int
}

// end is the ship's last square.
func (s ship) end() (col, row int) {
	d := shipDirs[s.dir]
	return s.col + (s.n-1)*d.dc, s.row + (s.n-1)*d.dr
}

// String writes the ship as the referee does, first square first:
// "B2-B6", "E1-A5".
func (s ship) String() string {
	ec, er := s.end()
	return fmt.Sprintf("%c%d-%c%d", 'A'+s.col, s.row+1, 'A'+ec, er+1)
}

// move moves the ship by one square for an arrow key or turns it for
// space, keeping it on the ocean (whether it may lie there is the
// referee's to say), and reports whether key was one of those. Space
// turns it across, then down, then, when diagonal (the table allows
// diagonal ships), along the two diagonals; a table without them never
// has a ship turned onto one.
func (s *ship) move(key string, diagonal bool) bool {
	switch key {
	case "up":
		s.row--
	case "down":
		s.row++
	case "left":
		s.col--
	case "right":
		s.col++
	case "space":
		turns := 2
		if diagonal {
			turns = len(shipDirs)
		}
		s.dir = (s.dir + 1) % turns
	default:
		return false
	}
	// Along the ship a direction's step of -1, 0 or 1 leaves room of
	// n-1 squares before the first square, none, or after it.
	d, far := shipDirs[s.dir], s.n-1
	s.col = max(max(0, -d.dc*far), min(s.col, 9-max(0, d.dc*far)))
	s.row = max(0, min(s.row, 9-d.dr*far))
	return true
}

// covers says whether the ship lies on a square.
func (s ship) covers(col, row int) bool {
	d := shipDirs[s.dir]
	for i := range s.n {
		if s.col+i*d.dc == col && s.row+i*d.dr == row {
			return true
		}
	}
	return false
}

// diagonalShips says whether a table's rules let ships lie diagonally
// (Salvo's diagonal_ships, off unless set).
func diagonalShips(rules json.RawMessage) bool {
	var r struct {
		Diagonal bool `json:"diagonal_ships"`
	}
	json.Unmarshal(rules, &r)
	return r.Diagonal
}

// parseSquare reads "B7" as column 1, row 6. The row is one or more
// digits naming a row from 1, so no square it returns lies before the
// grid: callers index their grids with it after checking only its far
// edges, and a view from the network must not be able to make them panic.
func parseSquare(sq string) (col, row int, ok bool) {
	sq = strings.ToUpper(strings.TrimSpace(sq))
	if len(sq) < 2 || sq[0] < 'A' || sq[0] > 'Z' {
		return 0, 0, false
	}
	if strings.TrimLeft(sq[1:], "0123456789") != "" {
		return 0, 0, false
	}
	n, err := strconv.Atoi(sq[1:])
	if err != nil || n < 1 {
		return 0, 0, false
	}
	return int(sq[0] - 'A'), n - 1, true
}

// parseShip reads a ship as the referee writes it, by its two end
// squares in either order: "B2-B6" across or down, "B2-D4" or "E1-A5"
// along a diagonal. Ends that lie on no straight line come back not ok.
func parseShip(s string) (ship, bool) {
	a, b, found := strings.Cut(s, "-")
	if !found {
		return ship{}, false
	}
	c1, r1, ok1 := parseSquare(a)
	c2, r2, ok2 := parseSquare(b)
	if !ok1 || !ok2 {
		return ship{}, false
	}
	// From the top end (the left one of a ship across).
	if r2 < r1 || r2 == r1 && c2 < c1 {
		c1, r1, c2, r2 = c2, r2, c1, r1
	}
	dc, dr := c2-c1, r2-r1
	switch {
	case dr == 0:
		return ship{col: c1, row: r1, n: dc + 1, dir: across}, true
	case dc == 0:
		return ship{col: c1, row: r1, n: dr + 1, dir: down}, true
	case dc == dr:
		return ship{col: c1, row: r1, n: dr + 1, dir: downRight}, true
	case dc == -dr:
		return ship{col: c1, row: r1, n: dr + 1, dir: downLeft}, true
	}
	return ship{}, false
}

func (st *setupScreen) fleetKey(s string) tea.Cmd {
	if len(st.fleet) == 0 {
		if s == "r" {
			return st.t.helper("random", "/api/v1/tools/random-setup", st.setupBody())
		}
		return nil
	}
	sh := &st.fleet[st.sel]
	switch s {
	case "tab":
		st.sel = (st.sel + 1) % len(st.fleet)
		return nil
	case "shift+tab":
		st.sel = (st.sel + len(st.fleet) - 1) % len(st.fleet)
		return nil
	case "r":
		return st.t.helper("random", "/api/v1/tools/random-setup", st.setupBody())
	}
	if !sh.move(s, diagonalShips(st.t.upd.Table.Rules)) {
		return nil
	}
	return st.check()
}

func (st *setupScreen) fleetOcean() string {
	var b strings.Builder
	b.WriteString("     A  B  C  D  E  F  G  H  I  J\n")
	for r := range 10 {
		fmt.Fprintf(&b, " %2d ", r+1)
		for c := range 10 {
			cell := " · "
			for _, s := range st.fleet {
				if s.covers(c, r) {
					cell = " " + strconv.Itoa(s.n) + " "
				}
			}
			// The ship being moved lies on top of any it overlaps, so
			// that it shows whole wherever it is moved or turned.
			if st.sel < len(st.fleet) && st.fleet[st.sel].covers(c, r) {
				cell = hi("[" + strconv.Itoa(st.fleet[st.sel].n) + "]")
			}
			b.WriteString(cell)
		}
		b.WriteString("\n")
	}
	var ships []string
	for i, s := range st.fleet {
		t := s.String()
		if i == st.sel {
			t = "[" + t + "]"
		}
		ships = append(ships, t)
	}
	b.WriteString(" " + strings.Join(ships, " ") + "\n")
	return b.String()
}
