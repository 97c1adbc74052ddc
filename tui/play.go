package tui

import (
	"encoding/json"
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
	if p.line != "" || typingGame || strings.HasPrefix(s, ":") { // a key, or a paste of a move
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
		b.WriteString(prompt + " " + tailOf(p.line, m.w-ansi.StringWidth(prompt)-2) + "█\n")
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
