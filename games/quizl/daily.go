package quizl

import (
	"fmt"
	"slices"
	"strings"

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
// was announced, the calls, the wrong announcements, the squares called,
// and the trail of the moves' outcomes.
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
// solitaire game. Its trail marks a call a hit when the square holds a
// letter of the password: the moves in order, with no square named.
func (s *State) tally() game.Tally {
	p := s.pair(0, 0)
	t := game.Tally{Solved: p.outcome() == Right, Wrong: len(p.wrong)}
	line := s.grids[0].Line.Mask()
	var trail []byte
	for _, pl := range s.history {
		if pl.seat != 0 {
			continue
		}
		switch pl.kind {
		case kindCall:
			t.Moves++
			trail = append(trail, game.TrailMiss)
			if line&(1<<pl.square) != 0 {
				trail[len(trail)-1] = game.TrailHit
			}
		case kindSay:
			trail = append(trail, game.TrailRight)
			if slices.Contains(p.wrong, s.wordOf(pl)) {
				trail[len(trail)-1] = game.TrailWrong
			}
		}
	}
	t.Trail = trailRows(trail)
	t.Marks = game.Marks(Size, Size, func(r, c int) bool { return s.seats[0].called&(1<<(r*Size+c)) != 0 })
	return t
}

// trailRows lays a daily Quizl's trail out Size moves a row, so that a
// long hunt stays a small block to paste.
func trailRows(trail []byte) string {
	var b strings.Builder
	for i, c := range trail {
		if i > 0 && i%Size == 0 {
			b.WriteByte('/')
		}
		b.WriteByte(c)
	}
	return b.String()
}
