package bot

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"

	"parlour/games/wordfight"
)

// maxTies caps how many of the best-scoring placements the strong player
// weighs for the grid they leave.
const maxTies = 24

// place chooses where to put word in g, or reports that it cannot.
func (b *Bot) place(ctx context.Context, rng *rand.Rand, rules wordfight.Rules, g *wordfight.Grid, word string) (wordfight.Placement, bool) {
	if b.p.first {
		return g.CanPlace(b.lex, word)
	}
	type option struct {
		p   wordfight.Placement
		pts int
	}
	var all []option
	top := -1
	for p, reused := range g.Placements(b.lex, word) {
		s := rules.Score(reused, len(word))
		all = append(all, option{p, s})
		top = max(top, s)
	}
	if len(all) == 0 {
		return wordfight.Placement{}, false
	}
	if !b.p.best {
		return all[rng.IntN(len(all))].p, true
	}
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	if !b.p.open {
		for _, o := range all {
			if o.pts == top {
				return o.p, true
			}
		}
	}
	// Strong: the best-scoring placements, weighed by what the grid they
	// leave may still score when a word holding one of its runs comes.
	slices.SortStableFunc(all, func(x, y option) int { return cmp.Compare(y.pts, x.pts) })
	all = all[:min(len(all), maxTies)]
	if len(all) == 1 {
		return all[0].p, true
	}
	ext := b.newExtender()
	best, bestVal := all[0].p, -1e18
	for _, o := range all {
		if ctx.Err() != nil {
			break
		}
		h := g.Clone()
		h.Place(word, o.p)
		val := float64(o.pts) + b.p.future*ext.potential(h)
		if val > bestVal {
			best, bestVal = o.p, val
		}
	}
	return best, true
}
