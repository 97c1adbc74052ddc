package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// shapeScreen draws Sightless Word Fight's board shape for a form that
// sets a table's rules (a new table, a challenge, an event). The rule
// option is text, rows of . (usable) and # (masked) separated by /, as
// wide and high as the board: typed by hand for a 20 by 20 board that is
// 419 characters. Here the board's squares are drawn and a key masks the
// square under the cursor or opens it again; enter writes the drawing
// into the form's field.
type shapeScreen struct {
	*shared
	back   screen     // the form, shown again on enter or esc
	values ruleValues // the form's values: width, height and shape
	bw, bh int        // the board's width and height
	mask   [][]bool   // true where masked
	r, c   int        // the square under the cursor
	unread bool       // the field's text was no shape of this board
}

// shapeKey is the key that opens the drawing from a form's shape field.
const shapeKey = "ctrl+e"

// drawShape opens the drawing of option o, given key s on its field of
// form back whose values are v, reporting whether it did: only for Word
// Fight's shape, a text.
func (sh *shared) drawShape(back screen, v ruleValues, o client.Option, s string) bool {
	if s != shapeKey || !isShape(o) {
		return false
	}
	w, h := toInt(v["width"]), toInt(v["height"])
	if w <= 0 || h <= 0 {
		sh.err = "set the board's width and height to draw its shape"
		return true
	}
	ss := &shapeScreen{shared: sh, back: back, values: v, bw: w, bh: h}
	t, _ := v["shape"].(string)
	ss.mask, ss.unread = readShape(t, w, h)
	sh.err, sh.note = "", ""
	sh.nav.show(ss)
	return true
}

// isShape says whether o is Word Fight's board shape, the option the
// drawing draws.
func isShape(o client.Option) bool { return o.Name == "shape" && o.Kind == "text" }

// shapeKeys is what a form's line of keys adds on the shape's field.
const shapeKeys = shapeKey + " draw it · "

// readShape reads text as the shape of a board of w by h squares, true
// where masked; "" is a board with nothing masked. Text that is not such
// a shape reads as nothing masked, with unread set.
func readShape(text string, w, h int) (mask [][]bool, unread bool) {
	mask = make([][]bool, h)
	for r := range mask {
		mask[r] = make([]bool, w)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return mask, false
	}
	rows := strings.Split(text, "/")
	if len(rows) != h {
		return mask, true
	}
	for r, row := range rows {
		row = strings.TrimSpace(row)
		if len(row) != w || strings.Trim(row, ".#") != "" {
			blank, _ := readShape("", w, h)
			return blank, true
		}
		for c := range w {
			mask[r][c] = row[c] == '#'
		}
	}
	return mask, false
}

// shapeText writes mask as the option takes it: "" for a board with
// nothing masked.
func shapeText(mask [][]bool) string {
	var rows []string
	some := false
	for _, row := range mask {
		var b strings.Builder
		for _, m := range row {
			if m {
				b.WriteByte('#')
				some = true
			} else {
				b.WriteByte('.')
			}
		}
		rows = append(rows, b.String())
	}
	if !some {
		return ""
	}
	return strings.Join(rows, "/")
}

func (ss *shapeScreen) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch k.String() {
	case "esc":
		ss.nav.show(ss.back)
	case "enter":
		ss.values["shape"] = shapeText(ss.mask)
		ss.nav.show(ss.back)
	case "up", "k":
		ss.r = (ss.r + ss.bh - 1) % ss.bh
	case "down", "j":
		ss.r = (ss.r + 1) % ss.bh
	case "left", "h":
		ss.c = (ss.c + ss.bw - 1) % ss.bw
	case "right", "l":
		ss.c = (ss.c + 1) % ss.bw
	case "space", "x", "#", ".":
		ss.mask[ss.r][ss.c] = !ss.mask[ss.r][ss.c]
		ss.unread = false
	case "ctrl+u":
		ss.mask, _ = readShape("", ss.bw, ss.bh)
		ss.unread = false
	}
	return nil
}

func (ss *shapeScreen) view() string {
	var b strings.Builder
	masked := 0
	for _, row := range ss.mask {
		for _, m := range row {
			if m {
				masked++
			}
		}
	}
	fmt.Fprintf(&b, "%s  ·  %d by %d  ·  %s masked\n\n", title("Board shape"), ss.bw, ss.bh, plural(masked, "square", "squares"))
	// The columns as the game's board names them, those after Z (AA-AD)
	// in two header lines, their first letter above.
	if ss.bw > 26 {
		b.WriteString("    ")
		for c := range ss.bw {
			n := column(c)
			b.WriteString(n[:len(n)-1] + strings.Repeat(" ", 3-len(n)))
		}
		b.WriteString("\n")
	}
	b.WriteString("    ")
	for c := range ss.bw {
		n := column(c)
		b.WriteString(n[len(n)-1:] + " ")
	}
	b.WriteString("\n")
	// Under the rows, the square under the cursor, then a line apart,
	// the note on the field's text and the keys.
	var tail strings.Builder
	tail.WriteString("\n")
	if ss.unread {
		tail.WriteString(wrap("The field's text is no shape of this board: the drawing starts with every square usable, and enter writes it in the text's place.", ss.w) + "\n")
	}
	tail.WriteString(faint(wrapKeys("arrows move · space mask or open the square · ctrl+u open every square · enter keep the drawing · esc back without it", ss.w)))
	// The rows shown: those around the cursor that fit the screen.
	room := max(1, ss.h-strings.Count(b.String(), "\n")-2-strings.Count(tail.String(), "\n"))
	first := max(0, min(ss.r-room/2, ss.bh-room))
	last := min(ss.bh, first+room)
	for r := first; r < last; r++ {
		fmt.Fprintf(&b, "%3d ", r+1)
		for c := range ss.bw {
			cell := "·"
			if ss.mask[r][c] {
				cell = "#"
			}
			if r == ss.r && c == ss.c {
				cell = hi(cell)
			}
			b.WriteString(cell + " ")
		}
		b.WriteString("\n")
	}
	where := fmt.Sprintf("%s%d: %s", column(ss.c), ss.r+1, map[bool]string{true: "masked", false: "usable"}[ss.mask[ss.r][ss.c]])
	if first > 0 || last < ss.bh {
		where += fmt.Sprintf(" · rows %d-%d of %d, the arrows scroll", first+1, last, ss.bh)
	}
	b.WriteString(where + "\n" + tail.String())
	return b.String()
}
