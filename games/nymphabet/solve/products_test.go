package solve

import (
	"testing"

	"parlour/games/nymphabet"
	"parlour/lexicon"
)

// naiveProducts searches the two product games without memos, moving by
// Moves (the solver's public list of choices), for positions near the end.
func naiveProducts(s *Solver, c, left, a, b int) (best, least int) {
	p := Position{Letter: c, Left: left, Mover: a, Other: b}
	first := true
	for _, m := range s.Moves(p) {
		var x, y int
		if m.Ends {
			x, y = a*m.Deletes, b
		} else {
			// The other player moves next: its best is our least, and back.
			ob, ol := naiveProducts(s, (c+m.Deletes)%letters, left-m.Deletes, b, a*m.Deletes)
			x, y = ol, ob
		}
		if first || x > best {
			best = x
		}
		if first || y < least {
			least = y
		}
		first = false
	}
	if first {
		return a, b
	}
	return best, least
}

func TestProductsAgreeWithNaiveSearch(t *testing.T) {
	lex, err := lexicon.Load("en")
	if err != nil {
		t.Fatal(err)
	}
	s := New(lex, nymphabet.Scoring)
	var ps ProductSearch
	checked := 0
	for left := 1; left <= 7; left++ {
		for c := range letters {
			for _, ab := range [][2]int{{1, 1}, {6, 4}, {12, 30}} {
				m, o, ok := s.Products(&ps, Position{Letter: c, Left: left, Mover: ab[0], Other: ab[1]})
				wm, wo := naiveProducts(s, c, left, ab[0], ab[1])
				if !ok || m != wm || o != wo {
					t.Errorf("%c with %d left, products %v: (%d, %d), naive search (%d, %d)", 'A'+c, left, ab, m, o, wm, wo)
				}
				checked++
			}
		}
	}
	// From the start the mover can always make sure of at least what a
	// one-word game gives, and the bound holds.
	var full ProductSearch
	m, o, ok := s.Products(&full, Start(nymphabet.Scoring))
	if !ok || m < 1 || o < 1 || m > 13122 || o > 13122 {
		t.Errorf("start: %d, %d, %v", m, o, ok)
	}
	small := ProductSearch{Limit: 100}
	if _, _, ok := s.Products(&small, Start(nymphabet.Scoring)); ok {
		t.Error("a search past its limit says ok")
	}
	t.Logf("%d positions agree with the naive search; from the start (%d, %d)", checked, m, o)
}
