package bot

import (
	"context"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/wordfight"
)

// TestCarefulPlaces checks the careful player's answers: a placement that
// scores as much as any legal one when the bonus for free ends cannot make
// up the difference, and "cannot" only when no placement is legal.
func TestCarefulPlaces(t *testing.T) {
	t.Parallel()
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
		{"nothing to cross", opts, []string{"0:declare promontory", "0:place A2 across", "1:place A2 across",
			"1:declare bus"}, -1},
		{"no room", map[string]any{"width": 5, "height": 5}, []string{"0:declare zebra", "0:place A1 across",
			"1:place A1 across", "1:declare quiz"}, -1},
	}
	for _, c := range cases {
		v := view(t, c.opts, 0, c.moves...)
		for seed := range uint64(3) {
			mv, err := newCareful(seed, enLex()).Move(context.Background(), game.Config{}, 0, v)
			switch {
			case err != nil:
				t.Errorf("%s: %v", c.name, err)
			case c.want < 0 && mv != "cannot":
				t.Errorf("%s: %q, want cannot", c.name, mv)
			case c.want >= 0 && mv == "cannot":
				t.Errorf("%s: cannot, with a placement open", c.name)
			case c.want >= 0:
				if got := moveScore(t, v, mv); got != c.want {
					t.Errorf("%s: %q scores %d, want %d", c.name, mv, got, c.want)
				}
			}
		}
	}
}

// TestCarefulDeclares checks that the careful player declares a word it
// can place, never one already listed, and that it weighs a rival's
// expected score: a word holding a listed word the rival placed is
// expected to score for the rival too.
func TestCarefulDeclares(t *testing.T) {
	t.Parallel()
	v := view(t, map[string]any{"width": 12, "height": 12}, 1,
		"0:declare promontory", "0:place A2 across", "1:place A2 across",
		"1:declare topic", "0:place E1 down", "1:place E1 down")
	g, _ := wordfight.GridFromRows(v.Grid)
	for seed := range uint64(3) {
		mv, err := newCareful(seed, enLex()).Move(context.Background(), game.Config{}, 1, v)
		if err != nil || !strings.HasPrefix(mv, "declare ") {
			t.Fatalf("careful: %q, %v", mv, err)
		}
		w := strings.TrimPrefix(mv, "declare ")
		if _, ok := bestScore(t, v, g, w); !ok || w == "topic" || w == "promontory" {
			t.Errorf("seed %d: declared %s (placeable %v)", seed, w, ok)
		}
	}
	rivals := rivalWords(v)
	if len(rivals) != 1 || len(rivals[0]) != 2 {
		t.Fatalf("rival words %v, want Ann's two", rivals)
	}
	for _, c := range []struct {
		word string
		want float64
	}{{"topical", 35}, {"cat", 3}, {"promontory", 10}} {
		if got := rivalEstimate(v.Rules, rivals, c.word); got != c.want {
			t.Errorf("rival's best with %s: %v, want %v", c.word, got, c.want)
		}
	}
	if got := rivalEstimate(v.Rules, [][]string{nil}, "topical"); got != 0 {
		t.Errorf("an empty rival grid: %v, want 0", got)
	}
}

// TestFreeBeyond counts the free squares beyond a word's ends.
func TestFreeBeyond(t *testing.T) {
	t.Parallel()
	g, err := wordfight.GridFromRows([]string{"..........", "..CAT.....", "..........", "..........", ".........."})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    wordfight.Placement
		n    int
		want int
	}{
		{wordfight.Placement{Row: 1, Col: 2}, 3, 2 + 5},
		{wordfight.Placement{Row: 0, Col: 3, Down: true}, 3, 0 + 2},
		{wordfight.Placement{Row: 4, Col: 0}, 10, 0},
	} {
		if got := freeBeyond(g, c.p, c.n); got != c.want {
			t.Errorf("%v, %d letters: %d free, want %d", c.p, c.n, got, c.want)
		}
	}
}
