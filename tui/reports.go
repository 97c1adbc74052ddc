package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// reportsScreen is a list of lines the player scrolls through, over the
// play or end screen: every report of the game (the event log; a salvo's
// report is what Salvo's players deduce from, so none may be out of reach
// or cut short), or the engines' analysis of the finished game.
type reportsScreen struct {
	t   *tableScreen
	top int // the first line shown
	// head is the list's title; lines its lines, w columns wide.
	head  func() string
	lines func(w int) []string
	// empty says why there are no lines; back is the key, besides esc
	// and q, that closes the list, and what it goes back to.
	empty, back string
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
	t.reports = &reportsScreen{
		t: t, top: 1 << 30, // clamped to the end when drawn
		head: func() string { return fmt.Sprintf("Every report (%d)", len(t.log)) },
		lines: func(w int) []string {
			var lines []string
			for _, e := range t.reportLines(w) {
				lines = append(lines, e...)
			}
			return lines
		},
		empty: "no reports yet", back: "l back to the game",
	}
}

// openAnalysis opens the engines' analysis of the game, text as the
// server words it, at its start; each line too long for the screen is
// wrapped, its continuation indented.
func (t *tableScreen) openAnalysis(text string) {
	raw := strings.Split(strings.TrimRight(text, "\n"), "\n")
	t.reports = &reportsScreen{
		t:    t,
		head: func() string { return "The engines' analysis" },
		lines: func(w int) []string {
			var lines []string
			for _, l := range raw {
				indent := len(l) - len(strings.TrimLeft(l, " "))
				for i, part := range strings.Split(wrap(l, max(20, w-indent-2)), "\n") {
					lead := indent
					if i > 0 {
						lead += 2
					}
					lines = append(lines, strings.Repeat(" ", lead)+part)
				}
			}
			return lines
		},
		empty: "the engines had nothing to say", back: "a back to the game",
	}
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
	case "esc", "q", r.back[:1]:
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
	lines := r.lines(t.w)
	room := r.room()
	r.top = max(0, min(r.top, len(lines)-room))
	end := min(len(lines), r.top+room)
	var b strings.Builder
	head := r.head()
	if len(lines) > room {
		head += fmt.Sprintf(" · lines %d-%d of %d", r.top+1, end, len(lines))
	}
	b.WriteString(title(head) + "\n")
	if len(lines) == 0 {
		b.WriteString(faint(r.empty) + "\n")
	}
	for _, l := range lines[r.top:end] {
		b.WriteString(l + "\n")
	}
	for range room - max(1, end-r.top) {
		b.WriteString("\n")
	}
	b.WriteString(t.message() + "\n")
	b.WriteString(faint(wrapKeys("↑↓ scroll · pgup/pgdn a page · home/end first/last · esc or "+r.back, t.w)))
	return b.String()
}
