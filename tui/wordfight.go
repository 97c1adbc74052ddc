package tui

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

type wordfightView struct {
	Seat     int             `json:"seat"`
	Players  []string        `json:"players"`
	Rules    json.RawMessage `json:"rules"`
	Status   string          `json:"status"`
	ToMove   []int           `json:"to_move"`
	Declarer int             `json:"declarer"`
	Current  string          `json:"current"`
	Answered []bool          `json:"answered"`
	List     []struct {
		Word   string    `json:"word"`
		Length int       `json:"length"`
		By     int       `json:"by"`
		Done   bool      `json:"done"`
		Cannot []int     `json:"cannot"`
		Mine   *wfAnswer `json:"mine"`
	} `json:"list"`
	Strikes     int        `json:"strikes"`
	StrikeLimit int        `json:"strike_limit"`
	Grid        []string   `json:"grid"`
	Score       int        `json:"score"`
	Scores      []int      `json:"scores"`
	Grids       [][]string `json:"grids"`
	Audit       []struct {
		Seat      int  `json:"seat"`
		Points    int  `json:"points"`
		Recorded  int  `json:"recorded"`
		Confirmed bool `json:"confirmed"`
		Missed    int  `json:"missed"`
	} `json:"audit"`
}

// wfAnswer is a seat's answer to a word of the list: "place B2 across"
// or "cannot", and the points it won.
type wfAnswer struct {
	Move   string `json:"move"`
	Points int    `json:"points"`
}

func (t *tableScreen) wfView() wordfightView {
	var v wordfightView
	json.Unmarshal(t.upd.View, &v)
	return v
}

// declaring says whether this seat is to declare the next word.
func (p *playScreen) declaring() bool {
	if p.t.upd == nil {
		return false
	}
	v := p.t.wfView()
	return v.Current == "" && v.Declarer == p.t.seat && p.t.myTurn()
}

// column names a column as the notation does: A-Z, then AA-AD.
func column(c int) string {
	if c < 26 {
		return string(rune('A' + c))
	}
	return "A" + string(rune('A'+c-26))
}

// placement is the placement under the cursor in the notation: "B2 down".
func (p *playScreen) placement() string {
	dir := "across"
	if p.down {
		dir = "down"
	}
	return fmt.Sprintf("%s%d %s", column(p.c), p.r+1, dir)
}

// askPreview asks the referee what placing the current word under the
// cursor would do.
func (p *playScreen) askPreview() tea.Cmd {
	v := p.t.wfView()
	if v.Current == "" || !p.t.myTurn() {
		p.preview = ""
		return nil
	}
	p.pseq++
	body := map[string]any{"rules": v.Rules, "grid": v.Grid, "word": v.Current, "placement": p.placement()}
	if lx := p.t.upd.Table.Lexicon; lx != "" {
		body["lexicon"] = lx
	}
	return p.t.helper("preview:"+strconv.Itoa(p.pseq), "/api/v1/tools/preview", body)
}

func (p *playScreen) onPreview(msg helperMsg) tea.Cmd {
	if msg.kind != "preview:"+strconv.Itoa(p.pseq) {
		return nil // about a placement the cursor has left
	}
	p.pdone = p.pseq
	if msg.err != nil {
		p.preview = msg.err.Error()
		return nil
	}
	var a struct {
		Legal   bool   `json:"legal"`
		Reused  int    `json:"reused"`
		Points  int    `json:"points"`
		Problem string `json:"problem"`
	}
	json.Unmarshal(msg.raw, &a)
	if a.Legal {
		p.preview = good(fmt.Sprintf("✓ %s: reuses %d, scores %d", p.placement(), a.Reused, a.Points))
	} else {
		p.preview = warm("✗ " + a.Problem)
	}
	return nil
}

func (p *playScreen) wordfightKey(s string) tea.Cmd {
	v := p.t.wfView()
	h := len(v.Grid)
	w := 0
	if h > 0 {
		w = len(v.Grid[0])
	}
	if w > 0 && p.cursor(s, w, h) {
		return p.askPreview()
	}
	switch s {
	case "space", "tab":
		p.down = !p.down
		return p.askPreview()
	case "c":
		return p.cannot(v)
	case "enter":
		if v.Current == "" {
			p.t.err = "no word to place yet: " + p.t.turnLine()
			return nil
		}
		return p.t.send("place " + p.placement())
	}
	return nil
}

