package bot

import (
	"context"
	"math/rand/v2"
	"slices"

	"parlour/game"
	"parlour/games/salvo"
)

// HardFleet returns a legal fleet under p that is slow to find for a
// shooter that aims where ships are most often found. It draws random
// legal fleets and keeps the least dense (by how often a random legal
// fleet covers their squares); then it tries each kept fleet against the
// fleet-density shooter (which reasons over every per-class report) and
// returns the one that shooter needed the most salvos to sink, so that the
// choice is both hard to find and unpredictable.
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
	const draws, keep, trials = 300, 8, 2
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
	rules := game.Defaults(salvo.Game{}.Options())
	rules[salvo.OptDiagonal] = p.Diagonal
	if !p.Strict {
		rules[salvo.OptPlacement] = salvo.PlacementFree
	}
	best, bestN := all[0].f, -1
	for _, c := range all[:keep] {
		n := 0
		for range trials {
			k, _, err := Practice(context.Background(), rules, c.f, FleetDensity, r.Uint64(), nil)
			if err != nil {
				continue // cannot happen: the fleet is legal
			}
			n += k
		}
		if n > bestN {
			best, bestN = c.f, n
		}
	}
	return best
}
