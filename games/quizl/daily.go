package quizl

import "strings"

// DailyTally is a one-seat play's result as a daily puzzle ranks and shares
// it, with no letter of the grid in it.
type DailyTally struct {
	// Solved is set when the password was announced.
	Solved bool
	// Moves counts the calls, Wrong the wrong announcements.
	Moves, Wrong int
	// Marks pictures the called squares row by row: "#" called, "."
	// not, rows separated by "/".
	Marks string
}

// DailyTally summarises seat 0's play against the grid it attacks, for a
// solitaire game; it is meant for a finished game.
func (s *State) DailyTally() DailyTally {
	t := DailyTally{Solved: s.pair(0, 0).outcome == Right, Wrong: len(s.pair(0, 0).wrong)}
	for _, p := range s.history {
		if p.seat == 0 && p.kind == kindCall {
			t.Moves++
		}
	}
	var b strings.Builder
	for r := range Size {
		if r > 0 {
			b.WriteByte('/')
		}
		for c := range Size {
			if s.called[0]&(1<<(r*Size+c)) != 0 {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
	}
	t.Marks = b.String()
	return t
}
