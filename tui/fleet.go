package tui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Salvo's fleet editor: the ships of a random legal fleet, moved and
// turned by keys; the referee checks each change.

// ship is one ship of the fleet being placed: its first square (column
// 0-9 for A-J, row 0-9 for 1-10), its length and its direction.
type ship struct {
	col, row, n int
	down        bool
}

func (s ship) String() string {
	ec, er := s.col, s.row
	if s.down {
		er += s.n - 1
	} else {
		ec += s.n - 1
	}
	return fmt.Sprintf("%c%d-%c%d", 'A'+s.col, s.row+1, 'A'+ec, er+1)
}

// move moves the ship by one square for an arrow key or turns it for
// space, keeping it on the ocean (whether it may lie there is the
// referee's to say), and reports whether key was one of those.
func (s *ship) move(key string) bool {
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
		s.down = !s.down
	default:
		return false
	}
	w, h := s.n, 1
	if s.down {
		w, h = 1, s.n
	}
	s.col = max(0, min(s.col, 10-w))
	s.row = max(0, min(s.row, 10-h))
	return true
}

// covers says whether the ship lies on a square.
func (s ship) covers(col, row int) bool {
	for i := 0; i < s.n; i++ {
		c, r := s.col, s.row
		if s.down {
			r += i
		} else {
			c += i
		}
		if c == col && r == row {
			return true
		}
	}
	return false
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

// parseShip reads "B2-B6"; a diagonal ship comes back not ok.
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
	switch {
	case r1 == r2:
		return ship{col: min(c1, c2), row: r1, n: abs(c2-c1) + 1}, true
	case c1 == c2:
		return ship{col: c1, row: min(r1, r2), n: abs(r2-r1) + 1, down: true}, true
	}
	return ship{}, false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
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
	if !sh.move(s) {
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
			for i, s := range st.fleet {
				if s.covers(c, r) {
					cell = " " + strconv.Itoa(s.n) + " "
					if i == st.sel {
						cell = hi("[" + strconv.Itoa(s.n) + "]")
					}
				}
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
