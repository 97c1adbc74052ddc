package quizl

import (
	"fmt"

	"parlour/game"
)

var _ game.Tallier = Game{}

// TallyWords names what a daily Quizl counts: calls, and wrong
// announcements.
func (Game) TallyWords() game.TallyWords {
	return game.TallyWords{Move: "call", Moves: "calls", Wrong: "wrong announcement", Wrongs: "wrong announcements"}
}

// Tally returns a finished solitaire play as a daily puzzle ranks and
// shares it, with no letter of the grid in it: solved when the password
// was announced, the calls, the wrong announcements, and the squares
// called.
func (Game) Tally(st game.State) (game.Tally, error) {
	if err := game.CheckTally("Quizl", st); err != nil {
		return game.Tally{}, err
	}
	s, ok := st.(*State)
	if !ok {
		return game.Tally{}, fmt.Errorf("a play of %T is not a play of Quizl", st)
	}
	if s.n != 1 {
		return game.Tally{}, fmt.Errorf("a daily Quizl is solitaire; this play seats %d", s.n)
	}
	return s.tally(), nil
}

// tally summarises seat 0's play against the grid it attacks, for a
// solitaire game.
func (s *State) tally() game.Tally {
	t := game.Tally{Solved: s.pair(0, 0).outcome() == Right, Wrong: len(s.pair(0, 0).wrong)}
	for _, p := range s.history {
		if p.seat == 0 && p.kind == kindCall {
			t.Moves++
		}
	}
	t.Marks = game.Marks(Size, Size, func(r, c int) bool { return s.seats[0].called&(1<<(r*Size+c)) != 0 })
	return t
}
