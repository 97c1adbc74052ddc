package wordfight

import (
	"slices"
	"testing"

	"parlour/game"
)

// TestRated: a rated Word Fight keeps every option's default, and is one
// pool.
func TestRated(t *testing.T) {
	t.Parallel()
	if err := game.CheckRated(Game{}); err != nil {
		t.Fatal(err)
	}
	if got := game.Pools(Game{}); !slices.Equal(got, []string{"wordfight"}) {
		t.Errorf("pools %q", got)
	}
	for _, tc := range []struct {
		name string
		set  map[string]any
		want []string
	}{
		{"defaults", nil, nil},
		{"the clock", map[string]any{game.ClockOption: 60}, nil},
		{"a smaller board", map[string]any{OptWidth: 10, OptHeight: 10}, []string{OptHeight, OptWidth}},
		{"strikes", map[string]any{OptStrikesPer: PerPlayer, OptStrikeLimit: 5}, []string{OptStrikeLimit, OptStrikesPer}},
		{"no multiplying", map[string]any{OptMultiply: false}, []string{OptMultiply}},
	} {
		rules, err := game.ResolveValues(Game{}.Options(), tc.set)
		if err != nil {
			t.Fatal(err)
		}
		if got := game.Unrated(Game{}, rules); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Unrated = %q, want %q", tc.name, got, tc.want)
		}
		if pool, ok := game.Pool(Game{}, rules); pool != "wordfight" || !ok {
			t.Errorf("%s: pool %q, %v", tc.name, pool, ok)
		}
	}
}
