package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// playState is what the player is doing on the play screen: the line being
// typed, a cursor, Salvo's aim and pencil marks, Word Fight's direction and
// the preview of the placement under the cursor.
type playState struct {
	line    string
	r, c    int
	board   int
	aim     []string
	marks   map[string]bool
	down    bool
	preview string
	// Salvo's outline, drawn like a fleet on the ocean aimed at.
	outline   []ship
	osel      int
	outlining bool
	pseq      int // the latest preview asked for
	pdone     int // the latest preview answered
}

// onUpdate runs after each update: it opens the setup editor when the
// seat's setup is due, and asks for a fresh Word Fight preview.
func (m *Model) onUpdate() tea.Cmd {
	t := m.t
	u := t.upd
	if (u.Table.Status == "open" || u.Table.Status == "setup") && u.Setup == nil && m.hasSetup() {
		return m.startSetup()
	}
	if u.Table.Status == "playing" && t.game == "wordfight" {
		return m.askPreview()
	}
	return nil
}

// onAnswer takes in the answer to this seat's move or setup.
func (m *Model) onAnswer(a client.Answer) tea.Cmd {
	t := m.t
	t.setup.sending = false
	return nil
}

func (m *Model) onHelper(msg helperMsg) tea.Cmd {
	if strings.HasPrefix(msg.kind, "preview:") {
		return m.onPreview(msg)
	}
	return m.onSetupHelper(msg)
}

func (m *Model) playKey(s string, k tea.KeyPressMsg) tea.Cmd {
	p := &m.t.play
	// A line being typed takes every key but enter and esc.
	typingGame := m.t.game == "quizl" || m.t.game == "nymphabet" || (m.t.game == "wordfight" && m.declaring())
	if p.line != "" || typingGame || s == ":" {
		switch s {
		case "esc":
			p.line = ""
			return nil
		case "enter":
			if p.line != "" {
				return m.submitLine()
			}
		default:
			if s != "up" && s != "down" && s != "left" && s != "right" && s != "tab" && s != "space" || p.line != "" {
				if editLine(&p.line, s, k, 60) {
					return nil
				}
			}
		}
	}
	switch m.t.game {
	case "quizl":
		return m.quizlKey(s)
	case "salvo":
		return m.salvoKey(s)
	case "wordfight":
		return m.wordfightKey(s)
	}
	return nil
}

