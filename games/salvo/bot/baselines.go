package bot

import (
	"math/rand/v2"
	"slices"

	"parlour/games/salvo"
)

// randomSalvo fires at random squares.
func randomSalvo(k *knowledge, r *rand.Rand, shots int) []salvo.Square {
	return fill(k, r, nil, shots)
}

// empty returns the squares of salvos that hit nothing.
func (k *knowledge) empty() salvo.Board {
	var e salvo.Board
	for _, rp := range k.reports {
		if rp.hits.Total() == 0 {
			e = e.Or(rp.squares)
		}
	}
	return e
}

// huntTargetSalvo is the classic hunt/target player adapted to salvo
// reports: a square of a salvo that hit is suspected in proportion to the
// salvo's hits, and while hits are unexplained by sunk ships it fires
// next to the most suspected squares; otherwise it hunts on a
// checkerboard.
func huntTargetSalvo(k *knowledge, r *rand.Rand, shots int) []salvo.Square {
	empty := k.empty()
	var w [salvo.Squares]float64
	hits, sunkSquares := 0, 0
	for _, rp := range k.reports {
		if n := rp.hits.Total(); n > 0 {
			hits += n
			f := float64(n) / float64(rp.squares.Count())
			for _, q := range rp.squares.Squares() {
				w[q] = max(w[q], f)
			}
		}
	}
	for c := range salvo.Class(salvo.NumClasses) {
		sunkSquares += k.sunk[c] * c.Len()
	}
	var score [salvo.Squares]float64
	if hits > sunkSquares {
		for q := range salvo.Square(salvo.Squares) {
			if k.mine.Has(q) || empty.Has(q) {
				continue
			}
			r0, c0 := q.Row(), q.Col()
			for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				rr, cc := r0+d[0], c0+d[1]
				if rr >= 0 && rr < salvo.Size && cc >= 0 && cc < salvo.Size {
					score[q] += w[salvo.At(rr, cc)]
				}
			}
		}
	}
	taken := k.mine.Or(empty)
	var chosen []salvo.Square
	for len(chosen) < shots {
		var pick salvo.Square = salvo.NoSquare
		bv := 0.0
		for q := range salvo.Square(salvo.Squares) {
			if v := score[q] + 1e-6*r.Float64(); !taken.Has(q) && score[q] > 0 && v > bv {
				pick, bv = q, v
			}
		}
		if pick < 0 { // hunt
			var par []salvo.Square
			for q := range salvo.Square(salvo.Squares) {
				if !taken.Has(q) && (q.Row()+q.Col())%2 == 0 {
					par = append(par, q)
				}
			}
			if len(par) > 0 {
				pick = par[r.IntN(len(par))]
			}
		}
		if pick < 0 {
			var any []salvo.Square
			for q := range salvo.Square(salvo.Squares) {
				if !taken.Has(q) {
					any = append(any, q)
				}
			}
			if len(any) == 0 {
				break
			}
			pick = any[r.IntN(len(any))]
		}
		chosen = append(chosen, pick)
		taken = taken.With(pick)
	}
	return fill(k, r, chosen, shots)
}

// densitySalvo fires at the squares covered by the most placements of the
// ships still afloat, each placement checked on its own against the
// reports (no more of its squares in a salvo than that salvo's hits in its
// class), placements through hit salvos counting more.
func densitySalvo(k *knowledge, r *rand.Rand, shots int) []salvo.Square {
	empty := k.empty()
	var score [salvo.Squares]float64
	for c := range salvo.Class(salvo.NumClasses) {
		afloat := c.Count() - k.sunk[c]
		if afloat <= 0 {
			continue
		}
	places:
		for _, sh := range k.place.Placements(c.Len()) {
			b := sh.Board()
			if b.Intersects(empty) || b.AndNot(k.fired).Empty() {
				continue
			}
			weight := 1.0
			for _, rp := range k.reports {
				n := b.And(rp.squares).Count()
				if n > rp.hits[c] {
					continue places
				}
				weight += 3 * float64(n)
			}
			for _, q := range b.AndNot(k.fired).Squares() {
				score[q] += float64(afloat) * weight
			}
		}
	}
	return top(k, r, score, shots)
}

// noisy sends each square of sq elsewhere, to a random square the seat may
// fire at, with chance p.
func noisy(k *knowledge, r *rand.Rand, sq []salvo.Square, p float64) []salvo.Square {
	taken := k.mine.Or(salvo.BoardOf(sq...))
	var free []salvo.Square
	for q := range salvo.Square(salvo.Squares) {
		if !taken.Has(q) {
			free = append(free, q)
		}
	}
	out := slices.Clone(sq)
	for i := range out {
		if len(free) > 0 && r.Float64() < p {
			j := r.IntN(len(free))
			out[i], free[j] = free[j], free[len(free)-1]
			free = free[:len(free)-1]
		}
	}
	return out
}
