package salvo

import (
	"fmt"
	"strings"

	"parlour/game"
)

var _ game.Tallier = Game{}

// TallyWords names what a daily Salvo counts: salvos, and wrong outlines.
func (Game) TallyWords() game.TallyWords {
	return game.TallyWords{Move: "salvo", Moves: "salvos", Wrong: "wrong outline", Wrongs: "wrong outlines"}
}

// Tally returns a finished practice play (a one-seat table's, or
// NewPractice's) as a daily puzzle ranks and shares it, with nothing of
// the fleet in it: solved when the fleet was rightly outlined, the
// salvos, the wrong outlines, the squares fired at, and the trail of the
// moves' outcomes.
func (Game) Tally(st game.State) (game.Tally, error) {
	if err := game.CheckTally("Salvo", st); err != nil {
		return game.Tally{}, err
	}
	s, ok := st.(*State)
	if !ok {
		return game.Tally{}, fmt.Errorf("a play of %T is not a play of Salvo", st)
	}
	if !s.practice {
		return game.Tally{}, fmt.Errorf("a daily Salvo is practice against a hidden fleet; this play seats %d", s.n)
	}
	return s.tally(), nil
}

// tally summarises seat 0's play against the hidden fleet of practice.
// Its trail is a row a salvo, its hits first and then its misses, so
// that it tells how many shots found a ship but not which, and then a
// row an outline.
func (s *State) tally() game.Tally {
	t := game.Tally{Moves: s.nSalvo[0]}
	var trail []string
	for _, sv := range s.salvos {
		if sv.By != 0 {
			continue
		}
		hits := 0
		for _, n := range sv.Report.Hits {
			hits += n
		}
		trail = append(trail, strings.Repeat(string(game.TrailHit), hits)+strings.Repeat(string(game.TrailMiss), len(sv.Squares)-hits))
	}
	for _, o := range s.outlines {
		if o.By != 0 {
			continue
		}
		if o.Right {
			t.Solved = true
			trail = append(trail, string(game.TrailRight))
		} else {
			t.Wrong++
			trail = append(trail, string(game.TrailWrong))
		}
	}
	t.Trail = strings.Join(trail, "/")
	fired := s.fired[0*s.n+1]
	t.Marks = game.Marks(Size, Size, func(r, c int) bool { return fired.Has(At(r, c)) })
	return t
}
