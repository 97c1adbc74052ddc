package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/game"
	"parlour/tui/client"
)

// setupScreen is the secret-setup editor: Quizl's grid or Salvo's fleet.
// It only edits; the referee judges every change through /api/v1/tools/check-setup.
type setupScreen struct {
	t       *tableScreen
	started bool
	seq     int    // the number of the latest check asked for
	verdict string // the referee's word on the setup as it stands
	ok      bool
	// refused says the referee refused the setup as it stands: enter
	// then hands nothing in, since the answer is known.
	refused bool
	sending bool

	// Quizl: the grid, the cursor, the typing direction and the line
	// holding the password (0-4 rows 5-9, 5-9 columns 0-4).
	grid   [5][5]rune
	r, c   int
	down   bool
	pwLine int

	// Salvo: the fleet and the ship chosen.
	fleet []ship
	sel   int
}

// setupBody is the helpers' common body: game, rules and lexicon.
func (st *setupScreen) setupBody() map[string]any {
	u := st.t.upd
	b := map[string]any{"game": u.Table.Game}
	if len(u.Table.Rules) > 0 {
		b["rules"] = u.Table.Rules
	}
	if u.Table.Lexicon != "" {
		b["lexicon"] = u.Table.Lexicon
	}
	return b
}

// start opens the editor: Salvo starts from a random fleet (which
// also tells the client the ships' lengths), Quizl from an empty grid.
func (st *setupScreen) start() tea.Cmd {
	if st.started {
		return nil
	}
	st.started = true
	if st.t.game == "salvo" {
		return st.t.helper("random", "/api/v1/tools/random-setup", st.setupBody())
	}
	for r := range st.grid {
		for c := range st.grid[r] {
			st.grid[r][c] = ' '
		}
	}
	st.verdict = "Type your password into a row or column, then fill the rest."
	return nil
}

// setupJSON is the setup as it stands, as a record holds it.
func (st *setupScreen) setupJSON() json.RawMessage {
	var v any
	if st.t.game == "salvo" {
		var fleet []string
		for _, s := range st.fleet {
			fleet = append(fleet, s.String())
		}
		v = map[string]any{"fleet": fleet}
	} else {
		v = map[string]any{"grid": st.rows(), "password": st.password()}
	}
	raw, _ := json.Marshal(v)
	return raw
}

func (st *setupScreen) rows() []string {
	var rows []string
	for r := range st.grid {
		rows = append(rows, strings.ReplaceAll(string(st.grid[r][:]), " ", "."))
	}
	return rows
}

// line lists the squares of a Quizl line as (row, column) pairs.
func line(l int) [5][2]int {
	var sq [5][2]int
	for i := range 5 {
		if l < 5 {
			sq[i] = [2]int{l, i}
		} else {
			sq[i] = [2]int{i, l - 5}
		}
	}
	return sq
}

func (st *setupScreen) password() string {
	var b strings.Builder
	for _, p := range line(st.pwLine) {
		b.WriteRune(st.grid[p[0]][p[1]])
	}
	return strings.TrimSpace(b.String())
}

func (st *setupScreen) full() bool {
	for r := range st.grid {
		for c := range st.grid[r] {
			if st.grid[r][c] == ' ' {
				return false
			}
		}
	}
	return true
}

// check asks the referee about the setup as it stands.
func (st *setupScreen) check() tea.Cmd {
	st.seq++
	st.ok, st.refused = false, false
	// The referee's refusal of the setup handed in was about a setup
	// that is no more: the verdict below speaks of this one.
	st.t.err = ""
	if st.t.game == "quizl" && !st.full() {
		n := 0
		for r := range st.grid {
			for c := range st.grid[r] {
				if st.grid[r][c] == ' ' {
					n++
				}
			}
		}
		st.verdict = fmt.Sprintf("%s to fill (ctrl+f fills them around your password)", game.Count(n, "square", "squares"))
		return nil
	}
	st.verdict = "asking the referee…"
	b := st.setupBody()
	b["setup"] = st.setupJSON()
	return st.t.helper("check:"+strconv.Itoa(st.seq), "/api/v1/tools/check-setup", b)
}

func (st *setupScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case helperMsg:
		return st.onHelper(msg)
	case tea.KeyPressMsg:
		return st.key(msg.String(), msg)
	}
	return nil
}

