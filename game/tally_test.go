package game

import (
	"strings"
	"testing"
)

func TestTallyWordsCounts(t *testing.T) {
	t.Parallel()
	w := TallyWords{Move: "call", Moves: "calls", Wrong: "wrong announcement", Wrongs: "wrong announcements"}
	for _, tc := range []struct {
		moves, wrong int
		want         string
	}{
		{0, 0, "0 calls, 0 wrong announcements"},
		{1, 1, "1 call, 1 wrong announcement"},
		{3, 2, "3 calls, 2 wrong announcements"},
	} {
		if got := w.Counts(tc.moves, tc.wrong); got != tc.want {
			t.Errorf("Counts(%d, %d) = %q, want %q", tc.moves, tc.wrong, got, tc.want)
		}
	}
}

func TestMarks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		rows, cols int
		used       func(r, c int) bool
		want       string
	}{
		{"none used", 2, 3, func(int, int) bool { return false }, ".../..."},
		{"all used", 2, 2, func(int, int) bool { return true }, "##/##"},
		{"the diagonal", 3, 3, func(r, c int) bool { return r == c }, "#../.#./..#"},
		{"one row", 1, 4, func(_, c int) bool { return c%2 == 1 }, ".#.#"},
		{"a tall board reads by rows", 3, 1, func(r, _ int) bool { return r == 2 }, "././#"},
		{"no board", 0, 5, func(int, int) bool { return true }, ""},
	} {
		if got := Marks(tc.rows, tc.cols, tc.used); got != tc.want {
			t.Errorf("%s: Marks = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCheckTally(t *testing.T) {
	t.Parallel()
	st, _ := nim{}.New(Config{Players: []string{"Ann"}, Rules: Rules{"pile": 2}}, nil)
	if err := CheckTally("Nim", st); err == nil || !strings.Contains(err.Error(), "once it is over") {
		t.Errorf("a play in progress: %v", err)
	}
	if _, err := st.Apply(0, "2"); err != nil {
		t.Fatal(err)
	}
	if err := CheckTally("Nim", st); err != nil {
		t.Errorf("a finished play: %v", err)
	}
	if err := CheckTally("Nim", nil); err == nil || !strings.Contains(err.Error(), "no play of Nim") {
		t.Errorf("no play: %v", err)
	}
}
