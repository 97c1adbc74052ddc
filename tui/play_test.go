package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// TestLogBlockWholeEvents: a log trimmed to its room keeps whole events,
// the latest ones: the end of a wrapped event never shows without its
// start ("  = 0 points" alone at the top), at Quizl's column and Word
// Fight's as in the block itself.
func TestLogBlockWholeEvents(t *testing.T) {
	t.Parallel()
	log := []string{
		"Ann called 72: Q in Ben's grid",
		"Ben called 55 and found nothing in Ann's grid at all = 0 points",
		"Ann announced CRANE for Ben: right, 17 points",
		"Ben called 56 and found nothing in Ann's grid at all = 0 points",
	}
	ts := &tableScreen{shared: &shared{w: 80, h: 24}, log: log}
	for n := 1; n <= 8; n++ {
		lines := strings.Split(ts.logBlock(n, 44), "\n")
		if len(lines) > n {
			t.Errorf("%d lines in a room of %d:\n%s", len(lines), n, strings.Join(lines, "\n"))
		}
		if n >= 2 && strings.HasPrefix(lines[0], " ") {
			t.Errorf("room of %d: the log starts in the middle of an event:\n%s", n, strings.Join(lines, "\n"))
		}
		if last := lines[len(lines)-1]; !strings.HasSuffix(last, "= 0 points") {
			t.Errorf("room of %d: the latest event's end is not last:\n%s", n, strings.Join(lines, "\n"))
		}
	}

	// A Quizl screen whose log has room for part of it.
	blank := []string{".....", ".....", ".....", ".....", "....."}
	v := quizlView{Seat: 0, Players: []string{"Ann", "Ben", "Cy"}, Scores: make([]int, 3), Grid: blank, Password: "CRANE"}
	for i, n := range v.Players {
		v.Boards = append(v.Boards, quizlBoard{Seat: i, Name: n, Grid: blank})
	}
	view, _ := json.Marshal(v)
	long := "Ben called 55 and found nothing in the grids of Ann and Cy, who both hoped for more = 0 points"
	ts = &tableScreen{shared: &shared{w: 80, h: 24}, game: "quizl", upd: &client.Update{View: view}}
	for i, n := range v.Players {
		ts.upd.Table.Seats = append(ts.upd.Table.Seats, client.Seat{Seat: i, Name: n})
	}
	for range 8 {
		ts.log = append(ts.log, long)
	}
	s := ansi.Strip((&playScreen{t: ts}).quizlView())
	var right []string
	for _, l := range strings.Split(s, "\n") {
		if r := []rune(l); len(r) > 36 {
			right = append(right, strings.TrimRight(string(r[36:]), " "))
		}
	}
	at := -1
	for i, l := range right {
		if strings.HasPrefix(l, "Ben called 55") {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatalf("no event in view:\n%s", s)
	}
	if prev := right[at-1]; strings.HasPrefix(prev, "  ") {
		t.Errorf("the end of an event stands alone above the log (%q):\n%s", prev, s)
	}
}
