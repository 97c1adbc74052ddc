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

// TestRunsAt checks that every run of letters on a grid is found, across
// and down, with where it starts.
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
