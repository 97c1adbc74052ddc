package tui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/game"
)

// Salvo's play screen: the two oceans, aiming, pencil marks and the outline.

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
	Practice    bool            `json:"practice"`
	Finished    bool            `json:"finished"`
	Target      int             `json:"target"`
	Shots       int             `json:"shots"`
	MustOutline bool            `json:"must_outline"`
	Fleet       []salvoShip     `json:"fleet"`
	Tracking    []salvoTracking `json:"tracking"`
	Salvos      []salvoSalvo    `json:"salvos"`
}

func sqName(c, r int) string { return fmt.Sprintf("%c%d", 'A'+c, r+1) }

// onlySquares returns the squares of s when it is one or more squares
// and nothing else ("b7 c8", "B7,C-8": the notation takes C-8 for C8), a
// salvo typed without its verb; nil otherwise. A square off the ocean
// (K11) is one still: the salvo goes to the referee, whose refusal names
// it, rather than as a move of no verb.
func onlySquares(s string) []string {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	if len(f) == 0 {
		return nil
	}
	for i, q := range f {
		q = strings.Replace(q, "-", "", 1)
		if _, _, ok := parseSquare(q); !ok {
			return nil
		}
		f[i] = q
	}
	return f
}

// classLetter is the letter a ship of class is drawn with: "battleship"
// is B. A class with no letter to draw (none the server sends) is "?".
func classLetter(class string) string {
	if r, _ := utf8.DecodeRuneInString(class); unicode.IsLetter(r) {
		return string(unicode.ToUpper(r))
	}
	return "?"
}

func (p *playScreen) salvoKey(s string) tea.Cmd {
	var v salvoView
	json.Unmarshal(p.t.upd.View, &v)
	if p.outlining {
		return p.outlineKey(s)
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
				p.t.err = "" // a refused shot too many no longer holds
				return nil
			}
		}
		for _, tr := range v.Tracking {
			if n := tr.Ocean[p.r][p.c]; tr.Target == v.Target && n > 0 {
				// Chosen, it would cover the salvo's number, and the
				// referee would refuse the salvo.
				p.t.err = fmt.Sprintf("you fired at %s with salvo %d: choose a square not fired at", sq, n)
				return nil
			}
		}
		if len(p.aim) >= v.Shots {
			p.t.err = fmt.Sprintf("this salvo has %d shots: space on a chosen square takes it back", v.Shots)
			return nil
		}
		p.aim = append(p.aim, sq)
		p.t.err = ""
	case "l":
		p.t.openReports()
	case "m":
		if p.marks == nil {
			p.marks = map[string]bool{}
		}
		p.marks[sq] = !p.marks[sq]
	case "o":
		if !v.MustOutline {
			// The referee takes an outline only once every ship of the
			// fleet is sunk.
			p.t.err = "o outlines the fleet once you have sunk every ship of it: fire on until then"
			return nil
		}
		return p.startOutline(v)
	case "enter":
		if len(p.aim) == 0 {
			p.t.err = "choose squares with space first (or type them after :)"
			return nil
		}
		return p.t.send("fire " + strings.Join(p.aim, " "))
	}
	return nil
}

