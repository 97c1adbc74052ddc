package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// reportsScreen is the list of every report of the game (the event log),
// which the player scrolls through, over the play or end screen: a
// salvo's report is what Salvo's players deduce from, so none may be out
// of reach or cut short.
type reportsScreen struct {
	t   *tableScreen
	top int // the first line shown
}

// reportLines is the event log wrapped to w columns, each event's
// continuation lines indented, so that no event is cut at the edge.
func (t *tableScreen) reportLines(w int) [][]string {
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
// when the whole does not fit (l lists every report whole). The report
// of the player's own latest move stays in sight too, whole, when it
// fits beside the newest event: the computer answers a salvo at once,
// and its long report would otherwise push out the one the player
// deduces from. The events between the two then show as many lines as
// are left, the oldest of them its first lines.
func (t *tableScreen) wrappedLog(n, w int) string {
	events := t.reportLines(w)
	latest := latestLines(events, n)
	from, to := t.ownLatest()
	if from == to || to == len(events) || len(slices.Concat(events[from:]...)) <= n {
		return strings.Join(latest, "\n")
	}
	own, newest := slices.Concat(events[from:to]...), events[len(events)-1]
	if len(own)+len(newest) > n {
		return strings.Join(latest, "\n") // the newest comes first
	}
	between := latestLines(events[to:len(events)-1], n-len(own)-len(newest))
	return strings.Join(slices.Concat(own, between, newest), "\n")
}

// latestLines is the last n lines of events, the oldest event shown
// giving its first lines when the whole does not fit.
func latestLines(events [][]string, n int) []string {
	var lines []string
	for i := len(events) - 1; i >= 0 && len(lines) < n; i-- {
		e := events[i]
		if len(lines)+len(e) > n {
			e = e[:n-len(lines)]
		}
		lines = append(append([]string(nil), e...), lines...)
	}
	return lines
}

// room is how many lines of the list fit on the screen, under the
// table's first line and the list's title, above the message and keys.
func (r *reportsScreen) room() int {
	return max(1, r.t.h-4-r.t.msgExtra())
}

// openReports opens the list of reports at its end, the latest ones.
func (t *tableScreen) openReports() {
	t.reports = &reportsScreen{t: t, top: 1 << 30} // clamped to the end when drawn
}

func (r *reportsScreen) update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		r.key(k.String())
	}
	return nil
}

// key scrolls the list of reports, or closes it.
func (r *reportsScreen) key(s string) {
	room := r.room()
	switch s {
	case "esc", "q", "l":
		r.t.reports = nil
	case "up", "k":
		r.top--
	case "down", "j":
		r.top++
	case "pgup", "b":
		r.top -= room
	case "pgdown", "space", "f":
		r.top += room
	case "home", "g":
		r.top = 0
	case "end", "G":
		r.top = 1 << 30
	}
}

// view is the list of every report, scrolled to top.
func (r *reportsScreen) view() string {
	t := r.t
	var lines []string
	for _, e := range t.reportLines(t.w) {
		lines = append(lines, e...)
	}
	room := r.room()
	r.top = max(0, min(r.top, len(lines)-room))
	end := min(len(lines), r.top+room)
	var b strings.Builder
	head := fmt.Sprintf("Every report (%d)", len(t.log))
	if len(lines) > room {
		head += fmt.Sprintf(" · lines %d-%d of %d", r.top+1, end, len(lines))
	}
	b.WriteString(title(head) + "\n")
	if len(lines) == 0 {
		b.WriteString(faint("no reports yet") + "\n")
	}
	for _, l := range lines[r.top:end] {
		b.WriteString(l + "\n")
	}
	for range room - max(1, end-r.top) {
		b.WriteString("\n")
	}
	b.WriteString(t.message() + "\n")
	b.WriteString(faint(wrap("↑↓ scroll · pgup/pgdn a page · home/end first/last · esc or l back to the game", t.w)))
	return b.String()
}
