package games

import (
	"slices"
	"testing"

	"parlour/game"
	"parlour/games/nymphabet"
	"parlour/games/quizl"
	"parlour/games/salvo"
	"parlour/games/wordfight"
)

// TestRated holds each game's word on rated tables (game.Rated): which
// options a rated table may change away from their defaults, and which
// pool a table's rules rate it in. Quizl's set target only decides when a
// series ends and Nymphabet may refuse repeats, so a rated table may set
// them; every other option changes what a good move is. Nymphabet's
// modes play differently enough to be pools of their own.
func TestRated(t *testing.T) {
	t.Parallel()
	pools := map[string][]string{
		"quizl":     {"quizl"},
		"salvo":     {"salvo"},
		"wordfight": {"wordfight"},
		"nymphabet": {"nymphabet-cyclic", "nymphabet-scoring", "nymphabet-standard"},
	}
	for _, g := range []game.Game{quizl.Game{}, salvo.Game{}, wordfight.Game{}, nymphabet.Game{}} {
		if err := game.CheckRated(g); err != nil {
			t.Errorf("%s: %v", g.Name(), err)
		}
		if got := game.Pools(g); !slices.Equal(got, pools[g.Name()]) {
			t.Errorf("%s: pools %q, want %q", g.Name(), got, pools[g.Name()])
		}
	}
	for _, tc := range []struct {
		game    game.Game
		name    string
		set     map[string]any
		unrated []string
		pool    string
	}{
		{quizl.Game{}, "defaults", nil, nil, "quizl"},
		{quizl.Game{}, "the set's target", map[string]any{quizl.OptSetTarget: 50}, nil, "quizl"},
		{quizl.Game{}, "the penalty", map[string]any{quizl.OptPenalty: 0}, []string{quizl.OptPenalty}, "quizl"},
		{quizl.Game{}, "the award and the target", map[string]any{quizl.OptAward: 10, quizl.OptSetTarget: 50}, []string{quizl.OptAward}, "quizl"},
		{salvo.Game{}, "defaults", nil, nil, "salvo"},
		{salvo.Game{}, "free placement", map[string]any{salvo.OptPlacement: salvo.PlacementFree}, []string{salvo.OptPlacement}, "salvo"},
		{salvo.Game{}, "every option", map[string]any{salvo.OptPlacement: salvo.PlacementFree, salvo.OptDiagonal: true, salvo.OptShotsLostBy: salvo.LostByOwner},
			[]string{salvo.OptDiagonal, salvo.OptPlacement, salvo.OptShotsLostBy}, "salvo"},
		{wordfight.Game{}, "defaults", nil, nil, "wordfight"},
		{wordfight.Game{}, "the clock", map[string]any{game.ClockOption: 60}, nil, "wordfight"},
		{wordfight.Game{}, "a smaller board", map[string]any{wordfight.OptWidth: 10, wordfight.OptHeight: 10}, []string{wordfight.OptHeight, wordfight.OptWidth}, "wordfight"},
		{wordfight.Game{}, "strikes", map[string]any{wordfight.OptStrikesPer: wordfight.PerPlayer, wordfight.OptStrikeLimit: 5}, []string{wordfight.OptStrikeLimit, wordfight.OptStrikesPer}, "wordfight"},
		{wordfight.Game{}, "no multiplying", map[string]any{wordfight.OptMultiply: false}, []string{wordfight.OptMultiply}, "wordfight"},
		{nymphabet.Game{}, "defaults", nil, nil, "nymphabet-standard"},
		{nymphabet.Game{}, "no repeats", map[string]any{nymphabet.OptNoRepeats: true}, nil, "nymphabet-standard"},
		{nymphabet.Game{}, "cyclic", map[string]any{nymphabet.OptMode: string(nymphabet.Cyclic)}, nil, "nymphabet-cyclic"},
		{nymphabet.Game{}, "scoring without repeats", map[string]any{nymphabet.OptMode: string(nymphabet.Scoring), nymphabet.OptNoRepeats: true}, nil, "nymphabet-scoring"},
	} {
		rules, err := game.ResolveValues(tc.game.Options(), tc.set)
		if err != nil {
			t.Fatalf("%s, %s: %v", tc.game.Name(), tc.name, err)
		}
		if got := game.Unrated(tc.game, rules); !slices.Equal(got, tc.unrated) {
			t.Errorf("%s, %s: Unrated = %q, want %q", tc.game.Name(), tc.name, got, tc.unrated)
		}
		if pool, ok := game.Pool(tc.game, rules); pool != tc.pool || !ok {
			t.Errorf("%s, %s: pool %q, %v; want %q", tc.game.Name(), tc.name, pool, ok, tc.pool)
		}
	}
}
