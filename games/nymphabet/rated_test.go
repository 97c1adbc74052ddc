package nymphabet

import (
	"slices"
	"testing"

	"parlour/game"
)

// TestRated: a rated Nymphabet may refuse repeats and play any mode, each
// mode a pool of its own.
func TestRated(t *testing.T) {
	t.Parallel()
	if err := game.CheckRated(Game{}); err != nil {
		t.Fatal(err)
	}
	want := []string{"nymphabet-cyclic", "nymphabet-scoring", "nymphabet-standard"}
	if got := game.Pools(Game{}); !slices.Equal(got, want) {
		t.Errorf("pools %q, want %q", got, want)
	}
	for _, tc := range []struct {
		name string
		set  map[string]any
		pool string
	}{
		{"defaults", nil, "nymphabet-standard"},
		{"no repeats", map[string]any{OptNoRepeats: true}, "nymphabet-standard"},
		{"cyclic", map[string]any{OptMode: string(Cyclic)}, "nymphabet-cyclic"},
		{"scoring without repeats", map[string]any{OptMode: string(Scoring), OptNoRepeats: true}, "nymphabet-scoring"},
	} {
		rules, err := game.ResolveValues(Game{}.Options(), tc.set)
		if err != nil {
			t.Fatal(err)
		}
		if got := game.Unrated(Game{}, rules); len(got) != 0 {
			t.Errorf("%s: Unrated = %q, want none", tc.name, got)
		}
		if pool, ok := game.Pool(Game{}, rules); pool != tc.pool || !ok {
			t.Errorf("%s: pool %q, %v; want %q", tc.name, pool, ok, tc.pool)
		}
	}
}
