package bot

import (
	"math/rand/v2"
	"slices"

	"parlour/games/salvo"
)

// HardFleet returns a legal fleet under p that a shooter who starts where
// ships are most often found will reach late: it draws many random legal
// fleets, scores each by how often a random legal fleet covers its squares
// (the density a shooter aims at), and picks at random among the least
// dense few, so that the choice itself stays unpredictable.
func HardFleet(r *rand.Rand, p salvo.Placement) salvo.Fleet {
	s := salvo.NewSampler(p)
	var density [salvo.Squares]float64
	const priorDraws = 2000
	for range priorDraws {
		for _, q := range s.Fleet(r).Board().Squares() {
			density[q]++
		}
	}
	type scored struct {
		f salvo.Fleet
		v float64
	}
	const draws, keep = 400, 12
	all := make([]scored, draws)
	for i := range all {
		f := s.Fleet(r)
		v := 0.0
		for _, q := range f.Board().Squares() {
			v += density[q]
		}
		all[i] = scored{f, v}
	}
	slices.SortFunc(all, func(a, b scored) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	return all[r.IntN(keep)].f
}
