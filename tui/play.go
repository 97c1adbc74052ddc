package tui

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// playScreen is the game under way, each game drawn its own way, and
// what the player is doing at it: the line being typed, a cursor,
// Salvo's aim, pencil marks and outline, Word Fight's direction and the
// preview of the placement under the cursor.
type playScreen struct {
	t       *tableScreen
	line    string
	r, c    int
	board   int
	aim     []string
	marks   map[string]bool
	down    bool
	preview string
	// Salvo's outline of the fleet tracked, drawn like a fleet beside the
	// ocean aimed at; outlineOf names the table and target it is of, so
	// that one left with esc is taken up again.
	outline   []ship
	osel      int
	outlining bool
	outlineOf string
	pseq      int // the latest preview asked for
	pdone     int // the latest preview answered
}

// onUpdate runs after each update: it opens the setup editor when the
// seat's setup is due, and asks for a fresh Word Fight preview.
func (t *tableScreen) onUpdate() tea.Cmd {
	u := t.upd
	if u.Table.Status == "playing" {
		t.guideFirst()
	} else {
		t.guide = nil // over: the end screen has no part it speaks of
	}
	if (u.Table.Status == "open" || u.Table.Status == "setup") && u.Setup == nil && t.hasSetup() {
		return t.setup.start()
	}
	if u.Table.Status == "playing" && t.game == "wordfight" {
		return t.play.askPreview()
	}
	return nil
}

func (p *playScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case helperMsg:
		if strings.HasPrefix(msg.kind, "outline:") {
			return p.onOutlineFleet(msg)
		}
		return p.onPreview(msg)
	case tea.KeyPressMsg:
		return p.key(msg.String(), msg)
	}
	return nil
}

func (p *playScreen) key(s string, k tea.KeyPressMsg) tea.Cmd {
	if p.t.game == "quizl" && !p.quizlPlays() {
		// Out of the game: no line to type a move on.
		p.line = ""
		return p.quizlKey(s)
	}
	// A line being typed takes every key but enter and esc.
	typingGame := p.t.game == "quizl" || p.t.game == "nymphabet" || (p.t.game == "wordfight" && p.declaring())
	if p.line != "" || typingGame || strings.HasPrefix(s, ":") { // a key, or a paste of a move
		switch s {
		case "esc":
			p.line = ""
			return nil
		case "enter":
			if p.line != "" {
				return p.submitLine()
			}
		case "ctrl+u":
			// Clearing a move typed after ":" keeps the ":", so that
			// what is typed next is still the move, not keys aiming
			// and firing on the board; a second ctrl+u closes the line.
			if p.line != ":" && strings.HasPrefix(p.line, ":") {
				p.line = ":"
			} else {
				p.line = ""
			}
			return nil
		case ":":
			if p.line == ":" {
				// The ":" a ctrl+u kept, typed again out of habit:
				// the line is still the move's.
				return nil
			}
			if editLine(&p.line, s, k, 60) {
				return nil
			}
		default:
			if s != "up" && s != "down" && s != "left" && s != "right" && s != "tab" && s != "space" || p.line != "" {
				if editLine(&p.line, s, k, 60) {
					return nil
				}
			}
		}
	}
	switch p.t.game {
	case "quizl":
		return p.quizlKey(s)
	case "salvo":
		return p.salvoKey(s)
	case "wordfight":
		return p.wordfightKey(s)
	}
	return nil
}

// submitLine sends the typed line: ":" sends the rest as a move in the
// game's notation; otherwise each game reads the line its own way.
func (p *playScreen) submitLine() tea.Cmd {
	line := strings.TrimSpace(p.line)
	if raw, ok := strings.CutPrefix(line, ":"); ok {
		raw = strings.TrimSpace(raw)
		if sq := onlySquares(raw); p.t.game == "salvo" && sq != nil {
			// Squares alone are a salvo, as the browser's "Fire at"
			// box takes them.
			raw = "fire " + strings.Join(sq, " ")
		}
		return p.t.send(raw)
	}
	switch p.t.game {
	case "quizl":
		if isDigits(line) || strings.ContainsAny(line, " \t") {
			// A call, or more than a word: a move in the notation
			// ("say NAME WORD", or "call 72", whose refusal says how to
			// write it), which the referee reads as it is.
			return p.t.send(line)
		}
		var v quizlView
		json.Unmarshal(p.t.upd.View, &v)
		if len(v.Players) > 2 {
			bs := v.tracking()
			if p.board < len(bs) {
				return p.t.send("say " + bs[p.board].Name + " " + line)
			}
		}
		return p.t.send("say " + line)
	case "wordfight":
		if strings.ContainsAny(line, " \t") {
			return p.t.send(line) // "declare WORD", "place B2 down": the notation
		}
		return p.t.send("declare " + line)
	case "salvo":
		return p.t.send(line)
	}
	return p.t.send(line)
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
func (p *playScreen) cursor(s string, w, h int) bool {
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

func (p *playScreen) view() string {
	switch p.t.game {
	case "quizl":
		return p.quizlView()
	case "salvo":
		return p.salvoView()
	case "wordfight":
		return p.wordfightView()
	case "nymphabet":
		return p.nymphabetView()
	}
	return string(p.t.upd.View)
}

// footer is the play screen's last lines: the message, the typed line and
// the keys.
func (p *playScreen) footer(prompt, keys string) string {
	var b strings.Builder
	b.WriteString(p.t.message() + "\n")
	if p.t.watching() {
		// A spectator plays nothing: no line to type, and the keys of
		// watching only.
		prompt, keys = "", watchKeys
	}
	if p.t.replaying {
		prompt, keys = "", replayKeys(len(p.t.upd.Table.Seats))
	}
	if u := p.t.upd; u != nil && u.Table.DayOver && prompt != "" {
		// The server takes no move here but a resignation.
		prompt, keys = "Its day is over, so only :resign:", ":resign enter ends the attempt, unsolved · esc home · ? help"
	}
	if prompt != "" {
		b.WriteString(prompt + " " + tailOf(p.line, p.t.w-ansi.StringWidth(prompt)-2) + "█\n")
	}
	b.WriteString(faint(wrapKeys(keys, p.t.w)))
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

// logBlock is the latest events that fit in n lines, each wrapped to w
// columns with its further lines indented: an event cut short could hide
// its point ("wrong, 1 off your score"), which comes last. Only whole
// events are shown, since the end of one without its start is nobody's
// words; the latest alone, when taller than n, shows its last lines.
func (t *tableScreen) logBlock(n, w int) string {
	var lines []string
	for i := len(t.log) - 1; i >= 0 && n > 0; i-- {
		ev := hanging(t.log[i], w)
		if len(lines)+len(ev) > n {
			if len(lines) == 0 {
				lines = ev[len(ev)-n:]
			}
			break
		}
		lines = append(ev, lines...)
	}
	return strings.Join(lines, "\n")
}

// hanging wraps s to w columns, its lines after the first indented by
// two spaces; a word too long for a line is cut.
func hanging(s string, w int) []string {
	if ansi.StringWidth(s) <= w {
		return []string{s}
	}
	lines := strings.Split(wrap(s, max(1, w-2)), "\n")
	for i, l := range lines {
		if i > 0 {
			l = "  " + l
		}
		lines[i] = fit(l, w, 1)
	}
	return lines
}
