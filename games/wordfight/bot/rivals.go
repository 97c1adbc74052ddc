package bot

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"parlour/game"
	"parlour/games/wordfight"
)

// imagined is a sample of grids a rival may hold: the public list replayed
// into empty grids the way a player who places each word for the most
// points would, keeping, among equal placements, those with the most clear
// squares beyond the word's ends (up to ends a side; where a longer word
// holding it may go), and drawing among those at random. It is all the
// public list says about a rival's grid: which words it took, in which
// order, which it could not, and which it chose to declare. The sample is
// drawn again after each word (a particle filter): grids that could not
// take a word the rival placed drop out, and at the rival's own
// declarations each grid is weighed by the letters the word reuses in it,
// since a player likely declares words that suit its grid. A word the
// rival placed that no grid can take still counts, in every grid, the
// points of a word with a share lost of its letters reused.
type imagined struct {
	grids []*wordfight.Grid
	score float64 // the rival's points, averaged over the grids
}

// imagine samples k grids for rival seat s from v's public list.
func (b *Bot) imagine(ctx context.Context, v *wordfight.View, board *wordfight.Board, s game.Seat, k int) imagined {
	h := fnv.New64a()
	fmt.Fprintf(h, "imagine/%d/%d", s, len(v.List))
	rng := rand.New(rand.NewPCG(b.seed, h.Sum64()))
	var im imagined
	if k < 1 {
		return im
	}
	grids := make([]*wordfight.Grid, k)
	scores := make([]float64, k)
	for i := range grids {
		grids[i] = wordfight.NewGrid(board)
	}
	var best []wordfight.Placement
	top := make([]int, k)
	reused := make([]int, k)
	at := make([]wordfight.Placement, k)
	placed := make([]bool, k)
	weights := make([]float64, k)
	for _, e := range v.List {
		if ctx.Err() != nil {
			break
		}
		if !e.Done || slices.Contains(e.Cannot, s) {
			continue
		}
		w := lowerWord(e.Word)
		for i, g := range grids {
			best = best[:0]
			top[i], placed[i] = -1, false
			open := -1 // the clear squares beyond the ends of best's words
			for p, r := range g.Placements(b.lex, w) {
				c := cmp.Compare(r, top[i])
				o := 0
				if b.p.ends > 0 && c >= 0 {
					o = clearBeyond(g, p, len(w), b.p.ends)
					if c == 0 {
						c = cmp.Compare(o, open)
					}
				}
				switch c {
				case 1:
					top[i], open, best = r, o, append(best[:0], p)
				case 0:
					best = append(best, p)
				}
			}
			if len(best) > 0 {
				at[i], reused[i], placed[i] = best[rng.IntN(len(best))], top[i], true
			}
		}
		// Draw the sample again: a grid that cannot take a word the
		// rival placed is no grid of the rival's, and the words it
		// chose to declare favour the grids that suit them.
		sum, all := 0.0, true
		for i := range grids {
			weights[i] = 0
			if placed[i] {
				weights[i] = 1
				if e.By == s {
					weights[i] = math.Exp(b.p.suit * float64(reused[i]))
				}
			}
			all = all && placed[i]
			sum += weights[i]
		}
		if sum > 0 && k > 1 && (!all || e.By == s) {
			ng := make([]*wordfight.Grid, k)
			nat := make([]wordfight.Placement, k)
			nr := make([]int, k)
			np := make([]bool, k)
			ns := make([]float64, k)
			for j := range ng {
				x := rng.Float64() * sum
				i := 0
				for ; i < k-1 && x >= weights[i]; i++ {
					x -= weights[i]
				}
				for weights[i] == 0 { // rounding at the end of the range
					i--
				}
				ng[j], nat[j], nr[j], np[j], ns[j] = grids[i].Clone(), at[i], reused[i], placed[i], scores[i]
			}
			grids, at, reused, placed, scores = ng, nat, nr, np, ns
		}
		for i, g := range grids {
			switch {
			case placed[i]:
				g.Place(w, at[i])
				scores[i] += float64(v.Rules.Score(reused[i], len(w)))
			case sum == 0 && g.Len() > 0:
				// No imagined grid takes a word the rival placed: the
				// sample has lost the rival's grid, but not its points.
				pts := float64(len(w))
				if v.Rules.Multiply {
					pts *= b.p.lost * float64(len(w))
				}
				scores[i] += pts
			}
		}
	}
	im.grids = grids
	for _, sc := range scores {
		im.score += sc / float64(k)
	}
	return im
}

// guess returns the chance that the rival can place w and the points it
// expects when it can. A word that shares no letter with the rival's words
// surely cannot be placed; otherwise the sample's share is smoothed (one
// more success and failure than seen), since a handful of imagined grids
// can all miss a placement the real one has.
func (im imagined) guess(b *Bot, rules wordfight.Rules, w string, letters rival) (p, pts float64) {
	if len(im.grids) == 0 {
		return 1, 0
	}
	if letters.placeChance(w) == 0 {
		return 0, 0
	}
	n, sum := 0, 0
	for _, g := range im.grids {
		if s, ok := b.bestScore(rules, g, w); ok {
			n++
			sum += s
		}
	}
	p = float64(n+1) / float64(len(im.grids)+2)
	if n == 0 {
		return p, float64(len(w))
	}
	return p, float64(sum) / float64(n)
}

func lowerWord(w string) string {
	out := []byte(w)
	for i, c := range out {
		if 'A' <= c && c <= 'Z' {
			out[i] = c + 'a' - 'A'
		}
	}
	return string(out)
}

// clearBeyond counts the empty usable squares beyond either end of a word
// of n letters at p, at most most a side: the room a longer word holding
// it would need. A player that keeps such room places a word, among its
// best-scoring placements, where this is greatest.
func clearBeyond(g *wordfight.Grid, p wordfight.Placement, n, most int) int {
	dr, dc := 0, 1
	if p.Down {
		dr, dc = 1, 0
	}
	total := 0
	for _, end := range [2]struct{ r, c, step int }{{p.Row, p.Col, -1}, {p.Row + dr*(n-1), p.Col + dc*(n-1), 1}} {
		for k := 1; k <= most; k++ {
			r, c := end.r+end.step*dr*k, end.c+end.step*dc*k
			if !g.Board().Usable(r, c) || g.At(r, c) != 0 {
				break
			}
			total++
		}
	}
	return total
}
