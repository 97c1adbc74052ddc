package bot

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/wordfight"
)

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
	// The rival (seat 0) placed PROMONTORY and TOPIC: BUS shares no letter
	// with them, so it fits none of the rival's imagined grids; CAT
	// crosses a letter; TOPICAL may hold TOPIC for 35 points.
	b := newCareful(1, enLex())
	rivals := b.imagineRivals(rand.New(rand.NewPCG(1, 2)), v, g.Board())
	if len(rivals) != 1 || len(rivals[0]) != b.w.grids {
		t.Fatalf("%d rivals imagined, want 1 with %d grids", len(rivals), b.w.grids)
	}
	// On a 12 x 12 board TOPIC may not fit beside PROMONTORY laid on the
	// bottom rows: such a grid disagrees with the rival's placing it.
	for _, x := range rivals[0] {
		switch {
		case x.g.Len() == len("promontory")+len("topic")-1 && x.weight == 1 && x.pts == 5:
		case x.g.Len() == len("promontory") && x.weight == carefulDisagree && x.pts == 0:
		default:
			t.Errorf("an imagined grid holds %d letters, %v points, weight %v:\n%s", x.g.Len(), x.pts, x.weight, strings.Join(x.g.Rows(), "\n"))
		}
	}
	if got := rivals[0].points(); got <= 0 || got > 5 {
		t.Errorf("the rival's imagined points: %v, want up to 5 (TOPIC crossing one letter)", got)
	}
	for _, c := range []struct {
		word           string
		lo, hi, cannot float64
	}{{"bus", 0, 0, 1}, {"cat", 3, 3, 0}, {"topical", 7, 35, 0.5}} {
		pts, cannot := rivals[0].expect(b, v.Rules, c.word)
		if pts < c.lo || pts > c.hi || (c.cannot == 1) != (cannot == 1) || cannot > c.cannot {
			t.Errorf("the rival with %s: %v points, cannot %v; want %v-%v points, cannot at most %v", c.word, pts, cannot, c.lo, c.hi, c.cannot)
		}
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
		if got := freeBeyond(g, c.p, c.n, 6); got != c.want {
			t.Errorf("%v, %d letters: %d free, want %d", c.p, c.n, got, c.want)
		}
	}
}
