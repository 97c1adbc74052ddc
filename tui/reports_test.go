package tui

import (
	"fmt"
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
			tm.open("salvo", 0)
			tm.key("enter")
			tm.waitFor("the fleet editor", has("Place your fleet", "✓ the referee accepts"))
			tm.key("enter")
			tm.waitFor("play", has("▶ your turn", "Your ocean"))
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