func (st *setupScreen) key(s string, k tea.KeyPressMsg) tea.Cmd {
	if !st.started {
		return st.start()
	}
	if s == "enter" {
		if st.sending {
			return nil
		}
		if st.t.game == "quizl" && !st.full() {
			// The referee would refuse it in its notation ("square 60
			// holds ."): say what is missing in the editor's words.
			st.t.err = "the grid is not complete: " + lowerFirst(st.verdict)
			return nil
		}
		if st.t.game == "salvo" && len(st.fleet) == 0 {
			// No fleet came to place (the random one was not read):
			// handed in, the referee would only say there is none.
			st.t.err = "there is no fleet to hand in yet: r deals a random one"
			return nil
		}
		if st.refused {
			// The referee's word stands above; sent, it would only
			// come back again.
			st.t.err = "the referee refuses this setup as it stands (above): change it, then hand it in"
			return nil
		}
		st.sending, st.t.err = true, ""
		t := st.t
		raw := st.setupJSON()
		t.sent++
		seq := t.sent
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(st.t.ctx, 15*time.Second)
			defer cancel()
			a, err := st.t.c.Setup(ctx, t.token, t.id, raw, "")
			return answerMsg{gen: t.gen, seq: seq, a: a, err: err}
		}
	}
	if st.t.game == "salvo" {
		return st.fleetKey(s)
	}
	return st.gridKey(s, k)
}

// gridEditing says whether the screen is Quizl's grid editor, taking
// keys.
func (t *tableScreen) gridEditing() bool {
	return t.upd != nil && !t.chat.open && t.game == "quizl" &&
		(t.upd.Table.Status == "open" || t.upd.Table.Status == "setup") && t.upd.Setup == nil && t.setup.started
}

func (st *setupScreen) gridKey(s string, k tea.KeyPressMsg) tea.Cmd {
	move := func(dr, dc int) {
		st.r = (st.r + dr + 5) % 5
		st.c = (st.c + dc + 5) % 5
	}
	switch s {
	case "up":
		move(-1, 0)
	case "down":
		move(1, 0)
	case "left":
		move(0, -1)
	case "right":
		move(0, 1)
	case "tab":
		st.down = !st.down
	case "ctrl+p":
		st.pwLine = st.cursorLine()
		return st.check()
	case "backspace":
		// As in a crossword's editors: a letter under the cursor goes
		// (typing stops on a line's last square, the letter typed
		// there); on an empty square the cursor steps back along the
		// typing direction and erases that one, never past the line's
		// start.
		switch {
		case st.grid[st.r][st.c] != ' ':
		case st.down && st.r > 0:
			st.r--
		case !st.down && st.c > 0:
			st.c--
		default:
			return nil
		}
		st.grid[st.r][st.c] = ' '
		return st.check()
	case "delete":
		st.grid[st.r][st.c] = ' '
		return st.check()
	case "ctrl+f", "ctrl+d":
		pw := st.password()
		if len([]rune(pw)) != 5 {
			st.verdict = "type a five-letter password into the marked line first"
			return nil
		}
		b := st.setupBody()
		delete(b, "rules")
		b["password"] = pw
		b["line"] = st.pwLine
		b["maker"] = "random"
		if s == "ctrl+d" {
			b["maker"] = "strong"
			st.verdict = "the computer is filling the grid deceptively…"
		}
		return st.t.helper("fill", "/api/v1/tools/fill-setup", b)
	case "ctrl+r":
		return st.t.helper("random", "/api/v1/tools/random-setup", st.setupBody())
	default:
		t := strings.ToUpper(k.Key().Text)
		if len(t) != 1 || t[0] < 'A' || t[0] > 'Z' {
			return nil
		}
		if st.empty(st.cursorLine()) {
			// Typing into an empty grid: this line holds the password.
			st.pwLine = st.cursorLine()
		}
		st.grid[st.r][st.c] = rune(t[0])
		if st.down {
			if st.r < 4 {
				st.r++
			}
		} else if st.c < 4 {
			st.c++
		}
		return st.check()
	}
	return nil
}

// cursorLine is the line under the cursor in the typing direction.
func (st *setupScreen) cursorLine() int {
	if st.down {
		return 5 + st.c
	}
	return st.r
}

// empty says whether every square off line l is empty.
func (st *setupScreen) empty(l int) bool {
	on := map[[2]int]bool{}
	for _, p := range line(l) {
		on[p] = true
	}
	for r := range st.grid {
		for c := range st.grid[r] {
			if !on[[2]int{r, c}] && st.grid[r][c] != ' ' {
				return false
			}
		}
	}
	return true
}

