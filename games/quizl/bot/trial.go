package bot

import (
	"context"
	"fmt"
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

// hardest plays every grid of gs against every solver of panel, the i-th
// solver at a table seeded seeds[i] whichever the grid, and returns the
// index of the grid that cost the panel most (see trial); ties go to the
// earlier grid. The games run side by side, one goroutine each.
func hardest(ctx context.Context, gs []*quizl.Grid, panel []player, seeds []uint64, lex *lexicon.Lexicon) (int, error) {
	cost := make([]int, len(gs)*len(panel))
	errs := make([]error, len(cost))
	var wg sync.WaitGroup
	for i, g := range gs {
		for j, solver := range panel {
			wg.Go(func() {
				cost[i*len(panel)+j], errs[i*len(panel)+j] = trial(ctx, solver, g, seeds[j], lex)
			})
		}
	}
	wg.Wait()
	best, bestCost := 0, -1
	for i := range gs {
		c := 0
		for j := range panel {
			if err := errs[i*len(panel)+j]; err != nil {
				return 0, err
			}
			c += cost[i*len(panel)+j]
		}
		if c > bestCost {
			best, bestCost = i, c
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
	// panelBayes is the Bayesian baseline, which no grid maker's panel
	// seats: it measures the grid maker from outside.
	panelBayes = "bayesian"
)

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