// submitLine sends the typed line: ":" sends the rest as a move in the
// game's notation; otherwise each game reads the line its own way.
func (m *Model) submitLine() tea.Cmd {
	p := &m.t.play
	line := strings.TrimSpace(p.line)
	if raw, ok := strings.CutPrefix(line, ":"); ok {
		return m.send(strings.TrimSpace(raw))
	}
	switch m.t.game {
	case "quizl":
		if isDigits(line) {
			return m.send(line)
		}
		var v quizlView
		json.Unmarshal(m.t.upd.View, &v)
		if len(v.Players) > 2 {
			bs := v.tracking()
			if p.board < len(bs) {
				return m.send("say " + bs[p.board].Name + " " + line)
			}
		}
		return m.send("say " + line)
	case "wordfight":
		return m.send("declare " + line)
	case "salvo":
		return m.send(line)
	}
	return m.send(line)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// cursor moves the play cursor within a board of w by h squares.
func (p *playState) cursor(s string, w, h int) bool {
	switch s {
	case "up":
		p.r = (p.r + h - 1) % h
	case "down":
		p.r = (p.r + 1) % h
	case "left":
		p.c = (p.c + w - 1) % w
	case "right":
		p.c = (p.c + 1) % w
	default:
		return false
	}
	return true
}

func (m *Model) playView() string {
	switch m.t.game {
	case "quizl":
		return m.quizlView()
	case "salvo":
		return m.salvoView()
	case "wordfight":
		return m.wordfightView()
	case "nymphabet":
		return m.nymphabetView()
	}
	return string(m.t.upd.View)
}

// footer is the play screen's last lines: the message, the typed line and
// the keys.
func (m *Model) footer(prompt, keys string) string {
	p := &m.t.play
	var b strings.Builder
	b.WriteString(m.message() + "\n")
	if prompt != "" {
		b.WriteString(prompt + " " + p.line + "█\n")
	}
	b.WriteString(faint(wrap(keys, m.w)))
	return b.String()
}

// side puts a block of lines beside another, the left block padded to
// lw columns and the right one cut to rw.
func side(left string, lw int, right string, rw int) string {
	ls := strings.Split(left, "\n")
	for i, l := range ls {
		l = fit(l, lw-1, 1)
		ls[i] = l + strings.Repeat(" ", max(0, lw-ansi.StringWidth(l)))
	}
	l := strings.Join(ls, "\n")
	rs := strings.Split(right, "\n")
	for i, r := range rs {
		rs[i] = fit(r, rw, 1)
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, l, strings.Join(rs, "\n"))
}

// logBlock is the last n events, each cut to w columns.
func (m *Model) logBlock(n, w int) string {
	lines := m.t.logTail(n, w)
	for i, l := range lines {
		lines[i] = fit(l, w, 1)
	}
	return strings.Join(lines, "\n")
}

// Quizl.

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

func (m *Model) quizlKey(s string) tea.Cmd {
	p := &m.t.play
	var v quizlView
	json.Unmarshal(m.t.upd.View, &v)
	if p.cursor(s, 5, 5) {
		return nil
	}
	switch s {
	case "tab":
		if n := len(v.tracking()); n > 0 {
			p.board = (p.board + 1) % n
		}
	case "enter", "space":
		return m.send(fmt.Sprintf("%d%d", p.r+5, p.c))
	}
	return nil
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
			if w.String() == pw {
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
				cell = hi(cell)
			}
			b.WriteString(cell)
		}
		out = append(out, b.String())
	}
	return out
}