// onHelper takes in a helper's answer about the setup.
func (st *setupScreen) onHelper(msg helperMsg) tea.Cmd {
	if strings.HasPrefix(msg.kind, "check:") {
		if msg.kind != "check:"+strconv.Itoa(st.seq) {
			return nil // an answer about an earlier setup
		}
		if msg.err != nil {
			st.verdict, st.ok = msg.err.Error(), false
			var e *client.Error
			st.refused = errors.As(msg.err, &e) && e.Status == http.StatusUnprocessableEntity
		} else {
			st.verdict, st.ok = "the referee accepts this setup: enter hands it in", true
		}
		return nil
	}
	if msg.err != nil {
		st.verdict, st.ok = msg.err.Error(), false
		return nil
	}
	var a struct {
		Setup struct {
			Grid     []string `json:"grid"`
			Password string   `json:"password"`
			Fleet    []string `json:"fleet"`
		} `json:"setup"`
		Random bool `json:"random"`
	}
	if err := json.Unmarshal(msg.raw, &a); err != nil {
		st.verdict = "the server's answer made no sense: " + err.Error()
		return nil
	}
	if st.t.game == "salvo" {
		var fleet []ship
		for _, s := range a.Setup.Fleet {
			sh, ok := parseShip(s)
			if !ok {
				st.verdict = fmt.Sprintf("the server's random fleet has a ship %q this editor cannot read: r for another", s)
				return nil
			}
			fleet = append(fleet, sh)
		}
		st.fleet = fleet
		return st.check()
	}
	for r, row := range a.Setup.Grid {
		for c, ch := range row {
			if r < 5 && c < 5 {
				st.grid[r][c] = ch
			}
		}
	}
	for l := range 10 {
		st.pwLine = l
		if st.password() == strings.ToUpper(a.Setup.Password) {
			break
		}
	}
	cmd := st.check()
	if a.Random && msg.kind == "fill" {
		st.t.note = "the computer found no deceptive filling, so the grid was filled at random"
	}
	return cmd
}

func (st *setupScreen) view() string {
	var b strings.Builder
	if st.t.game == "salvo" {
		b.WriteString(title("Place your fleet") + "\n")
		b.WriteString(st.fleetOcean())
	} else {
		b.WriteString(title("Make your grid") + faint("  (the password's line is marked [ ])") + "\n\n")
		b.WriteString(st.gridEditor())
	}
	b.WriteString("\n")
	if due := st.t.setupDueText(); due != "" {
		b.WriteString(due + "\n")
	}
	// Wrapped: the referee's verdict names the offending line, and a
	// verdict cut at the edge could lose it.
	if st.ok {
		b.WriteString(good(wrap("✓ "+st.verdict, st.t.w)) + "\n")
	} else {
		b.WriteString(warm(wrap("✗ "+st.verdict, st.t.w)) + "\n")
	}
	if st.sending && st.t.err == "" {
		b.WriteString("handing it in…\n")
	}
	b.WriteString(st.t.message() + "\n")
	if st.t.game == "salvo" {
		b.WriteString(faint(wrapKeys("tab next ship · arrows move · space rotate · r random fleet · enter hand in · ? help", st.t.w)))
	} else {
		b.WriteString(faint(wrapKeys("letters type · arrows move · tab across/down · ctrl+p password line · ctrl+f fill · ctrl+d fill deceptively · ctrl+r random · enter hand in · ? help", st.t.w)))
	}
	return b.String()
}

func (st *setupScreen) gridEditor() string {
	on := map[[2]int]bool{}
	for _, p := range line(st.pwLine) {
		on[p] = true
	}
	var b strings.Builder
	b.WriteString("     0  1  2  3  4\n")
	for r := range 5 {
		fmt.Fprintf(&b, "  %d ", r+5)
		for c := range 5 {
			ch := string(st.grid[r][c])
			if ch == " " {
				ch = "·"
			}
			cell := " " + ch + " "
			if on[[2]int{r, c}] {
				cell = "[" + ch + "]"
			}
			if r == st.r && c == st.c {
				cell = cursorCell(cell)
			}
			b.WriteString(cell)
		}
		b.WriteString("\n")
	}
	dir := "across"
	if st.down {
		dir = "down"
	}
	fmt.Fprintf(&b, "\n  typing %s · password %q on %s\n", dir, st.password(), lineName(st.pwLine))
	return b.String()
}

// lineName names a Quizl line: "row 7" or "column 2".
func lineName(l int) string {
	if l < 5 {
		return fmt.Sprintf("row %d", l+5)
	}
	return fmt.Sprintf("column %d", l-5)
}

// lowerFirst puts a sentence after a colon: its first letter in lower
// case, unless its first word is in capitals (a password, a word of the
// grid), which stays as written.
func lowerFirst(s string) string {
	word, _, _ := strings.Cut(s, " ")
	if len(word) > 1 && strings.ToUpper(word) == word {
		return s
	}
	return strings.ToLower(s[:min(1, len(s))]) + s[min(1, len(s)):]
}
