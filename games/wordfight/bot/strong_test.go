package bot

import (
	"context"
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/wordfight"
)

// gridOf builds a grid of rows ('.' for empty squares).
func gridOf(t *testing.T, rows ...string) *wordfight.Grid {
	t.Helper()
	g, err := wordfight.GridFromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRunsAt(t *testing.T) {
	g := gridOf(t,
		".......",
		".TOPIC.",
		"...I...",
		"...N...",
		"...K...")
	got := runsAt(g)
	want := []run{
		{"topic", wordfight.Placement{Row: 1, Col: 1}},
		{"pink", wordfight.Placement{Row: 1, Col: 3, Down: true}},
	}
	if !slices.Equal(got, want) {
		t.Errorf("runsAt = %v, want %v", got, want)
	}
}

// TestPotential checks that a run with room to grow into a longer word
// counts, and one walled in by the board's edge does not.
func TestPotential(t *testing.T) {
	b := newBot(t, game.Strong, 1)
	open := gridOf(t,
		"..........",
		".TOPIC....",
		"..........",
		"..........",
		"..........")
	walled := gridOf(t,
		".....",
		"TOPIC",
		".....",
		".....",
		".....")
	po, pw := b.newExtender().potential(open), b.newExtender().potential(walled)
	if po < 5*7 {
		t.Errorf("TOPIC with room to grow: potential %v, want at least 35 (TOPICAL over it)", po)
	}
	if pw != 0 {
		t.Errorf("TOPIC from edge to edge: potential %v, want 0", pw)
	}
}

// TestPlacementKeepsRoom gives strong a word whose placements all score
// alike: CAB crosses TOPIC only at its C. Some of them (CAB across from
// F2) wall TOPIC in where TOPICAL would go; strong takes one that leaves
// the grid the most to extend.
func TestPlacementKeepsRoom(t *testing.T) {
	v := view(t, map[string]any{"width": 12, "height": 12}, 0,
		"0:declare topic", "0:place B2 across", "1:place B2 across",
		"1:declare cab")
	g, _ := wordfight.GridFromRows(v.Grid)
	b := newBot(t, game.Strong, 3)
	mv, err := b.Move(context.Background(), game.Config{}, 0, v)
	if err != nil || !strings.HasPrefix(mv, "place ") {
		t.Fatalf("strong: %q, %v", mv, err)
	}
	p, err := wordfight.ParsePlacement(strings.TrimPrefix(mv, "place "))
	if err != nil {
		t.Fatal(err)
	}
	h := g.Clone()
	h.Place("cab", p)
	ext := b.newExtender()
	best := -1.0
	for q := range g.Placements(enLex(), "cab") {
		k := g.Clone()
		k.Place("cab", q)
		best = max(best, ext.potential(k))
	}
	if got := ext.potential(h); got < best {
		t.Errorf("strong placed CAB at %s, leaving potential %v; %v was to be had", p, got, best)
	}
}

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
	ws := b.crossers(b.rng(&wordfight.View{}), g, 50)
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
