package salvo

import "strings"

// DailyTally is a practice play's result as a daily puzzle ranks and shares
// it, with nothing of the fleet in it.
type DailyTally struct {
	// Solved is set when the fleet was rightly outlined.
	Solved bool
	// Moves counts the salvos, Wrong the wrong outlines.
	Moves, Wrong int
	// Marks pictures the squares fired at row by row: "#" fired, "."
	// not, rows separated by "/".
	Marks string
}

// DailyTally summarises seat 0's play against the hidden fleet of a one-seat
// game (or NewPractice's); it is meant for a finished game.
func (s *State) DailyTally() DailyTally {
	t := DailyTally{Moves: s.nSalvo[0]}
	for _, o := range s.outlines {
		if o.By != 0 {
			continue
		}
		if o.Right {
			t.Solved = true
		} else {
			t.Wrong++
		}
	}
	fired := s.fired[0*s.n+1]
	var b strings.Builder
	for r := range Size {
		if r > 0 {
			b.WriteByte('/')
		}
		for c := range Size {
			if fired.Has(At(r, c)) {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
	}
	t.Marks = b.String()
	return t
}
