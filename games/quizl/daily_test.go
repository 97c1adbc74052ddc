package quizl

import "testing"

// TestDailyTally plays a solitaire grid to a right announcement after a
// wrong one: the tally counts the calls and the wrong announcement and
// pictures the called squares with no letter.
func TestDailyTally(t *testing.T) {
	s := table(t, nil, []string{"Sol"}, seatGrid{specimen, "PSALM"})
	play(t, s, "0:72", "0:say waves", "0:74", "0:50", "0:say psalm")
	got := s.DailyTally()
	want := DailyTally{Solved: true, Moves: 3, Wrong: 1, Marks: "#..../...../..#.#/...../....."}
	if got != want {
		t.Errorf("tally %+v, want %+v", got, want)
	}
	s = table(t, nil, []string{"Sol"}, seatGrid{specimen, "PSALM"})
	play(t, s, "0:94", "0:resign")
	if got := s.DailyTally(); got.Solved || got.Moves != 1 || got.Marks != "...../...../...../...../....#" {
		t.Errorf("resigned: %+v", got)
	}
}
