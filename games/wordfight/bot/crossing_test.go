package bot

import (
	"math/rand/v2"
	"testing"

	"parlour/game"
)

// TestCrossers checks that the words strong tries first against a grid
// are those with a pair of letters lying in one of its lines, the most
// promising first.
func TestCrossers(t *testing.T) {
	g := gridOf(t,
		"..........",
		".TOPIC....",
		"...I......",
		"...N......",
		"...K......")
	ps := pairsOf(g)
	for _, c := range []struct {
		w    string
		want bool
	}{
		{"topic", true},  // T and O one apart, on row 2
		{"pink", true},   // down column D
		{"axbxc", false}, // no pair of these letters lies in a line
		{"tip", true},    // T . P: T and P two apart on row 2
		{"ink", true},    // I, N, K down
		{"zoo", false},
	} {
		if got := ps.crosses(c.w); got != c.want {
			t.Errorf("crosses(%s) = %v, want %v", c.w, got, c.want)
		}
	}
	bound := func(w string) int { return len(w) * min(ps.matches(w, 3)+1, 3) }
	b := newBot(t, game.Strong, 1)
	ws := b.crossers(rand.New(rand.NewPCG(1, 0)), g, 50)
	if len(ws) != 50 {
		t.Fatalf("%d crossers, want 50", len(ws))
	}
	for i, w := range ws {
		if !ps.crosses(w) {
			t.Errorf("crosser %s matches no pair", w)
		}
		if i > 0 && bound(w) > bound(ws[i-1]) {
			t.Errorf("crossers not most promising first: %s after %s", w, ws[i-1])
		}
	}
}