func (p *playScreen) salvoView() string {
	var v salvoView
	json.Unmarshal(p.t.upd.View, &v)
	if v.Seat < 0 {
		return p.salvoWatched(v)
	}
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
			shipAt[q] = classLetter(s.Class)
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
			switch {
			case p.outlining:
				// The numbers stay in sight to outline by; the ship
				// being moved shows on them too (the outline beside
				// it has the shapes).
				if p.outline[p.osel].covers(c, row) {
					cell = hi(cell)
				}
			case row == p.r && c == p.c && !v.Finished:
				cell = cursorCell(cell)
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
	right := r.String()
	if p.outlining {
		right = p.outlineOcean()
	} else if v.Practice {
		// No fleet of one's own: say what practice is instead of an
		// empty ocean.
		head := "Practice"
		if p.t.daily() {
			head = "Today's daily puzzle"
		}
		right = title(head) + "\n\n" + wrap("You fire at a fleet the computer hid; nobody fires back. Sink every ship, then outline the fleet (o) to win.", 40) + "\n"
	}
	body := lipgloss.JoinHorizontal(lipgloss.Top, l.String(), "  ", right) + "\n"
	var info []string
	if tr != nil {
		// On two lines rather than cut: the tally is what the player
		// deduces from.
		hits, sunk := "Hits so far: "+tally(tr.Hits), tally(tr.Sunk)
		if line := hits + " · sunk: " + sunk; ansi.StringWidth(line) <= p.t.w {
			info = append(info, line)
		} else {
			info = append(info, hits, "Ships sunk: "+sunk)
		}
	}
	info = append(info, salvoPlayers(v, p.t.w)...)
	if p.outlining {
		var ships []string
		for _, o := range p.outline {
			ships = append(ships, o.String())
		}
		info = append(info, warm("Outline: "+strings.Join(ships, " ")))
	} else if v.MustOutline && !p.t.watching() && !p.t.replaying {
		info = append(info, warm("Every ship is sunk: o outlines the fleet (or : to type it)"))
	}
	if !p.t.watching() && !p.t.replaying && !v.MustOutline {
		// The salvo being aimed: nobody aims at a game watched or
		// replayed, nor once the fleet is to be outlined.
		info = append(info, fmt.Sprintf("Salvo: %s (%d of %s)", strings.Join(p.aim, " "), len(p.aim), game.Count(v.Shots, "shot", "shots")))
	}
	prompt := ""
	if p.line != "" {
		prompt = "Move:"
	}
	// The keys on one line at 80 columns (? lists the rest: : types a
	// move, esc goes home), so that the reports have the room.
	keys := "arrows aim · space choose · enter fire · m mark · o outline · l reports · ? help"
	switch {
	case p.outlining:
		keys = "tab next ship · arrows move · space turn · enter send the outline · esc aim"
	case p.t.w >= 120:
		keys = "arrows aim · space choose/unchoose · enter fire · m pencil mark · o outline · l every report · : type a move · esc home · ? help"
	}
	// Under the oceans: the table's first line, 13 lines of oceans, the
	// message and the keys.
	room := p.height() - len(info) - 16 - p.t.msgExtra() - strings.Count(wrapKeys(keys, p.t.w), "\n") - strings.Count(prompt, ":")
	info = append(info, p.t.wrappedLog(max(1, room), p.t.w))
	return body + strings.Join(info, "\n") + "\n" + p.footer(prompt, keys)
}

// outlineOcean draws the outline being written as the fleet editor draws
// a fleet: each ship by its length, the one the keys move in brackets.
// It is of the fleet in the ocean aimed at, whose title names it.
func (p *playScreen) outlineOcean() string {
	var b strings.Builder
	b.WriteString(title("Your outline") + "\n")
	b.WriteString("    " + strings.Join(strings.Split("ABCDEFGHIJ", ""), "  ") + "\n")
	for row := range 10 {
		fmt.Fprintf(&b, "%2d ", row+1)
		for c := range 10 {
			cell := " · "
			for _, o := range p.outline {
				if o.covers(c, row) {
					cell = " " + strconv.Itoa(o.n) + " "
				}
			}
			// The ship being moved lies on top of any it overlaps.
			if o := p.outline[p.osel]; o.covers(c, row) {
				cell = hi("[" + strconv.Itoa(o.n) + "]")
			}
			b.WriteString(cell)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// startOutline opens the outline editor on the fleet tracked. An outline
// of that fleet begun before and left with esc is taken up where it was;
// a first one starts from ships as long as this seat's own, laid as its
// own lie, or, with no fleet of its own (practice, the daily puzzle),
// from a fleet the server lays at random, so that the ships' lengths come
// from the referee. A fleet the editor cannot read is typed on the move
// line instead.
func (p *playScreen) startOutline(v salvoView) tea.Cmd {
	of := p.t.id + "/" + strconv.Itoa(v.Target)
	if len(p.outline) > 0 && p.outlineOf == of {
		p.outlining = true
		return nil
	}
	if len(v.Fleet) == 0 {
		body := map[string]any{"game": "salvo"}
		var rules map[string]json.RawMessage
		if json.Unmarshal(p.t.upd.Table.Rules, &rules) == nil && rules != nil {
			body["rules"] = rules
		}
		return p.t.helper("outline:"+of, "/api/v1/tools/random-setup", body)
	}
	var fleet []string
	for _, sh := range v.Fleet {
		fleet = append(fleet, sh.Ship)
	}
	p.beginOutline(of, fleet)
	return nil
}

// beginOutline opens the editor on fleet for the outline of; a fleet it
// cannot lay opens the move line to type the outline on.
func (p *playScreen) beginOutline(of string, fleet []string) {
	var out []ship
	for _, s := range fleet {
		if o, ok := parseShip(s); ok {
			out = append(out, o)
		}
	}
	if len(out) == 0 || len(out) != len(fleet) {
		p.line = ":outline "
		return
	}
	p.outline, p.outlineOf, p.osel, p.outlining = out, of, 0, true
}

// onOutlineFleet takes the random fleet asked for to start an outline.
func (p *playScreen) onOutlineFleet(msg helperMsg) tea.Cmd {
	of := strings.TrimPrefix(msg.kind, "outline:")
	var v salvoView
	json.Unmarshal(p.t.upd.View, &v)
	if of != p.t.id+"/"+strconv.Itoa(v.Target) || !v.MustOutline {
		return nil // asked for a fleet no longer tracked
	}
	var a struct {
		Setup struct {
			Fleet []string `json:"fleet"`
		} `json:"setup"`
	}
	if msg.err != nil || json.Unmarshal(msg.raw, &a) != nil {
		// Without the editor the outline can still be typed.
		p.line = ":outline "
		return nil
	}
	p.beginOutline(of, a.Setup.Fleet)
	return nil
}

// outlineKey moves the outline's ships as the fleet editor moves a fleet.
func (p *playScreen) outlineKey(s string) tea.Cmd {
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
	case "enter":
		var ships []string
		for _, o := range p.outline {
			ships = append(ships, o.String())
		}
		p.outlining = false
		return p.t.send("outline " + strings.Join(ships, " "))
	}
	sh.move(s, diagonalShips(p.t.upd.Table.Rules))
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

// publicTracking is seat t's ocean as everybody may see it: the number
// of the salvo that fell on each square, and the hits and ships sunk its
// reports told; nil before any salvo at it. A spectator tracks no ocean
// of its own, so its screen draws these.
func publicTracking(v salvoView, t int) *salvoTracking {
	var tr *salvoTracking
	for _, sv := range v.Salvos {
		if sv.At != t {
			continue
		}
		if tr == nil {
			tr = &salvoTracking{Target: t, Hits: map[string]int{}, Sunk: map[string]int{}}
		}
		for _, q := range sv.Squares {
			if c, r, ok := parseSquare(q); ok && c < 10 && r < 10 {
				tr.Ocean[r][c] = sv.Number
			}
		}
		for k, n := range sv.Report.Hits {
			tr.Hits[k] += n
		}
		for k, n := range sv.Report.Sank {
			tr.Sunk[k] += n
		}
	}
	return tr
}

// salvoWatched is a Salvo game as a spectator sees it: the oceans of the
// players (practice: the hidden fleet's) with the salvos that fell on
// them, two at a time (tab shows the next), each with the hits and ships
// sunk its reports told, and the reports.
func (p *playScreen) salvoWatched(v salvoView) string {
	var targets []int
	if v.Practice {
		targets = []int{1}
	} else {
		for i := range v.Players {
			targets = append(targets, i)
		}
	}
	var boards []string
	var info []string
	hdr := "    " + strings.Join(strings.Split("ABCDEFGHIJ", ""), "  ")
	for k := range min(2, len(targets)) {
		t := targets[(max(0, p.board)+k)%len(targets)]
		if k == 1 && t == targets[max(0, p.board)%len(targets)] {
			break
		}
		name := fmt.Sprintf("seat %d", t)
		if t < len(v.Players) {
			name = v.Players[t].Name
		}
		tr := publicTracking(v, t)
		var b strings.Builder
		b.WriteString(title(name+"'s ocean") + "\n" + hdr + "\n")
		for row := range 10 {
			fmt.Fprintf(&b, "%2d ", row+1)
			for c := range 10 {
				cell := " · "
				if tr != nil && tr.Ocean[row][c] > 0 {
					cell = fmt.Sprintf("%2d ", tr.Ocean[row][c])
				}
				b.WriteString(cell)
			}
			b.WriteString("\n")
		}
		boards = append(boards, strings.TrimRight(b.String(), "\n"))
		hits, sunk := "none", "none"
		if tr != nil {
			hits, sunk = tally(tr.Hits), tally(tr.Sunk)
		}
		info = append(info, fitLine(fmt.Sprintf("Hits on %s: %s · sunk: %s", name, hits, sunk), p.t.w))
	}
	body := boards[0]
	if len(boards) > 1 {
		body = lipgloss.JoinHorizontal(lipgloss.Top, boards[0], "  ", boards[1])
	}
	info = append(info, salvoPlayers(v, p.t.w)...)
	keys := watchKeys
	if len(targets) > 2 {
		keys = "tab the next oceans · " + keys
	}
	room := p.height() - len(info) - 16 - p.t.msgExtra() - strings.Count(wrapKeys(keys, p.t.w), "\n")
	info = append(info, p.t.wrappedLog(max(1, room), p.t.w))
	return body + "\n\n" + strings.Join(info, "\n") + "\n" + p.t.message() + "\n" + faint(wrapKeys(keys, p.t.w))
}

// salvoPlayers says each player's shots, ships sunk and ships lost, on
// one line of w columns, or a line each when long names would cut it.
// In practice the second player is the hidden fleet, which fires nothing:
// only the player's shots and ships sunk are said.
func salvoPlayers(v salvoView, w int) []string {
	if v.Practice && len(v.Players) > 0 {
		pl := v.Players[0]
		return []string{fmt.Sprintf("%s %s, sank %d", pl.Name, game.Count(pl.Shots, "shot", "shots"), pl.ShipsSunk)}
	}
	var ps []string
	for _, pl := range v.Players {
		ps = append(ps, fmt.Sprintf("%s %s, sank %d, lost %d", pl.Name, game.Count(pl.Shots, "shot", "shots"), pl.ShipsSunk, pl.ShipsLost))
	}
	if line := strings.Join(ps, " · "); ansi.StringWidth(line) <= w {
		return []string{line}
	}
	return ps
}
