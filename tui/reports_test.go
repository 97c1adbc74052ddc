package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// flat is s with its lines joined and its runs of spaces made one, so
// that a text wrapped over lines is found whole.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestSalvoReportsWhole: at 80 and 100 columns, with names long enough
// that every report is wider than 80 columns, no report is cut short on
// the play screen (the latest shows whole, wrapped), and l opens the list
// of every report, which scrolls over each of them whole, before and
// after the end.
func TestSalvoReportsWhole(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {100, 30}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			t.Parallel()
			ts := newTestServer(t)
			tm := newTerm(t, ts.URL, "Annabel Lee-Smith Jr III", w, h)
			salvoAgainstTheComputer(tm)
			next := 0
			for salvo := 1; salvo <= 10; salvo++ {
				var v salvoView
				tm.view(&v)
				var sq []string
				for range v.Shots {
					sq = append(sq, sqName(next%10, next/10))
					next++
				}
				tm.typeText(":fire " + strings.Join(sq, " "))
				tm.key("enter")
				s := tm.waitFor("the salvo's report", func(s string) bool {
					return over(s) || strings.Contains(strings.Join(tm.table().log, "\n"), fmt.Sprintf("fired salvo %d at Annabel", salvo)) && strings.Contains(s, "▶ your turn")
				})
				if over(s) {
					break
				}
				checkFits(t, tm)
				if strings.Contains(s, "…") {
					t.Fatalf("a line is cut short:\n%s", s)
				}
				last := tm.table().log[len(tm.table().log)-1]
				if !strings.Contains(flat(s), flat(last)) {
					t.Fatalf("the latest report %q is not whole on the screen:\n%s", last, s)
				}
			}
			long := false
			for _, e := range tm.table().log {
				long = long || len(e) > 80
			}
			if !long {
				t.Fatalf("no report is wider than 80 columns: the test needs longer ones:\n%s", strings.Join(tm.table().log, "\n"))
			}
			readAll := func() {
				t.Helper()
				tm.key("l")
				s := tm.waitFor("the list", has(fmt.Sprintf("Every report (%d)", len(tm.table().log))))
				if !strings.Contains(s, "lines ") {
					t.Fatalf("the reports fit one screen: the test needs more:\n%s", s)
				}
				tm.key("g")
				seen := map[string]bool{}
				for range 500 {
					s = tm.screen()
					checkFits(t, tm)
					if strings.Contains(s, "…") {
						t.Fatalf("a line of the list is cut short:\n%s", s)
					}
					for _, e := range tm.table().log {
						if strings.Contains(flat(s), flat(e)) {
							seen[e] = true
						}
					}
					before := s
					tm.key("j")
					if tm.screen() == before {
						break
					}
				}
				for _, e := range tm.table().log {
					if !seen[e] {
						t.Errorf("the report %q never showed whole in the list", e)
					}
				}
				tm.key("esc")
			}
			readAll()
			// The computer may have ended the game meanwhile (an outline
			// of the fleet that was wrong loses it): then the end screen
			// is back instead of the game.
			s := tm.waitFor("back to the game", func(s string) bool { return over(s) || strings.Contains(s, "Your ocean") })
			if !over(s) {
				tm.typeText(":resign")
				tm.key("enter")
				tm.key("enter") // the first asks
				tm.waitFor("the end", over)
			}
			if s := tm.screen(); !strings.Contains(s, "l every report") {
				t.Fatalf("the end screen does not offer the reports:\n%s", s)
			}
			readAll()
			tm.waitFor("back to the end", over)
		})
	}
}

// TestWrappedLogKeepsOwnReport: under the oceans, the report of the
// player's own latest move stays whole beside the newest event when the
// others' reports since would push it out; the newest stays whole first,
// and a spectator, who has no move, sees the latest events as they come.
func TestWrappedLogKeepsOwnReport(t *testing.T) {
	t.Parallel()
	long := "Computer fired salvo 3 at Ann: A1 B2 C3 D4: one in the cruiser, two in the battleship"
	// part is event i of the log, shown whole (lines < 0) or its first lines.
	type part struct{ i, lines int }
	cases := []struct {
		name  string
		seat  int
		log   []string
		by    []logMove
		n     int
		shown []part
	}{
		{"spectator", -1, []string{"Ann fired salvo 3", long, "your fleet is hit"},
			[]logMove{{0, 5}, {1, 6}, {1, 6}}, 3, []part{{1, 2}, {2, -1}}},
		{"own move newest", 0, []string{long, "Ann fired salvo 3", "it sank the cruiser"},
			[]logMove{{1, 4}, {0, 5}, {0, 5}}, 3, []part{{0, 1}, {1, -1}, {2, -1}}},
		{"everything since fits", 0, []string{"Ann fired salvo 3", "Computer fired salvo 3", "your fleet is hit"},
			[]logMove{{0, 5}, {1, 6}, {1, 6}}, 3, []part{{0, -1}, {1, -1}, {2, -1}}},
		{"own pushed out", 0, []string{"Ann fired salvo 3", long, "your fleet is hit"},
			[]logMove{{0, 5}, {1, 6}, {1, 6}}, 3, []part{{0, -1}, {1, 1}, {2, -1}}},
		{"a move's events together", 0, []string{"Ann fired salvo 3", "every ship is sunk", long, "your fleet is hit"},
			[]logMove{{0, 5}, {0, 5}, {1, 6}, {1, 6}}, 4, []part{{0, -1}, {1, -1}, {2, 1}, {3, -1}}},
		{"nothing between fits", 0, []string{"Ann fired salvo 3", long, "your fleet is hit"},
			[]logMove{{0, 5}, {1, 6}, {1, 6}}, 2, []part{{0, -1}, {2, -1}}},
		{"own and newest do not fit", 0, []string{"Ann fired salvo 3", "Computer fired salvo 3", long},
			[]logMove{{0, 5}, {1, 6}, {1, 7}}, 4, []part{{2, -1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ts := &tableScreen{seat: c.seat, log: c.log, logBy: c.by}
			events := ts.reportLines(30)
			if i := slices.Index(c.log, long); i >= 0 && len(events[i]) != 4 {
				t.Fatalf("the long report takes %d lines at 30 columns: the test needs four", len(events[i]))
			}
			var want []string
			for _, p := range c.shown {
				e := events[p.i]
				if p.lines >= 0 {
					e = e[:p.lines]
				}
				want = append(want, e...)
			}
			if got := ts.wrappedLog(c.n, 30); got != strings.Join(want, "\n") {
				t.Errorf("in %d lines:\n%s\nwant\n%s", c.n, got, strings.Join(want, "\n"))
			}
		})
	}
}
