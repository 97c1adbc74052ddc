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
	probes := b.probes(rng, g.Board().Longest())
	best, bestVal := all[0].p, -1e18
	for _, o := range all {
		if ctx.Err() != nil {
			break
		}
		h := g.Clone()
		h.Place(word, o.p)
		val := float64(o.pts) + b.p.future*ext.potential(h)
		if len(probes) > 0 {
			val += b.p.room * roomFor(b, h, probes)
		}
		if val > bestVal {
			best, bestVal = o.p, val
		}
	}
	return best, true
}

// probes draws the words a placement's grid is tried against for room:
// b.p.probes long words of the vocabulary, the kind a rival declares to
// cross two or three letters of its grid.
func (b *Bot) probes(rng *rand.Rand, longest int) []string {
	if b.p.probes == 0 || len(b.vocab.words) == 0 {
		return nil
	}
	out := make([]string, 0, b.p.probes)
	for range 64 * b.p.probes {
		if len(out) == b.p.probes {
			break
		}
		if w := b.vocab.words[rng.IntN(len(b.vocab.words))]; len(w) >= minProbe && len(w) <= longest {
			out = append(out, w)
		}
	}
	return out
}

// minProbe is the shortest word a placement's room is tried with.
const minProbe = 6

// roomFor returns the share of probes that g can still take.
func roomFor(b *Bot, g *wordfight.Grid, probes []string) float64 {
	n := 0
	for _, w := range probes {
		if _, ok := g.CanPlace(b.lex, w); ok {
			n++
		}
	}
	return float64(n) / float64(len(probes))
}
