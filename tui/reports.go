package tui

import (
	"fmt"
	"strings"
)

// reportsState is the list of every report of the game (the event log),
// which the player scrolls through: a salvo's report is what Salvo's
// players deduce from, so none may be out of reach or cut short.
type reportsState struct {
	open bool
	top  int // the first line shown
}

// reportLines is the event log wrapped to w columns, each event's
// continuation lines indented, so that no event is cut at the edge.
func (t *session) reportLines(w int) [][]string {
	out := make([][]string, 0, len(t.log))
	for _, e := range t.log {
		lines := strings.Split(wrap(e, w-2), "\n")
		for i := range lines {
			if i > 0 {
				lines[i] = "  " + lines[i]
			}
		}
		out = append(out, lines)
	}
	return out
}

// wrappedLog is the latest events in n lines of w columns, wrapped
// rather than cut at the edge; the oldest of them shows its first lines
// when the whole does not fit (l lists every report whole).
func (m *Model) wrappedLog(n, w int) string {
	events := m.t.reportLines(w)
	var lines []string
	for i := len(events) - 1; i >= 0 && len(lines) < n; i-- {
		e := events[i]
		if len(lines)+len(e) > n {
			e = e[:n-len(lines)]
		}
		lines = append(append([]string(nil), e...), lines...)
	}
	return strings.Join(lines, "\n")
}

// reportsRoom is how many lines of the list fit on the screen, under the
// table's first line and the list's title, above the message and keys.
func (m *Model) reportsRoom() int {
	return max(1, m.h-4-m.msgExtra())
}

// openReports opens the list of reports at its end, the latest ones.
func (m *Model) openReports() {
	t := m.t
	t.reports.open = true
	t.reports.top = 1 << 30 // clamped to the end when drawn
}

// reportsKey scrolls the list of reports, or closes it.
func (m *Model) reportsKey(s string) {
	t := m.t
	room := m.reportsRoom()
	switch s {
	case "esc", "q", "l":
		t.reports.open = false
	case "up", "k":
		t.reports.top--
	case "down", "j":
		t.reports.top++
	case "pgup", "b":
		t.reports.top -= room
	case "pgdown", "space", "f":
		t.reports.top += room
	case "home", "g":
		t.reports.top = 0
	case "end", "G":
		t.reports.top = 1 << 30
	}
}

// reportsView is the list of every report, scrolled to reports.top.
func (m *Model) reportsView() string {
	t := m.t
	var lines []string
	for _, e := range t.reportLines(m.w) {
		lines = append(lines, e...)
	}
	room := m.reportsRoom()
	t.reports.top = max(0, min(t.reports.top, len(lines)-room))
	end := min(len(lines), t.reports.top+room)
	var b strings.Builder
	head := fmt.Sprintf("Every report (%d)", len(t.log))
	if len(lines) > room {
		head += fmt.Sprintf(" · lines %d-%d of %d", t.reports.top+1, end, len(lines))
	}
	b.WriteString(title(head) + "\n")
	if len(lines) == 0 {
		b.WriteString(faint("no reports yet") + "\n")
	}
	for _, l := range lines[t.reports.top:end] {
		b.WriteString(l + "\n")
	}
	for range room - max(1, end-t.reports.top) {
		b.WriteString("\n")
	}
	b.WriteString(m.message() + "\n")
	b.WriteString(faint(wrap("↑↓ scroll · pgup/pgdn a page · home/end first/last · esc or l back to the game", m.w)))
	return b.String()
}
