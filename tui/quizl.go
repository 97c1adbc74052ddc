package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parlour/game"
)

// Quizl's play screen: the tracking grids, your grid, calls and announcements.

type quizlBoard struct {
	Seat     int      `json:"seat"`
	Name     string   `json:"name"`
	Grid     []string `json:"grid"`
	Outcome  string   `json:"outcome"`
	Password string   `json:"password"`
	Points   int      `json:"points"`
	Wrong    []string `json:"wrong"`
}

type quizlView struct {
	Seat      int          `json:"seat"`
	Players   []string     `json:"players"`
	Grid      []string     `json:"grid"`
	Password  string       `json:"password"`
	Called    []string     `json:"called"`
	Boards    []quizlBoard `json:"boards"`
	ToMove    int          `json:"to_move"`
	Done      []bool       `json:"done"`
	Resigned  []bool       `json:"resigned"`
	Scores    []int        `json:"scores"`
	Finished  bool         `json:"finished"`
	Solitaire bool         `json:"solitaire"`
	Moves     []struct {
		Seat int    `json:"seat"`
		Move string `json:"move"`
	} `json:"moves"`
}

// tracking lists the grids this seat hunts.
func (v quizlView) tracking() []quizlBoard {
	var out []quizlBoard
	for _, b := range v.Boards {
		if b.Seat != v.Seat || v.Solitaire {
			out = append(out, b)
		}
	}
	return out
}

// out says why this seat plays no more while the others play on: it
// resigned, or it is done with every grid; "" while it plays (or for a
// spectator, or once the game is over).
func (v quizlView) out() string {
	switch {
	case v.Seat < 0 || v.Finished:
		return ""
	case v.Seat < len(v.Resigned) && v.Resigned[v.Seat]:
		return "you resigned: you are out of the game, and the others play on"
	case v.Seat < len(v.Done) && v.Done[v.Seat]:
		return "you are done with every grid: the others play on"
	}
	return ""
}

func (p *playScreen) quizlKey(s string) tea.Cmd {
	var v quizlView
	json.Unmarshal(p.t.upd.View, &v)
	if p.cursor(s, 5, 5) {
		return nil
	}
	switch s {
	case "tab":
		if n := len(v.tracking()); n > 0 {
			p.board = (p.board + 1) % n
		}
	case "enter", "space":
		if out := v.out(); out != "" {
			p.t.err = out
			return nil
		}
		return p.t.send(fmt.Sprintf("%d%d", p.r+5, p.c))
	}
	return nil
}

// followTarget moves the target mark (▸) on from a grid this seat has
// just finished with, its password announced or tripped over, to the next
// grid still hunted: the next announcement is for one of those, and one
// for the grid finished would only be refused.
func (p *playScreen) followTarget(old, now json.RawMessage) {
	var a, b quizlView
	if json.Unmarshal(old, &a) != nil || json.Unmarshal(now, &b) != nil {
		return
	}
	was, bs := a.tracking(), b.tracking()
	if p.board >= len(bs) || p.board >= len(was) || was[p.board].Seat != bs[p.board].Seat {
		return
	}
	if was[p.board].Outcome != "" || bs[p.board].Outcome == "" {
		return // a grid chosen with tab stays chosen
	}
	for k := 1; k < len(bs); k++ {
		if i := (p.board + k) % len(bs); bs[i].Outcome == "" {
			p.board = i
			return
		}
	}
}

// letterGrid draws a 5 by 5 Quizl grid with its row and column names; the
// cursor (r, c) when r >= 0, called squares as "-".
func letterGrid(rows []string, called map[string]bool, r0, c0 int, pw string) []string {
	out := []string{"     0  1  2  3  4"}
	pwSq := map[[2]int]bool{}
	if pw != "" {
		for l := range 10 {
			var w strings.Builder
			for _, p := range line(l) {
				if p[0] < len(rows) && p[1] < len(rows[p[0]]) {
					w.WriteByte(rows[p[0]][p[1]])
				}
			}
			// Squares the others called are in lower case on one's
			// own grid: the password is still the password.
			if strings.EqualFold(w.String(), pw) {
				for _, p := range line(l) {
					pwSq[p] = true
				}
				break
			}
		}
	}
	for r := range 5 {
		var b strings.Builder
		fmt.Fprintf(&b, "  %d ", r+5)
		for c := range 5 {
			ch := "·"
			if r < len(rows) && c < len(rows[r]) && rows[r][c] != '.' {
				ch = string(rows[r][c])
			} else if called[fmt.Sprintf("%d%d", r+5, c)] {
				ch = "-"
			}
			cell := " " + ch + " "
			if pwSq[[2]int{r, c}] {
				cell = "[" + ch + "]"
			}
			if r == r0 && c == c0 {
				cell = cursorCell(cell)
			}
			b.WriteString(cell)
		}
		out = append(out, b.String())
	}
	return out
}

