package bot

import (
	"context"
	"math/rand/v2"

	"parlour/games/wordfight"
)

// maxTies caps how many equally scoring placements the strong player
// compares by openness.
const maxTies = 40

// place chooses where to put word in g, or reports that it cannot.
func (b *Bot) place(ctx context.Context, rng *rand.Rand, rules wordfight.Rules, g *wordfight.Grid, word string) (wordfight.Placement, bool) {
	if b.p.first {
		return g.CanPlace(b.lex, word)
	}
	var all []wordfight.Placement
	var pts []int
	top := -1
	for p, reused := range g.Placements(b.lex, word) {
		s := rules.Score(reused, len(word))
		all = append(all, p)
		pts = append(pts, s)
		top = max(top, s)
	}
	if len(all) == 0 {
		return wordfight.Placement{}, false
	}
	if !b.p.best {
		return all[rng.IntN(len(all))], true
	}
	var ties []wordfight.Placement
	for i, p := range all {
		if pts[i] == top {
			ties = append(ties, p)
		}
	}
	rng.Shuffle(len(ties), func(i, j int) { ties[i], ties[j] = ties[j], ties[i] })
	if !b.p.open || len(ties) == 1 {
		return ties[0], true
	}
	ties = ties[:min(len(ties), maxTies)]
	best, bestOpen := ties[0], -1
	for _, p := range ties {
		if ctx.Err() != nil {
			break
		}
		h := g.Clone()
		h.Place(word, p)
		if o := b.openness(h); o > bestOpen {
			best, bestOpen = p, o
		}
	}
	return best, true
}

// openness measures how well g can take later words: over the probe
// words, the letters each legal placement would reuse, summed. Placements
// that reuse more count more, since they score more under multiply.
func (b *Bot) openness(g *wordfight.Grid) int {
	n := 0
	for _, w := range b.vocab.probes {
		for _, reused := range g.Placements(b.lex, w) {
			n += reused
		}
	}
	return n
}