func (m *Model) quizlView() string {
	p := &m.t.play
	var v quizlView
	json.Unmarshal(m.t.upd.View, &v)
	called := map[string]bool{}
	for _, c := range v.Called {
		called[c] = true
	}
	var left []string
	for i, b := range v.tracking() {
		name := "Tracking " + b.Name
		if v.Solitaire {
			name = "Tracking the computer's grid"
		}
		r := -1
		if i == p.board && !v.Finished {
			r = p.r
			name = "▸ " + name
		}
		note := "still hunting"
		switch b.Outcome {
		case "right":
			note = fmt.Sprintf("found %s: %d points", b.Password, b.Points)
		case "tripped":
			note = "tripped over the password: 0 points"
		case "resigned":
			note = "resigned"
		}
		if len(b.Wrong) > 0 {
			note += " · wrong: " + strings.Join(b.Wrong, ", ")
		}
		left = append(left, title(name))
		left = append(left, letterGrid(b.Grid, called, r, p.c, b.Password)...)
		left = append(left, faint("  "+note), "")
		if len(left) > 14 {
			break // more than two grids: the others by tab
		}
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
	right = append(right, "", "Scores: "+strings.Join(sc, " · "), "")
	right = append(right, m.logBlock(m.h-len(right)-8, 42))
	body := side(strings.Join(left, "\n"), 36, strings.Join(right, "\n"), m.w-36)
	return body + "\n" + m.footer("Call (digits) or announce (letters):",
		"arrows pick a square · enter call it · type 72 or a word then enter · :resign · esc home · ? help")
}

// Nymphabet.

type nymphLetter struct {
	Letter  string `json:"letter"`
	Deleted bool   `json:"deleted"`
	By      int    `json:"by"`
}

type nymphView struct {
	Seat     int           `json:"seat"`
	Mode     string        `json:"mode"`
	Status   string        `json:"status"`
	Alphabet []nymphLetter `json:"alphabet"`
	Current  string        `json:"current"`
	Left     int           `json:"left"`
	Words    []struct {
		By      int    `json:"by"`
		Word    string `json:"word"`
		Deleted string `json:"deleted"`
	} `json:"words"`
	Players []struct {
		Name    string `json:"name"`
		Letters int    `json:"letters"`
		Turns   int    `json:"turns"`
		Product int    `json:"product"`
		Score   int    `json:"score"`
	} `json:"players"`
	Winners []int `json:"winners"`
}

// shown writes a word in lower case with the letters it deleted in
// capitals, as the referee listed them: each at its first place after the
// one before.
func shown(word, deleted string) string {
	run := strings.FieldsFunc(deleted, func(r rune) bool { return r == ',' || r == ' ' })
	w := []rune(strings.ToLower(word))
	k := 0
	for i := range w {
		if k < len(run) && strings.EqualFold(string(w[i]), run[k]) {
			w[i] = []rune(strings.ToUpper(string(w[i])))[0]
			k++
		}
	}
	return string(w)
}

func (m *Model) nymphabetView() string {
	var v nymphView
	json.Unmarshal(m.t.upd.View, &v)
	var b strings.Builder
	b.WriteString("\n  ")
	for _, l := range v.Alphabet {
		switch {
		case l.Deleted:
			b.WriteString(faint(strings.ToLower(l.Letter)+"̶") + " ")
		case l.Letter == v.Current:
			b.WriteString(hi("["+l.Letter+"]") + " ")
		default:
			b.WriteString(l.Letter + " ")
		}
	}
	b.WriteString("\n\n")
	cur := "any letter may start the first word"
	if v.Current != "" {
		cur = "current letter " + v.Current
	}
	fmt.Fprintf(&b, "  %s · %d letters left · mode %s\n", cur, v.Left, v.Mode)
	var ps []string
	for _, p := range v.Players {
		if v.Mode == "scoring" {
			ps = append(ps, fmt.Sprintf("%s: product %d", p.Name, p.Product))
		} else {
			ps = append(ps, fmt.Sprintf("%s: %d letters in %d words", p.Name, p.Letters, p.Turns))
		}
	}
	b.WriteString("  " + strings.Join(ps, " · ") + "\n\n")
	room := m.h - 12
	start := max(0, len(v.Words)-room)
	for _, w := range v.Words[start:] {
		name := fmt.Sprintf("seat %d", w.By)
		if w.By >= 0 && w.By < len(v.Players) {
			name = v.Players[w.By].Name
		}
		fmt.Fprintf(&b, "  %-20s %s\n", name+":", shown(w.Word, w.Deleted))
	}
	for range max(0, room-len(v.Words)) {
		b.WriteString("\n")
	}
	prompt := "Your word:"
	if v.Current != "" {
		prompt = "A word starting with " + v.Current + ":"
	}
	return b.String() + m.footer(prompt, "type a word · enter play it · :resign · esc home · ? help")
}

// Salvo.

type salvoShip struct {
	Class   string   `json:"class"`
	Ship    string   `json:"ship"`
	Squares []string `json:"squares"`
	Hit     []bool   `json:"hit"`
	Sunk    bool     `json:"sunk"`
}

type salvoTracking struct {
	Target int            `json:"target"`
	Ocean  [10][10]int    `json:"ocean"`
	Hits   map[string]int `json:"hits"`
	Sunk   map[string]int `json:"sunk"`
}

type salvoSalvo struct {
	By      int      `json:"by"`
	At      int      `json:"at"`
	Number  int      `json:"number"`
	Squares []string `json:"squares"`
	Report  struct {
		Hits map[string]int `json:"hits"`
		Sank map[string]int `json:"sank"`
	} `json:"report"`
}

type salvoView struct {
	Seat    int `json:"seat"`
	Players []struct {
		Name      string `json:"name"`
		Shots     int    `json:"shots"`
		Target    int    `json:"target"`
		ShipsSunk int    `json:"ships_sunk"`
		ShipsLost int    `json:"ships_lost"`
	} `json:"players"`
	Finished    bool            `json:"finished"`
	Target      int             `json:"target"`
	Shots       int             `json:"shots"`
	MustOutline bool            `json:"must_outline"`
	Fleet       []salvoShip     `json:"fleet"`
	Tracking    []salvoTracking `json:"tracking"`
	Salvos      []salvoSalvo    `json:"salvos"`
}

func sqName(c, r int) string { return fmt.Sprintf("%c%d", 'A'+c, r+1) }

func (m *Model) salvoKey(s string) tea.Cmd {
	p := &m.t.play
	var v salvoView
	json.Unmarshal(m.t.upd.View, &v)
	if p.outlining {
		return m.outlineKey(s)
	}
	if p.cursor(s, 10, 10) {
		return nil
	}
	sq := sqName(p.c, p.r)
	switch s {
	case "space":
		for i, a := range p.aim {
			if a == sq {
				p.aim = append(p.aim[:i], p.aim[i+1:]...)
				return nil
			}
		}
		if len(p.aim) >= v.Shots {
			m.err = fmt.Sprintf("this salvo has %d shots: space on a chosen square takes it back", v.Shots)
			return nil
		}
		p.aim = append(p.aim, sq)
		m.err = ""
	case "m":
		if p.marks == nil {
			p.marks = map[string]bool{}
		}
		p.marks[sq] = !p.marks[sq]
	case "o":
		// Start from ships as long as this seat's own, laid on the
		// ocean aimed at; with no fleet of its own, type the outline.
		p.outline = nil
		for _, sh := range v.Fleet {
			if o, ok := parseShip(sh.Ship); ok {
				p.outline = append(p.outline, o)
			}
		}
		if len(p.outline) == 0 || len(p.outline) != len(v.Fleet) {
			p.line = ":outline "
			return nil
		}
		p.outlining, p.osel = true, 0
	case "enter":
		if len(p.aim) == 0 {
			m.err = "choose squares with space first (or : to type a move)"
			return nil
		}
		return m.send("fire " + strings.Join(p.aim, " "))
	}
	return nil
}

func (m *Model) salvoView() string {
	p := &m.t.play
	var v salvoView
	json.Unmarshal(m.t.upd.View, &v)
	// Your ocean: your ships, the squares hit, and the number of the
	// salvo that fell on each square.
	own := [10][10]string{}
	for _, sv := range v.Salvos {
		if sv.At != v.Seat {
			continue
		}
		for _, q := range sv.Squares {
			if c, r, ok := parseSquare(q); ok && c < 10 && r < 10 {
				own[r][c] = fmt.Sprint(sv.Number)
			}
		}
	}
	shipAt := map[string]string{}
	hitAt := map[string]bool{}
	for _, s := range v.Fleet {
		for i, q := range s.Squares {
			shipAt[q] = strings.ToUpper(s.Class[:1])
			if i < len(s.Hit) && s.Hit[i] {
				hitAt[q] = true
			}
		}
	}
	var tr *salvoTracking
	for i := range v.Tracking {
		if v.Tracking[i].Target == v.Target {
			tr = &v.Tracking[i]
		}
	}
	if tr == nil && len(v.Tracking) > 0 {
		tr = &v.Tracking[0]
	}
	aim := map[string]bool{}
	for _, a := range p.aim {
		aim[a] = true
	}
	var l, r strings.Builder
	tname := "their ocean"
	target := v.Target
	if tr != nil {
		target = tr.Target
	}
	if target >= 0 && target < len(v.Players) {
		tname = v.Players[target].Name + "'s ocean"
	}
	l.WriteString(title("Aiming at "+tname) + "\n")
	r.WriteString(title("Your ocean") + "\n")
	hdr := "    " + strings.Join(strings.Split("ABCDEFGHIJ", ""), "  ") + "\n"
	l.WriteString(hdr)
	r.WriteString(hdr)
	for row := range 10 {
		fmt.Fprintf(&l, "%2d ", row+1)
		fmt.Fprintf(&r, "%2d ", row+1)
		for c := range 10 {
			q := sqName(c, row)
			cell := " · "
			if tr != nil && tr.Ocean[row][c] > 0 {
				cell = fmt.Sprintf("%2d ", tr.Ocean[row][c])
			} else if p.marks[q] {
				cell = " x "
			}
			if aim[q] {
				cell = warm(" * ")
			}
			if p.outlining {
				for i, o := range p.outline {
					if o.covers(c, row) {
						cell = " " + strconv.Itoa(o.n) + " "
						if i == p.osel {
							cell = hi("[" + strconv.Itoa(o.n) + "]")
						}
					}
				}
			}
			if row == p.r && c == p.c && !v.Finished {
				cell = hi(cell)
			}
			l.WriteString(cell)
			oc := " · "
			if s, ok := shipAt[q]; ok {
				oc = " " + s + " "
				if hitAt[q] {
					oc = bad(" " + strings.ToLower(s) + "!")
				}
			}
			if n := own[row][c]; n != "" && !hitAt[q] {
				oc = fmt.Sprintf("%2s ", n)
			}
			r.WriteString(oc)
		}
		l.WriteString("\n")
		r.WriteString("\n")
	}
	body := lipgloss.JoinHorizontal(lipgloss.Top, l.String(), "  ", r.String()) + "\n"
	var info []string
	if tr != nil {
		info = append(info, "Hits so far: "+tally(tr.Hits)+" · sunk: "+tally(tr.Sunk))
	}
	var ps []string
	for _, pl := range v.Players {
		ps = append(ps, fmt.Sprintf("%s %d shots, sank %d, lost %d", pl.Name, pl.Shots, pl.ShipsSunk, pl.ShipsLost))
	}
	info = append(info, strings.Join(ps, " · "))
	if p.outlining {
		var ships []string
		for _, o := range p.outline {
			ships = append(ships, o.String())
		}
		info = append(info, warm("Outline: "+strings.Join(ships, " ")+" (tab ship · arrows · space turn · enter send · esc)"))
	} else if v.MustOutline {
		info = append(info, warm("Every ship is sunk: o outlines the fleet (or : to type it)"))
	}
	info = append(info, fmt.Sprintf("Salvo: %s (%d of %d shots)", strings.Join(p.aim, " "), len(p.aim), v.Shots))
	info = append(info, m.logBlock(max(1, m.h-len(info)-17), m.w))
	prompt := ""
	if p.line != "" {
		prompt = "Move:"
	}
	return body + strings.Join(info, "\n") + "\n" + m.footer(prompt,
		"arrows aim · space choose/unchoose · enter fire · m pencil mark · o outline · : type a move · esc home · ? help")
}

// outlineKey moves the outline's ships as the fleet editor moves a fleet.
func (m *Model) outlineKey(s string) tea.Cmd {
	p := &m.t.play
	sh := &p.outline[p.osel]
	switch s {
	case "esc":
		p.outlining = false
		return nil
	case "tab":
		p.osel = (p.osel + 1) % len(p.outline)
		return nil
	case "shift+tab":
		p.osel = (p.osel + len(p.outline) - 1) % len(p.outline)
		return nil
	case "up":
		sh.row--
	case "down":
		sh.row++
	case "left":
		sh.col--
	case "right":
		sh.col++
	case "space":
		sh.down = !sh.down
	case "enter":
		var ships []string
		for _, o := range p.outline {
			ships = append(ships, o.String())
		}
		p.outlining = false
		return m.send("outline " + strings.Join(ships, " "))
	}
	w, h := sh.n, 1
	if sh.down {
		w, h = 1, sh.n
	}
	sh.col = max(0, min(sh.col, 10-w))
	sh.row = max(0, min(sh.row, 10-h))
	return nil
}

// tally writes {"cruiser": 1} as "cruiser 1".
func tally(t map[string]int) string {
	if len(t) == 0 {
		return "none"
	}
	var ks []string
	for k := range t {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var out []string
	for _, k := range ks {
		out = append(out, fmt.Sprintf("%s %d", k, t[k]))
	}
	return strings.Join(out, ", ")
}
