package tui

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// howToScreen is a game's rules, as the server words them for its rules
// page (GET /rules/GAME.md), to scroll through: what a player reads
// before a first game, as the browser's rules pages have it.
type howToScreen struct {
	*shared
	game, title string
	text        string // the rules as Markdown; "" while asked for
	top         int    // the first line shown
	back        screen // where esc goes back to
}

// howToMsg is a game's rules, or why they could not be read.
type howToMsg struct {
	game string
	text string
	err  error
}

// openHowTo shows the rules of game g, from screen back.
func openHowTo(sh *shared, g string, back screen) tea.Cmd {
	hs := &howToScreen{shared: sh, game: g, title: sh.gameTitle(g), back: back}
	sh.err, sh.note = "", ""
	sh.nav.show(hs)
	c := *sh.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, 15*time.Second)
		defer cancel()
		text, err := c.Rules(ctx, g)
		return howToMsg{g, text, err}
	}
}

func (hs *howToScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case howToMsg:
		if msg.game != hs.game {
			return nil
		}
		if msg.err != nil {
			hs.err = "the rules of " + hs.title + ": " + msg.err.Error()
			return nil
		}
		hs.text = msg.text
	case tea.KeyPressMsg:
		room := hs.room()
		switch msg.String() {
		case "esc", "q":
			hs.err, hs.note = "", ""
			hs.nav.show(hs.back)
		case "up", "k":
			hs.top--
		case "down", "j":
			hs.top++
		case "pgup", "b":
			hs.top -= room
		case "pgdown", "space", "f":
			hs.top += room
		case "home", "g":
			hs.top = 0
		case "end", "G":
			hs.top = 1 << 30
		}
	}
	return nil
}

// room is how many lines of the rules fit under the title, above the
// message and the keys.
func (hs *howToScreen) room() int { return max(1, hs.h-4-hs.msgExtra()) }

func (hs *howToScreen) view() string {
	var b strings.Builder
	lines := markdownLines(hs.text, hs.w)
	room := hs.room()
	hs.top = max(0, min(hs.top, len(lines)-room))
	end := min(len(lines), hs.top+room)
	head := "How to play " + hs.title
	if len(lines) > room {
		head += fmt.Sprintf(" · lines %d-%d of %d", hs.top+1, end, len(lines))
	}
	b.WriteString(title(head) + "\n")
	if hs.text == "" && hs.err == "" {
		b.WriteString(faint("asking the server for the rules…") + "\n")
	}
	for _, l := range lines[hs.top:end] {
		b.WriteString(l + "\n")
	}
	for range room - max(1, end-hs.top) {
		b.WriteString("\n")
	}
	b.WriteString(hs.message() + "\n")
	b.WriteString(faint(wrapKeys("↑↓ scroll · pgup/pgdn a page · home/end first/last · esc back", hs.w)))
	return b.String()
}

// markdownLines draws Markdown as lines of at most w columns for a
// terminal: headings as titles, paragraphs and list items wrapped (an
// item's lines after its first indented), tables' rows with their cells
// apart, code as it is, indented; inline marks (`code`, *emphasis*,
// [links](to)) give their text alone.
func markdownLines(md string, w int) []string {
	inline := regexp.MustCompile("`([^`]*)`|\\*\\*([^*]+)\\*\\*|\\*([^*]+)\\*|\\[([^\\]]+)\\]\\([^)]*\\)")
	plain := func(s string) string {
		return inline.ReplaceAllStringFunc(s, func(m string) string {
			for _, g := range inline.FindStringSubmatch(m)[1:] {
				if g != "" {
					return g
				}
			}
			return ""
		})
	}
	var out, para []string
	mark := "" // the list item's marker of the paragraph, "" for none
	flush := func() {
		if len(para) == 0 {
			return
		}
		text := plain(strings.Join(para, " "))
		ind := strings.Repeat(" ", len(mark))
		for i, l := range strings.Split(wrap(text, max(10, w-len(mark))), "\n") {
			if i == 0 {
				out = append(out, mark+l)
			} else {
				out = append(out, ind+l)
			}
		}
		para, mark = nil, ""
	}
	blank := func() {
		if len(out) > 0 && out[len(out)-1] != "" {
			out = append(out, "")
		}
	}
	code := false
	for _, l := range strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "```"):
			flush()
			code = !code
		case code:
			out = append(out, fit("    "+l, w, 1))
		case t == "":
			flush()
			blank()
		case strings.HasPrefix(t, "#"):
			flush()
			blank()
			out = append(out, title(fit(plain(strings.TrimSpace(strings.TrimLeft(t, "#"))), w, 1)))
		case strings.HasPrefix(t, "|"):
			flush()
			cells := strings.Split(strings.Trim(t, "|"), "|")
			if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
				continue // the row under a table's head
			}
			for i := range cells {
				cells[i] = fmt.Sprintf("%-14s", plain(strings.TrimSpace(cells[i])))
			}
			out = append(out, fit("  "+strings.TrimRight(strings.Join(cells, " "), " "), w, 1))
		case listItem(t) != "" && (len(l)-len(strings.TrimLeft(l, " ")) < 2 || mark == ""):
			flush()
			m := listItem(t)
			mark = m
			para = []string{strings.TrimSpace(t[len(strings.TrimSpace(m)):])}
		default:
			para = append(para, t)
		}
	}
	flush()
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// listItem is the marker a list item's line begins with, as drawn ("- ",
// "1. "), or "" when the line is no list item.
func listItem(t string) string {
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") {
		return "- "
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(t) && t[i] == '.' && t[i+1] == ' ' {
		return t[:i+2]
	}
	return ""
}
