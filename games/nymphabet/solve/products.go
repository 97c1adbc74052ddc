package solve

import "math/bits"

// Products returns, for a position of the scoring game, the largest final
// product the player to move can make sure of whatever the other player
// does (mover), and the largest the other player can make sure of whatever
// the player to move does (other). ok is false when the search would solve
// more than limit positions; the values are then meaningless.
//
// These are two other games than the one Value solves (each side playing
// for its own product alone, not to beat the other's), searched with
// memos of their own kept in ps, which the caller may reuse across the
// positions of one game.
func (s *Solver) Products(ps *ProductSearch, p Position) (mover, other int, ok bool) {
	if ps.v == nil {
		ps.v, ps.w = map[uint64]int{}, map[uint64]int{}
	}
	ps.s = s
	if p.Anywhere {
		mover, other = 0, -1
		for c := range letters {
			q := Position{Letter: c, Left: letters, Mover: p.Mover, Other: p.Other}
			m, o, ok := s.Products(ps, q)
			if !ok {
				return 0, 0, false
			}
			mover = max(mover, m)
			if other < 0 || o < other {
				other = o
			}
		}
		return mover, max(other, 0), true
	}
	if p.Left <= 0 || p.Left > letters || p.Letter < 0 || p.Letter >= letters {
		return p.Mover, p.Other, true
	}
	m := ps.best(p.Letter, p.Left, p.Mover, p.Other)
	o := ps.least(p.Letter, p.Left, p.Mover, p.Other)
	return m, o, !ps.over
}

// ProductSearch holds the memos of Solver.Products; its zero value is
// ready, with no limit unless Limit is set.
type ProductSearch struct {
	// Limit bounds the positions solved (0: no bound).
	Limit int
	s     *Solver
	v, w  map[uint64]int
	over  bool
}

// best is the largest final product of the player to move (product a,
// the other's b) that it can make sure of against a player keeping it
// down.
func (ps *ProductSearch) best(c, left, a, b int) int {
	k := key(c, left, a, b)
	if x, ok := ps.v[k]; ok {
		return x
	}
	if ps.full() {
		return 0
	}
	out := a // no word at all: the game ends here for this player
	first := true
	for d := ps.s.deletions(c, left); d != 0; d &= d - 1 {
		r := bits.TrailingZeros32(d)
		x := a * r
		if r < left {
			x = ps.least((c+r)%letters, left-r, b, a*r)
		}
		if first || x > out {
			out, first = x, false
		}
	}
	ps.v[k] = out
	return out
}

// least is the smallest final product of the player not to move (product
// b) that the player to move (product a) can hold it to, against a player
// making the most of it.
func (ps *ProductSearch) least(c, left, a, b int) int {
	k := key(c, left, a, b)
	if x, ok := ps.w[k]; ok {
		return x
	}
	if ps.full() {
		return 0
	}
	out := b
	first := true
	for d := ps.s.deletions(c, left); d != 0; d &= d - 1 {
		r := bits.TrailingZeros32(d)
		x := b
		if r < left {
			x = ps.best((c+r)%letters, left-r, b, a*r)
		}
		if first || x < out {
			out, first = x, false
		}
	}
	ps.w[k] = out
	return out
}

func (ps *ProductSearch) full() bool {
	if ps.Limit > 0 && len(ps.v)+len(ps.w) >= ps.Limit {
		ps.over = true
	}
	return ps.over
}