// cannot says the word to place cannot be placed, on a second c: the
// answer may cost a strike and cannot be taken back, and c is one slip
// away from the arrows, so the first press only says what a second does.
func (p *playScreen) cannot(v wordfightView) tea.Cmd {
	t := p.t
	if v.Current == "" || !t.myTurn() {
		t.cannotAsked = false
		return t.send("cannot") // refused in place, in the usual words
	}
	if !t.cannotAsked {
		t.cannotAsked = true
		t.err, t.note = "", fmt.Sprintf("c again says you cannot place %s, which may cost a strike (%d of %d so far); any other key takes it back",
			strings.ToUpper(v.Current), v.Strikes, v.StrikeLimit)
		return nil
	}
	t.cannotAsked = false
	return t.send("cannot")
}

func (p *playScreen) wordfightView() string {
	v := p.t.wfView()
	cur := strings.ToUpper(v.Current)
	// The preview's letters, drawn where the word would go.
	ghost := map[[2]int]byte{}
	if cur != "" && p.t.myTurn() {
		for i := 0; i < len(cur); i++ {
			r, c := p.r, p.c+i
			if p.down {
				r, c = p.r+i, p.c
			}
			ghost[[2]int{r, c}] = cur[i]
		}
	}
	h := len(v.Grid)
	w := 0
	if h > 0 {
		w = len(v.Grid[0])
	}
	// A board wider than the room beside the list scrolls with the
	// cursor, as a taller one does.
	cols := (p.t.w - 34 - 6) / 2
	left := 0
	if w > cols {
		left = max(0, min(p.c-cols/2, w-cols))
	}
	right := min(w, left+cols)
	// A column has two cells, a letter and a space: the names after Z
	// (AA-AD) stand in two header lines, their first letter above.
	var g strings.Builder
	if right > 26 {
		g.WriteString("    ")
		for c := left; c < right; c++ {
			g.WriteString(column(c)[:len(column(c))-1] + " ")
			if c < 26 {
				g.WriteString(" ")
			}
		}
		g.WriteString("\n")
	}
	g.WriteString("    ")
	for c := left; c < right; c++ {
		n := column(c)
		g.WriteString(n[len(n)-1:] + " ")
	}
	g.WriteString("\n")
	room := p.height() - 6 - p.t.msgExtra() - strings.Count(g.String(), "\n") + 1
	top := 0
	if h > room {
		top = max(0, min(p.r-room/2, h-room))
	}
	for r := top; r < min(h, top+room); r++ {
		fmt.Fprintf(&g, "%3d ", r+1)
		for c := left; c < right; c++ {
			sq := byte(' ') // past the end of a row shorter than the first: none the server sends
			if c < len(v.Grid[r]) {
				sq = v.Grid[r][c]
			}
			ch := string(sq)
			if ch == "." {
				ch = "·"
			}
			if gc, ok := ghost[[2]int{r, c}]; ok {
				if sq == '.' {
					ch = warm(strings.ToLower(string(gc)))
				} else {
					ch = warm(ch)
				}
			}
			if r == p.r && c == p.c && p.t.myTurn() {
				ch = hi(ch)
			}
			g.WriteString(ch + " ")
		}
		g.WriteString("\n")
	}
	var info []string
	if p.t.watching() {
		// A spectator has no grid nor score: the grids show at the end.
		info = append(info, fmt.Sprintf("Strikes %d of %d", v.Strikes, v.StrikeLimit), faint("spectators see the grids at the end"))
	} else {
		info = append(info, fmt.Sprintf("Your score %d · strikes %d of %d", v.Score, v.Strikes, v.StrikeLimit))
	}
	// A board taller or wider than the screen shows part of itself, and
	// a declarer choosing a word for the whole grid must know it.
	var shown []string
	if h > room {
		shown = append(shown, fmt.Sprintf("rows %d-%d of %d", top+1, min(h, top+room), h))
	}
	if w > cols {
		shown = append(shown, fmt.Sprintf("columns %s-%s of %d", column(left), column(right-1), w))
	}
	if len(shown) > 0 {
		info = append(info, faint(wrapKeys(strings.Join(append(shown, "arrows scroll"), " · "), max(20, p.t.w-(4+2*(right-left)+2)))))
	}
	// Whom the table waits for wraps beside the board rather than being
	// cut: names are long, and several may be waited for.
	gw := 4 + 2*(right-left) + 2
	switch {
	case cur != "" && p.t.myTurn():
		info = append(info, "Place "+title(cur)+" at "+p.placement(), wrap(p.preview, 34))
	case cur != "":
		info = append(info, wrap("Waiting for "+p.others()+" to answer "+cur, max(20, p.t.w-gw)))
	case p.declaring():
		info = append(info, "Your turn to declare a word")
	case p.t.upd != nil && p.t.upd.Table.Status == "playing" && v.Declarer >= 0:
		info = append(info, wrap("Waiting for "+p.t.name(v.Declarer)+" to declare a word", max(20, p.t.w-gw)))
	}
	info = append(info, "", title("The list"))
	start := max(0, len(v.List)-8)
	// The words and this seat's answers stand in columns as wide as the
	// longest shown: the column beside a wide board is narrow.
	wordW, ansW := 0, 0
	for _, e := range v.List[start:] {
		wordW = max(wordW, len(e.Word))
		ansW = max(ansW, utf8.RuneCountInString(yourAnswer(e.Mine)))
	}
	struck := false
	for i, e := range v.List[start:] {
		by := ""
		if e.By >= 0 && e.By < len(v.Players) {
			by = v.Players[e.By]
		}
		// ▸ the word being answered, ✗ one somebody could not place.
		// A struck word names who could not place it, as the browser's
		// list does: the strikes are theirs, and the list is the only
		// place a player learns how the others fare.
		mark, who, cannot := " ", "", ""
		switch {
		case !e.Done:
			mark = "▸"
		case len(e.Cannot) > 0:
			mark, struck = bad("✗"), true
			var ns []string
			for _, s := range e.Cannot {
				ns = append(ns, p.t.name(s))
			}
			cannot = "✗ " + strings.Join(ns, ", ")
			who = " " + bad(cannot)
		}
		ans := yourAnswer(e.Mine)
		if ansW > 0 {
			ans += strings.Repeat(" ", ansW-utf8.RuneCountInString(ans)+1)
		}
		entry := fmt.Sprintf("%s%2d %-*s %s%s%s", mark, start+i+1, wordW, e.Word, ans, faint(by), who)
		if lipgloss.Width(entry) > p.t.w-gw {
			// Too wide for the column beside the board: the declarer
			// and who could not place it go under the word, wrapped,
			// rather than cut.
			entry = fmt.Sprintf("%s%2d %-*s %s", mark, start+i+1, wordW, e.Word, strings.TrimRight(ans, " "))
			room := max(10, p.t.w-gw-4)
			if by != "" {
				entry += "\n    " + faint(fitLine(by, room))
			}
			if cannot != "" {
				for _, l := range strings.Split(wrap(cannot, room), "\n") {
					entry += "\n    " + bad(l)
				}
			}
		}
		info = append(info, entry)
	}
	if struck {
		info = append(info, faint("✗ who could not place it: a strike"))
	}
	// The preview may wrap over lines of its own, so the log gets what
	// the lines drawn so far leave, not what their count does; and the
	// columns beside the board there are.
	used := strings.Count(strings.Join(info, "\n"), "\n") + 1
	info = append(info, "", p.t.logBlock(max(1, p.height()-used-6-p.t.msgExtra()), max(1, p.t.w-gw)))
	body := side(fit(g.String(), gw, p.height()), gw, strings.Join(info, "\n"), p.t.w-gw)
	prompt, keys := "", "arrows move · space/tab across or down · enter place · c twice cannot · : type a move · esc home · ? help"
	if cur == "" || !p.t.myTurn() {
		// Nothing to place: the keys of placing would only be refused.
		keys = ": type a move · esc home · ? help"
	}
	if p.declaring() {
		prompt, keys = "Declare a word:", "type a word · enter declare it · :resign · esc home · ? help"
	} else if p.line != "" {
		prompt = "Move:"
	}
	return body + "\n" + p.footer(prompt, keys)
}

