package salvo

import (
	"slices"
	"testing"

	"parlour/game"
)

// TestRated: a rated Salvo keeps every option's default, and is one pool.
func TestRated(t *testing.T) {
	t.Parallel()
	if err := game.CheckRated(Game{}); err != nil {
		t.Fatal(err)
	}
	if got := game.Pools(Game{}); !slices.Equal(got, []string{"salvo"}) {
		t.Errorf("pools %q", got)
	}
	for _, tc := range []struct {
		name string
		set  map[string]any
		want []string
	}{
		{"defaults", nil, nil},
		{"free placement", map[string]any{OptPlacement: PlacementFree}, []string{OptPlacement}},
		{"every option", map[string]any{OptPlacement: PlacementFree, OptDiagonal: true, OptShotsLostBy: LostByOwner},
			[]string{OptDiagonal, OptPlacement, OptShotsLostBy}},
	} {
		if got := game.Unrated(Game{}, config(t, tc.set).Rules); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Unrated = %q, want %q", tc.name, got, tc.want)
		}
	}
}
