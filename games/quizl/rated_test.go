package quizl

import (
	"slices"
	"testing"

	"parlour/game"
)

// TestRated: a rated Quizl may change only the set's target, and is one
// pool.
func TestRated(t *testing.T) {
	t.Parallel()
	if err := game.CheckRated(Game{}); err != nil {
		t.Fatal(err)
	}
	if got := game.Pools(Game{}); !slices.Equal(got, []string{"quizl"}) {
		t.Errorf("pools %q", got)
	}
	for _, tc := range []struct {
		name string
		set  map[string]any
		want []string
	}{
		{"defaults", nil, nil},
		{"the set's target", map[string]any{OptSetTarget: 50}, nil},
		{"the penalty", map[string]any{OptPenalty: 0}, []string{OptPenalty}},
		{"the award and the target", map[string]any{OptAward: 10, OptSetTarget: 50}, []string{OptAward}},
	} {
		rules, err := game.ResolveValues(Game{}.Options(), tc.set)
		if err != nil {
			t.Fatal(err)
		}
		if got := game.Unrated(Game{}, rules); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Unrated = %q, want %q", tc.name, got, tc.want)
		}
		if pool, ok := game.Pool(Game{}, rules); pool != "quizl" || !ok {
			t.Errorf("%s: pool %q, %v", tc.name, pool, ok)
		}
	}
}
