package quizl

import (
	"strings"
	"testing"

	"parlour/game"
)

// TestTally plays solitaire grids to their ends: the tally counts the
// calls and the wrong announcements and pictures the called squares with
// no letter of the grid.
func TestTally(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		moves []string
		want  game.Tally
	}{
		{"solved after a wrong announcement", []string{"0:72", "0:say waves", "0:74", "0:50", "0:say psalm"},
			game.Tally{Solved: true, Moves: 3, Wrong: 1, Marks: "#..../...../..#.#/...../.....", Trail: ".x#.+"}},
		{"solved without a call", []string{"0:say psalm"},
			game.Tally{Solved: true, Marks: "...../...../...../...../.....", Trail: "+"}},
		{"resigned", []string{"0:94", "0:resign"},
			game.Tally{Moves: 1, Marks: "...../...../...../...../....#", Trail: "#"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := table(t, nil, []string{"Sol"}, seatGrid{specimen, "PSALM"})
			play(t, s, tc.moves...)
			got, err := Game{}.Tally(s)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("tally %+v, want %+v", got, tc.want)
			}
			if strings.ContainsAny(got.Marks, "PSALM") {
				t.Errorf("the marks give letters away: %q", got.Marks)
			}
		})
	}
}

// TestTallyRefuses: only a finished solitaire play of Quizl is tallied.
func TestTallyRefuses(t *testing.T) {
	t.Parallel()
	unfinished := table(t, nil, []string{"Sol"}, seatGrid{specimen, "PSALM"})
	play(t, unfinished, "0:72")
	pair := two(t, nil)
	play(t, pair, "0:resign", "1:resign")
	for _, tc := range []struct {
		name string
		st   game.State
		want string
	}{
		{"in progress", unfinished, "once it is over"},
		{"of two players", pair, "solitaire; this play seats 2"},
		{"of no play", nil, "no play of Quizl"},
	} {
		if _, err := (Game{}).Tally(tc.st); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

func TestTallyWords(t *testing.T) {
	t.Parallel()
	w := Game{}.TallyWords()
	for _, tc := range []struct {
		moves, wrong int
		want         string
	}{
		{1, 0, "1 call, 0 wrong announcements"},
		{3, 1, "3 calls, 1 wrong announcement"},
	} {
		if got := w.Counts(tc.moves, tc.wrong); got != tc.want {
			t.Errorf("Counts(%d, %d) = %q, want %q", tc.moves, tc.wrong, got, tc.want)
		}
	}
}
