package bot

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"parlour/game"
	"parlour/games/wordfight"
)

// imagined is a sample of grids a rival may hold: the public list replayed
// into an empty grid the way a player who places each word for the most
// points would, drawing among equal placements at random. It is all the
// public list says about a rival's grid: which words it took, in which
// order, and which it could not.
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
	total := 0
	for range k {
		g := wordfight.NewGrid(board)
		for _, e := range v.List {
			if ctx.Err() != nil {
				break
			}
			if !e.Done || slices.Contains(e.Cannot, s) {
				continue
			}
			w := lowerWord(e.Word)
			var best []wordfight.Placement
			top := -1
			for p, reused := range g.Placements(b.lex, w) {
				pts := v.Rules.Score(reused, len(w))
				switch cmp.Compare(pts, top) {
				case 1:
					top, best = pts, append(best[:0], p)
				case 0:
					best = append(best, p)
				}
			}
			if len(best) == 0 {
				continue
			}
			g.Place(w, best[rng.IntN(len(best))])
			total += top
		}
		im.grids = append(im.grids, g)
	}
	if k > 0 {
		im.score = float64(total) / float64(k)
	}
	return im
}

// guess returns the chance that the rival can place w and the points it
// expects when it can.
func (im imagined) guess(b *Bot, rules wordfight.Rules, w string) (p, pts float64) {
	if len(im.grids) == 0 {
		return 1, 0
	}
	n, sum := 0, 0
	for _, g := range im.grids {
		if s, ok := b.bestScore(rules, g, w); ok {
			n++
			sum += s
		}
	}
	if n == 0 {
		return 0, 0
	}
	return float64(n) / float64(len(im.grids)), float64(sum) / float64(n)
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