// yourAnswer says how this seat answered a word of the list, as the
// browser's list does in its column of the player's own: where it placed
// the word's first letter, across (→) or down (↓), and the points that
// won ("A1→ +4"), or that it could not. The grid shows the letters but
// not which word they came from nor what each scored; nil (not yet
// answered, or a spectator's view) says nothing.
func yourAnswer(a *wfAnswer) string {
	if a == nil || a.Move == "" {
		return ""
	}
	if a.Move == "cannot" {
		return "cannot"
	}
	sq, dir, _ := strings.Cut(strings.TrimPrefix(a.Move, "place "), " ")
	arrow := "→"
	if dir == "down" {
		arrow = "↓"
	}
	return fmt.Sprintf("%s%s +%d", sq, arrow, a.Points)
}

// others names the players the table waits for besides this seat, as
// the browser does: "Ben and Cy", or "the others" when it waits for none.
func (p *playScreen) others() string {
	var ns []string
	if p.t.upd != nil {
		for _, s := range p.t.upd.Table.ToMove {
			if s != p.t.seat {
				ns = append(ns, p.t.name(s))
			}
		}
	}
	if len(ns) == 0 {
		return "the others"
	}
	if len(ns) == 1 {
		return ns[0]
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// wfGrid draws rows of a finished player's grid, the first of them the
// grid's row first+1.
func wfGrid(rows []string, first int) string {
	var b strings.Builder
	for i, r := range rows {
		b.WriteString(fmt.Sprintf("%3s ", strconv.Itoa(first+i+1)) + strings.ReplaceAll(r, ".", "·") + "\n")
	}
	return b.String()
}
