package bot

import (
	"context"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/wordfight"
)

// moveScore returns what mv scores on the grid of v, failing the test
// when it is no legal placement of v's current word.
func moveScore(t *testing.T, v *wordfight.View, mv string) int {
	t.Helper()
	g, err := wordfight.GridFromRows(v.Grid)
	if err != nil {
		t.Fatal(err)
	}
	p, err := wordfight.ParsePlacement(strings.TrimPrefix(mv, "place "))
	if err != nil {
		t.Fatalf("%q: %v", mv, err)
	}
	reused, err := g.Check(enLex(), strings.ToLower(v.Current), p)
	if err != nil {
		t.Fatalf("%q: %v", mv, err)
	}
	return v.Rules.Score(reused, len(v.Current))
}

// TestPlaces checks the answers of the players that look for the
// best-scoring placement: one that scores as much as any legal one (on
// these grids no other placement comes close enough for the careful
// player's bonus for free ends, at most 1.2 points, to make up the
// difference), and "cannot" only when no placement is legal.
func TestPlaces(t *testing.T) {
	t.Parallel()
	players := []struct {
		name string
		new  func(seed uint64) game.Bot
	}{
		{"best greedy", func(seed uint64) game.Bot { return newPlayer(t, BestGreedy, seed) }},
		{"careful", func(seed uint64) game.Bot { return newCareful(seed, enLex()) }},
	}
	opts := map[string]any{"width": 12, "height": 12}
	cases := []struct {
		name  string
		opts  map[string]any
		moves []string
		want  int // the best score; -1: no legal placement
	}{
		{"TOPICAL over TOPIC", opts, []string{"0:declare promontory", "0:place A2 across", "1:place A2 across",
			"1:declare topic", "0:place E1 down", "1:place E1 down", "0:declare topical"}, 35},
		{"one letter to cross", opts, []string{"0:declare promontory", "0:place A2 across", "1:place A2 across",
			"1:declare mat"}, 3},
		{"first word", opts, []string{"0:declare promontory"}, 0},
		{"nothing to cross", opts, []string{"0:declare promontory", "0:place A2 across", "1:place A2 across",
			"1:declare bus"}, -1},
		{"no room", map[string]any{"width": 5, "height": 5}, []string{"0:declare zebra", "0:place A1 across",
			"1:place A1 across", "1:declare quiz"}, -1},
	}
	for _, p := range players {
		for _, c := range cases {
			v := view(t, c.opts, 0, c.moves...)
			for seed := range uint64(4) {
				mv, err := p.new(seed).Move(context.Background(), game.Config{}, 0, v)
				switch {
				case err != nil:
					t.Errorf("%s, %s: %v", p.name, c.name, err)
				case c.want < 0 && mv != "cannot":
					t.Errorf("%s, %s: %q, want cannot", p.name, c.name, mv)
				case c.want >= 0 && mv == "cannot":
					t.Errorf("%s, %s: cannot, with a placement open", p.name, c.name)
				case c.want >= 0:
					if got := moveScore(t, v, mv); got != c.want {
						t.Errorf("%s, %s: %q scores %d, want %d", p.name, c.name, mv, got, c.want)
					}
				}
			}
		}
	}
}

// TestBestGreedyDeclares checks that the best-scoring greedy player
// declares a word it can place, scoring at least as much as every word it
// considered that holds a word of its grid.
func TestBestGreedyDeclares(t *testing.T) {
	v := view(t, map[string]any{"width": 12, "height": 12}, 1,
		"0:declare promontory", "0:place A2 across", "1:place A2 across",
		"1:declare topic", "0:place E1 down", "1:place E1 down",
		"0:declare cab", "0:place E5 across", "1:place E5 across")
	g, _ := wordfight.GridFromRows(v.Grid)
	bg := newBestGreedy(3, enLex(), bestGreedyWords(enLex()))
	floor := 0
	for _, w := range bg.holders(g, 12) {
		if !strings.Contains(w, "topic") && !strings.Contains(w, "promontory") && !strings.Contains(w, "cab") {
			t.Errorf("holder %s holds no word of the grid", w)
		}
		if s, ok := bestScore(t, v, g, w); ok {
			floor = max(floor, s)
		}
	}
	if floor < 35 {
		t.Fatalf("the words holding TOPIC score at most %d; TOPICAL alone scores 35", floor)
	}
	for seed := range uint64(4) {
		mv, err := newPlayer(t, BestGreedy, seed).Move(context.Background(), game.Config{}, 1, v)
		if err != nil || !strings.HasPrefix(mv, "declare ") {
			t.Fatalf("greedy-best: %q, %v", mv, err)
		}
		w := strings.TrimPrefix(mv, "declare ")
		s, ok := bestScore(t, v, g, w)
		if !ok || s < floor {
			t.Errorf("seed %d: declared %s, scoring %d (placeable %v); a word holding a run scores %d", seed, w, s, ok, floor)
		}
	}
	// The first word of an empty grid is any word that fits.
	v = view(t, map[string]any{"width": 5, "height": 5}, 0)
	mv, err := newPlayer(t, BestGreedy, 1).Move(context.Background(), game.Config{}, 0, v)
	if w := strings.TrimPrefix(mv, "declare "); err != nil || w == mv || len(w) > 5 || !enLex().Has(w) {
		t.Errorf("first word on a 5 x 5 board: %q, %v", mv, err)
	}
}

func bestScore(t *testing.T, v *wordfight.View, g *wordfight.Grid, w string) (int, bool) {
	t.Helper()
	top, ok := 0, false
	for _, reused := range g.Placements(enLex(), w) {
		top, ok = max(top, v.Rules.Score(reused, len(w))), true
	}
	return top, ok
}
