package bot

import (
	"context"
	"math/bits"

	"parlour/games/salvo"
	"parlour/lexicon"
)

// subWords is how many 64-bit words hold a set of submarine places: at
// most 4 directions from each of the 100 squares.
const subWords = (4*salvo.Size*salvo.Size + 63) / 64

// subSet is a set of submarine places, by index into the submarines'
// candidates.
type subSet [subWords]uint64

func (s *subSet) and(t *subSet) subSet {
	var out subSet
	for i := range s {
		out[i] = s[i] & t[i]
	}
	return out
}

func (s *subSet) andNot(t *subSet) subSet {
	var out subSet
	for i := range s {
		out[i] = s[i] &^ t[i]
	}
	return out
}

func (s *subSet) count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// fleetCountKey names, among the tables kept with a lexicon, the number of
// fleets one Placement allows.
type fleetCountKey struct{ p salvo.Placement }

// fleetsBefore returns how many fleets p allows before any salvo: what a
// shooter knows of its target's fleet at the start. It counts them
// (countFleets, about a second) once per placement rules and keeps the
// count with lex, the project's store of tables computed once and shared
// by every game (with no lexicon it counts every time).
func fleetsBefore(ctx context.Context, lex *lexicon.Lexicon, p salvo.Placement) (uint64, error) {
	if lex == nil {
		return countFleets(ctx, p)
	}
	type counted struct {
		n   uint64
		err error
	}
	c := lex.Derived(fleetCountKey{p}, func() any {
		n, err := countFleets(context.WithoutCancel(ctx), p)
		return counted{n, err}
	}).(counted)
	return c.n, c.err
}

// countFleets counts the fleets p allows: a battleship, a cruiser and a
// destroyer, each on a place of its own, and two submarines, counted once
// whichever is which, every two ships lying together as p allows. For
// each battleship and cruiser it takes the submarine places that fit
// both, A, and the number of pairs of them that fit each other; a
// destroyer then rules out some of A, R, and the pairs left are those of
// A less those with a place in R: pairs(A) - sum over r in R of r's
// partners in A + pairs(R), since a pair inside R was taken off twice.
// R is small beside A, so the count is a few hundred million steps for
// the 2.6 billion fleets of the default rules, not one per fleet.
func countFleets(ctx context.Context, p salvo.Placement) (uint64, error) {
	k := &knowledge{place: p}
	var u [4][]cand
	for i := range u {
		u[i] = k.candidates(i)
	}
	subs := u[3]
	// partners[s]: the submarine places that may lie beside s; fit[i][j]:
	// those that may lie beside ship j of class i.
	partners := make([]subSet, len(subs))
	for s := range subs {
		for t := range subs {
			if s != t && k.fits(&subs[s], &subs[t]) {
				partners[s][t/64] |= 1 << (t % 64)
			}
		}
	}
	var fit [3][]subSet
	for i := range fit {
		fit[i] = make([]subSet, len(u[i]))
		for j := range u[i] {
			for t := range subs {
				if k.fits(&u[i][j], &subs[t]) {
					fit[i][j][t/64] |= 1 << (t % 64)
				}
			}
		}
	}
	degree := make([]int, len(subs))
	var total uint64
	for b := range u[0] {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		for c := range u[1] {
			if !k.fits(&u[0][b], &u[1][c]) {
				continue
			}
			a := fit[0][b].and(&fit[1][c])
			pairsA := 0
			for w, x := range a {
				for ; x != 0; x &= x - 1 {
					s := 64*w + bits.TrailingZeros64(x)
					both := partners[s].and(&a)
					degree[s] = both.count()
					pairsA += degree[s]
				}
			}
			pairsA /= 2
			for d := range u[2] {
				if !k.fits(&u[0][b], &u[2][d]) || !k.fits(&u[1][c], &u[2][d]) {
					continue
				}
				r := a.andNot(&fit[2][d])
				lost, inR := 0, 0
				for w, x := range r {
					for ; x != 0; x &= x - 1 {
						s := 64*w + bits.TrailingZeros64(x)
						lost += degree[s]
						both := partners[s].and(&r)
						inR += both.count()
					}
				}
				total += uint64(pairsA - lost + inR/2)
			}
		}
	}
	return total, nil
}
