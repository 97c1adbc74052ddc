package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// wrapKeys breaks a line of items joined by " · " ("r rules · t
// leaderboards", as a screen's last lines say what its keys do, or a
// game's result and its rating change) into lines of at most w columns
// between its items, each broken line ending in " ·", so that a key
// stays on the line of what it does and a rating's change reads whole;
// an item longer than a line breaks at spaces.
func wrapKeys(s string, w int) string {
	var items []string
	for _, it := range strings.Split(s, " · ") {
		if it = strings.Join(strings.Fields(it), " "); it != "" {
			items = append(items, it)
		}
	}
	var out []string
	line := ""
	for i, it := range items {
		// A line that another item follows keeps room for its " ·".
		room := w - 2
		if i == len(items)-1 {
			room = w
		}
		switch {
		case line == "":
			line = it
		case ansi.StringWidth(line)+3+ansi.StringWidth(it) <= room:
			line += " · " + it
		default:
			out = append(out, line+" ·")
			line = it
		}
		if ansi.StringWidth(line) > room {
			// An item longer than a line: its words that do not fit go
			// on the lines before.
			ls := strings.Split(wrap(line, room), "\n")
			out = append(out, ls[:len(ls)-1]...)
			line = ls[len(ls)-1]
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// wrap breaks text into lines of at most w columns at spaces.
func wrap(s string, w int) string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && ansi.StringWidth(line)+1+ansi.StringWidth(word) > w {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
