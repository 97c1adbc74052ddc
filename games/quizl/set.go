package quizl

// Set carries scores from game to game of a set. The set ends after the
// game in which somebody's total reaches the target (rule option
// set_target); the highest total wins, and a tie at the top plays another
// game.
type Set struct {
	// Target is the total that ends the set.
	Target int
	// Totals holds each seat's total so far.
	Totals []int
	// Games counts the games added.
	Games int
}

// NewSet starts a set for players seats with target (set_target).
func NewSet(players, target int) *Set {
	return &Set{Target: target, Totals: make([]int, players)}
}

// Add adds one game's scores, seat by seat, to the totals. It reports
// whether the set is over and, if so, the seats with the highest total.
// A set that reached the target with a tie at the top is not over: the
// tied players play another game.
func (s *Set) Add(scores []int) (over bool, winners []int) {
	s.Games++
	for i := range s.Totals {
		if i < len(scores) {
			s.Totals[i] += scores[i]
		}
	}
	return s.Over()
}

// Over reports whether the set is over and, if so, its winners.
func (s *Set) Over() (bool, []int) {
	best, reached := 0, false
	for i, t := range s.Totals {
		if i == 0 || t > best {
			best = t
		}
		reached = reached || t >= s.Target
	}
	if !reached || len(s.Totals) == 0 {
		return false, nil
	}
	var w []int
	for i, t := range s.Totals {
		if t == best {
			w = append(w, i)
		}
	}
	if len(w) > 1 && len(s.Totals) > 1 {
		return false, nil
	}
	return true, w
}
