package bot

import (
	"context"
	"fmt"
	"math"
	"sync"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

// trial plays a solitaire game of solver against g, under the default
// rules, at a table seeded seed, and returns what the grid cost the
// solver: the squares it called and its wrong announcements, each a point
// off its score.
func trial(ctx context.Context, solver player, g *quizl.Grid, seed uint64, lex *lexicon.Lexicon) (int, error) {
	p, err := playGame(ctx, []player{solver}, []*quizl.Grid{g}, seed, lex, nil)
	if err != nil {
		return 0, fmt.Errorf("quizl trial: %w", err)
	}
	return p.calls + p.wrong, nil
}

// seat is one solver of a grid maker's panel: the solver, the seed of the
// table it plays every filling at, and the group it counts in (one group
// per solver of the level's panel, however many tables it plays).
type seat struct {
	solver player
	seed   uint64
	group  int
}

// hardest plays every grid of gs against every seat of panel, each seat at
// its own table seed whichever the grid, and returns the index of the grid
// that cost the panel most (see trial); ties go to the earlier grid. A
// grid's cost to a group is its seats' mean cost over norm[group] (what
// the group's solver pays on a random grid, so that every group counts
// alike), and the grid's worth mixes the mean of its groups' costs with
// their least, mix of the least: a grid that costs one solver much and
// another nothing is worth less than one that costs both alike. The games
// run side by side, one goroutine each.
func hardest(ctx context.Context, gs []*quizl.Grid, panel []seat, norm []float64, mix float64, lex *lexicon.Lexicon) (int, error) {
	cost := make([]int, len(gs)*len(panel))
	errs := make([]error, len(cost))
	var wg sync.WaitGroup
	for i, g := range gs {
		for j, s := range panel {
			wg.Go(func() {
				cost[i*len(panel)+j], errs[i*len(panel)+j] = trial(ctx, s.solver, g, s.seed, lex)
			})
		}
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	best, bestWorth := 0, math.Inf(-1)
	sum := make([]float64, len(norm))
	n := make([]int, len(norm))
	for i := range gs {
		clear(sum)
		clear(n)
		for j, s := range panel {
			sum[s.group] += float64(cost[i*len(panel)+j])
			n[s.group]++
		}
		mean, least := 0.0, math.Inf(1)
		for g := range norm {
			c := sum[g] / float64(max(n[g], 1)) / norm[g]
			mean += c / float64(len(norm))
			least = min(least, c)
		}
		if w := (1-mix)*mean + mix*least; w > bestWorth+1e-12 {
			best, bestWorth = i, w
		}
	}
	return best, nil
}

// The names of the baselines a grid maker's panel may hold beside the
// levels.
const (
	panelLine = "line-probability"
	panelInfo = "information-seeking"
	// panelShadow is the adversary of two-player games only: it never
	// announces, so no grid maker's panel seats it.
	panelShadow = "line-shadowing"
	// panelBayes is the Bayesian baseline.
	panelBayes = "bayesian"
)

// randomCalls is about what the solver a panel names pays, in calls and
// wrong announcements, to find a common password in a grid filled at
// random (the bench's random grids): hardest weighs each solver's trial
// costs by it, so that a solver that needs few calls everywhere counts as
// much as one that needs many.
func randomCalls(name string) float64 {
	switch name {
	case game.Strong:
		return 8.5
	case game.Medium:
		return 9
	case game.Easy:
		return 12
	case panelLine:
		return 11.5
	case panelInfo:
		return 9.5
	case panelBayes:
		return 9
	}
	return 10
}

// panelist returns the solver a panel names: a level or a baseline.
func panelist(name string, seed uint64, lex *lexicon.Lexicon) (player, error) {
	switch name {
	case panelLine:
		return NewLineSolver(seed, lex)
	case panelInfo:
		return NewInfoSolver(seed, lex)
	case panelShadow:
		return NewShadowSolver(seed, lex)
	case panelBayes:
		return NewBayesSolver(seed, lex)
	case game.Easy, game.Medium, game.Strong:
		return newBot(name, seed, lex)
	}
	return nil, fmt.Errorf("quizl trial: no solver %q", name)
}