// quizlChrome is the lines of a Quizl table's screen that are not its
// grids: the table's title line and the footer's message, prompt and keys,
// with a spare line for a message that wraps.
const quizlChrome = 6

func (p *playScreen) quizlView() string {
	var v quizlView
	json.Unmarshal(p.t.upd.View, &v)
	called := map[string]bool{}
	for _, c := range v.Called {
		called[c] = true
	}
	boards := v.tracking()
	out := v.out()
	blocks := make([][]string, len(boards))
	for i, b := range boards {
		name := "Tracking " + b.Name
		if p.t.watching() {
			name = b.Name + "'s grid" // a spectator tracks nobody's
		}
		if v.Solitaire {
			name = "Tracking the computer's grid"
			if p.t.daily() {
				name = "Tracking today's daily grid"
				if p.t.upd != nil && p.t.upd.Table.DayOver {
					name = "Tracking the daily grid"
				}
			}
		}
		r := -1
		if i == p.board && !v.Finished && !p.t.watching() && out == "" {
			r = p.r
			name = "▸ " + name
		}
		note := "still hunting"
		switch b.Outcome {
		case "right":
			note = fmt.Sprintf("found %s: %s", b.Password, game.Count(b.Points, "point", "points"))
		case "tripped":
			note = "tripped over the password: 0 points"
		case "resigned":
			note = "resigned"
		}
		block := []string{title(name)}
		block = append(block, letterGrid(b.Grid, called, r, p.c, b.Password)...)
		block = append(block, faint("  "+note))
		if len(b.Wrong) > 0 {
			// Every wrong word, on as many lines as the column needs:
			// the referee refuses one announced a second time.
			for _, l := range hanging("wrong: "+strings.Join(b.Wrong, ", "), 34) {
				block = append(block, faint("  "+l))
			}
		}
		blocks[i] = append(block, "")
	}
	// Every grid in seat order when they fit; else the chosen one first
	// and the next ones under it while they fit, tab bringing each to
	// the top.
	first, room := 0, p.height()-quizlChrome
	if len(slices.Concat(blocks...)) > room {
		first = max(0, p.board) % max(1, len(blocks))
	}
	var left []string
	shown := 0
	for k := range blocks {
		block := blocks[(first+k)%len(blocks)]
		if k > 0 && len(left)+len(block) > room {
			break
		}
		left = append(left, block...)
		shown++
	}
	if hidden := len(blocks) - shown; hidden > 0 && len(left) > 0 {
		// The blank line after the last grid shown says that more are
		// hunted than show, and how to bring them up.
		left[len(left)-1] = faint("  tab: " + game.Count(hidden, "more grid", "more grids"))
	}
	var right []string
	if len(v.Grid) > 0 {
		right = append(right, title("Your grid")+" password "+v.Password)
		// Squares the others called show in lower case.
		own := slices.Clone(v.Grid)
		for _, mv := range v.Moves {
			if mv.Seat != v.Seat && len(mv.Move) == 2 && isDigits(mv.Move) {
				r, c := int(mv.Move[0]-'5'), int(mv.Move[1]-'0')
				if r >= 0 && r < len(own) && c >= 0 && c < len(own[r]) {
					own[r] = own[r][:c] + strings.ToLower(own[r][c:c+1]) + own[r][c+1:]
				}
			}
		}
		right = append(right, letterGrid(own, nil, -1, -1, v.Password)...)
		right = append(right, faint("  lower case: called by others"))
	}
	var sc []string
	for i, n := range v.Players {
		if i < len(v.Scores) {
			sc = append(sc, fmt.Sprintf("%s %d", n, v.Scores[i]))
		}
	}
	// Every player's score, on as many lines as the column needs.
	right = append(right, "")
	right = append(right, hanging("Scores: "+strings.Join(sc, " · "), max(1, p.t.w-36))...)
	right = append(right, "")
	right = append(right, p.t.logBlock(p.height()-len(right)-8-p.t.msgExtra(), max(1, p.t.w-36)))
	body := side(strings.Join(left, "\n"), 36, strings.Join(right, "\n"), p.t.w-36)
	if out != "" {
		// No move is this seat's any more: no line to type one on.
		return body + "\n" + p.footer("", out+" · esc home · ? help")
	}
	return body + "\n" + p.footer("Call (digits) or announce (letters):",
		"arrows pick a square · enter call it · type 72 or a word then enter · :resign · esc home · ? help")
}

// quizlPlays says whether this seat still plays at the Quizl table on
// show: not once it resigned or is done with every grid.
func (p *playScreen) quizlPlays() bool {
	var v quizlView
	json.Unmarshal(p.t.upd.View, &v)
	return v.out() == ""
}
