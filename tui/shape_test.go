package tui

import (
	"strings"
	"testing"
)

// TestShapeDrawn: on the new-table form of Word Fight, ctrl+e on the
// board's shape draws it: the board's squares at the size chosen, a key
// masking the square under the cursor or opening it again; enter writes
// the drawing into the field, esc leaves the field as it was, text that
// is no shape of the board is said so, and the table opened has the
// squares masked. A board of 30 by 30 fits the screen, its rows
// scrolling.
func TestShapeDrawn(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("4")
	tm.waitFor("the Word Fight form", has("Board width", "Board shape"))
	tm.key("down")
	tm.key("down")
	tm.key("6") // the width
	tm.key("down")
	tm.key("5") // the height
	tm.key("down")
	tm.waitFor("the shape's field", has("‹ 6 ›", "‹ 5 ›", "ctrl+e draw it"))
	tm.key("ctrl+e")
	tm.waitFor("the drawing", has("Board shape", "6 by 5", "0 squares masked", "A1: usable"))
	checkFits(t, tm)
	for _, k := range []string{"space", "right", "right", "space", "down", "x", "up", "left", "space", "space"} {
		tm.key(k)
	}
	tm.waitFor("three squares masked", has("3 squares masked", "B1: usable"))
	tm.key("enter")
	tm.waitFor("the form with the shape", has("#.#.../..#.../....../....../......"))
	tm.key("ctrl+e")
	tm.waitFor("the drawing again", has("3 squares masked"))
	tm.key("ctrl+u")
	tm.waitFor("every square open", has("0 squares masked"))
	tm.key("esc")
	tm.waitFor("the form, its shape as it was", has("#.#.../..#.../....../....../......"))
	// Text that is no shape of this board.
	tm.key("ctrl+u")
	tm.typeText("##")
	tm.key("ctrl+e")
	tm.waitFor("the drawing of no shape", has("no shape of this board", "0 squares masked"))
	tm.key("space")
	tm.key("enter")
	tm.waitFor("the drawing's text", has("#...../....../....../....../......"))
	// The table, against the computer.
	for range 4 {
		tm.key("up")
	}
	tm.waitFor("whom to play", has("> Play against"))
	tm.key("enter")
	tm.waitFor("the table", has("you: Ann"))
	var v struct {
		Table struct {
			Rules map[string]any `json:"rules"`
		} `json:"table"`
	}
	if err := getJSON(ts.URL+"/api/v1/tables/"+tm.table().id, tm.m.Token(), &v); err != nil || v.Table.Rules["shape"] != "#...../....../....../....../......" {
		t.Errorf("the table's rules: %v (%v)", v.Table.Rules, err)
	}

	// A board of 30 by 30: its columns after Z stand in two header
	// lines, and its rows scroll.
	tm.key("esc")
	tm.key("4")
	tm.waitFor("the form again", has("Board width"))
	tm.key("down")
	tm.key("down")
	tm.typeText("30")
	tm.key("down")
	tm.typeText("30")
	tm.key("down")
	tm.key("ctrl+e")
	s := tm.waitFor("the large drawing", has("30 by 30", "the arrows scroll"))
	if !strings.Contains(s, "A A A A") {
		t.Errorf("the columns after Z are not named:\n%s", s)
	}
	checkFits(t, tm)
	tm.key("up") // from row 1 to row 30
	tm.key("space")
	tm.waitFor("A30 masked", has("A30: masked", "rows"))
	checkFits(t, tm)
}

// TestReadShape: the shape's text read for a board of a size, and the
// drawing written back: every bad text reads as nothing masked, said to
// be no shape of the board.
func TestReadShape(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text   string
		w, h   int
		unread bool
		back   string // the drawing written again
	}{
		{"", 5, 5, false, ""},
		{"  ", 5, 5, false, ""},
		{"#..../...../...../...../....#", 5, 5, false, "#..../...../...../...../....#"},
		{" #..../.../", 5, 5, true, ""},
		{"...../...../...../...../.....", 5, 5, false, ""},
		{"#..../...../...../.....", 5, 5, true, ""},        // a row short
		{"#..../...../...x./...../.....", 5, 5, true, ""},  // not . nor #
		{"#..../...../....../...../.....", 5, 5, true, ""}, // a row too long
		{"#....#/....../....../....../......", 6, 5, false, "#....#/....../....../....../......"},
		{"#..../...../...../...../.....", 6, 5, true, ""}, // another board's
	} {
		mask, unread := readShape(tt.text, tt.w, tt.h)
		if len(mask) != tt.h || len(mask[0]) != tt.w {
			t.Errorf("readShape(%q, %d, %d) is %d rows of %d", tt.text, tt.w, tt.h, len(mask), len(mask[0]))
			continue
		}
		if unread != tt.unread {
			t.Errorf("readShape(%q, %d, %d): unread %v, want %v", tt.text, tt.w, tt.h, unread, tt.unread)
		}
		if got := shapeText(mask); got != tt.back {
			t.Errorf("readShape(%q, %d, %d) written again: %q, want %q", tt.text, tt.w, tt.h, got, tt.back)
		}
	}
}
