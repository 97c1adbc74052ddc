package bot

import (
	"context"
	"parlour/game"
	"parlour/games/wordfight"
	"slices"
	"strings"
	"testing"
)

// TestImagine checks the rival grids imagined from a public list: each
// holds every word the rival placed and none it could not.
func TestImagine(t *testing.T) {
	v := view(t, map[string]any{"width": 12, "height": 12}, 0,
		"0:declare promontory", "0:place A2 across", "1:place A2 across",
		"1:declare mug", "0:place D2 down", "1:cannot",
		"0:declare tore", "0:place G2 down", "1:place G2 down")
	b := newBot(t, game.Strong, 1)
	board, _ := wordfight.GridFromRows(v.Grid)
	im := b.imagine(context.Background(), v, board.Board(), 1, 8)
	if len(im.grids) != 8 {
		t.Fatalf("%d grids, want 8", len(im.grids))
	}
	for i, g := range im.grids {
		runs := runsOf(g)
		if !slices.Contains(runs, "promontory") || !slices.Contains(runs, "tore") {
			t.Errorf("grid %d lacks a word Ben placed: %v", i, runs)
		}
		if strings.ContainsAny(strings.Join(g.Rows(), ""), "GU") {
			t.Errorf("grid %d holds MUG's letters, which Ben could not place: %v", i, g.Rows())
		}
	}
	// Ben scored 0 for PROMONTORY and at least 4 (one letter of TORE
	// reused) under multiply.
	if im.score < 4 {
		t.Errorf("imagined score %v, want at least 4", im.score)
	}
	// A word sharing no letter with Ben's cannot be placed.
	if p, _ := im.guess(b, v.Rules, "gush", newModel(v).others[0]); p != 0 {
		t.Errorf("GUSH: place chance %v, want 0", p)
	}
}

// TestClearBeyond counts the room beyond a word's ends, stopping at a
// letter, an unusable square or the board's edge, and at most a side.
func TestClearBeyond(t *testing.T) {
	t.Parallel()
	g, err := wordfight.GridFromRows([]string{
		".....",
		"#.CAT",
		".....",
		".....",
		"..B..",
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		at   wordfight.Placement
		n    int
		most int
		want int
	}{
		{wordfight.Placement{Row: 1, Col: 2}, 3, 6, 1},             // CAT: one square, then #; the edge after
		{wordfight.Placement{Row: 0, Col: 2, Down: true}, 2, 6, 2}, // the edge above; two squares, then B
		{wordfight.Placement{Row: 2, Col: 0}, 2, 6, 3},
		{wordfight.Placement{Row: 2, Col: 0}, 2, 2, 2},
		{wordfight.Placement{Row: 0, Col: 0, Down: true}, 1, 6, 0},
	} {
		if got := clearBeyond(g, c.at, c.n, c.most); got != c.want {
			t.Errorf("clearBeyond(%v, %d, %d) = %d, want %d", c.at, c.n, c.most, got, c.want)
		}
	}
}
