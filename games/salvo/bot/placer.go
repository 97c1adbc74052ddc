package bot

import (
	"cmp"
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"parlour/game"
	"parlour/games/salvo"
)

// A trialRound of the placer's search keeps the keep candidates with the
// most salvos a trial game so far and plays each of them trials more
// trial games.
type trialRound struct{ keep, trials int }

// HardFleet returns a legal fleet under p that is slow to find for a
// shooter that aims where ships are most often found. It draws random
// legal fleets and keeps the least dense (by how often a random legal
// fleet covers their squares); then it tries the kept fleets against the
// fleet-density shooter (which reasons over every per-class report), in
// rounds that give more trial games to the fleets that took longest to
// sink so far, and returns the one that needed the most salvos a game,
// so that the choice is both hard to find and unpredictable.
//
// The search: 24 candidates one trial game each, the best 6 two more, the
// best 2 four more (44 games), then the one with the most salvos a game.
// Spending the trial games on the candidates that did well so far picks
// a harder fleet than spreading them evenly (8 candidates two games each,
// the placer before): one game says little (the game-to-game spread of
// salvos is about 4, the spread between candidates' true means about
// 1.5), so the games are best spent where they decide.
func HardFleet(ctx context.Context, r *rand.Rand, p salvo.Placement) salvo.Fleet {
	return hardFleet(ctx, r, p, []trialRound{{24, 1}, {6, 2}, {2, 4}})
}

// hardFleet is HardFleet with the search's rounds given. The trial games
// of a round are played on as many goroutines as GOMAXPROCS allows. When
// ctx is done it stops playing and returns the best fleet so far.
func hardFleet(ctx context.Context, r *rand.Rand, p salvo.Placement, rounds []trialRound) salvo.Fleet {
	s := salvo.NewSampler(p)
	var density [salvo.Squares]float64
	const priorDraws = 2000
	for range priorDraws {
		for _, q := range s.Fleet(r).Board().Squares() {
			density[q]++
		}
	}
	type candidate struct {
		f      salvo.Fleet
		v      float64 // density, then salvos a trial game
		salvos int
		played int
	}
	// About the least dense 3% of random fleets, of at least 300 (with
	// rounds {8, 2}, the placer before this search, game for game).
	draws := max(300, 30*rounds[0].keep)
	all := make([]candidate, draws)
	for i := range all {
		f := s.Fleet(r)
		v := 0.0
		for _, q := range f.Board().Squares() {
			v += density[q]
		}
		all[i] = candidate{f: f, v: v}
	}
	slices.SortFunc(all, func(a, b candidate) int { return cmp.Compare(a.v, b.v) })
	rules := game.Defaults(salvo.Game{}.Options())
	rules[salvo.OptDiagonal] = p.Diagonal
	if !p.Strict {
		rules[salvo.OptPlacement] = salvo.PlacementFree
	}
	for _, rd := range rounds {
		all = all[:min(rd.keep, len(all))]
		// The trial games' seeds are drawn in order before any is played,
		// so the games, and the fleet chosen, do not depend on how many
		// run at once.
		type trial struct {
			c, salvos int
			seed      uint64
			ok        bool
		}
		var ts []trial
		for i := range all {
			for range rd.trials {
				ts = append(ts, trial{c: i, seed: r.Uint64()})
			}
		}
		var next atomic.Int64
		var wg sync.WaitGroup
		for range min(runtime.GOMAXPROCS(0), len(ts)) {
			wg.Go(func() {
				for {
					j := int(next.Add(1)) - 1
					if j >= len(ts) || ctx.Err() != nil {
						return
					}
					t := &ts[j]
					k, _, err := Practice(ctx, rules, all[t.c].f, FleetDensity, t.seed, nil)
					// An error is a cancelled context: the fleet is legal.
					t.salvos, t.ok = k, err == nil
				}
			})
		}
		wg.Wait()
		for _, t := range ts {
			if t.ok {
				all[t.c].salvos += t.salvos
				all[t.c].played++
			}
		}
		for i := range all {
			c := &all[i]
			c.v = float64(c.salvos) / float64(max(c.played, 1))
		}
		// The most salvos a game first; stable, so ties keep the
		// less dense first.
		slices.SortStableFunc(all, func(a, b candidate) int { return cmp.Compare(b.v, a.v) })
		if ctx.Err() != nil {
			break
		}
	}
	return all[0].f
}
