package bot

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"parlour/games/wordfight"
)

// maxTies caps how many of the best placements (points less room cost)
// the strong player weighs for the extensions the grid they leave allows.
const maxTies = 24

// place chooses where to put word in g, or reports that it cannot.
func (b *Bot) place(ctx context.Context, rng *rand.Rand, v *wordfight.View, g *wordfight.Grid, word string) (wordfight.Placement, bool) {
	rules := v.Rules
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
	// Strong: the placements that score most less the room they cost
	// (how cramped the grid they leave is for the rivals' later long
	// words), weighed by what that grid may still score when a word
	// holding one of its runs comes.
	type weighed struct {
		option
		val float64
	}
	room := b.roomWeight(v)
	ws := make([]weighed, len(all))
	for i, o := range all {
		ws[i] = weighed{o, float64(o.pts)}
		if room > 0 {
			h := g.Clone()
			h.Place(word, o.p)
			ws[i].val -= b.roomCost(h, room)
		}
	}
	slices.SortStableFunc(ws, func(x, y weighed) int { return cmp.Compare(y.val, x.val) })
	ws = ws[:min(len(ws), maxTies)]
	if len(ws) == 1 {
		return ws[0].p, true
	}
	ext := b.newExtender()
	best, bestVal := ws[0].p, -1e18
	for _, o := range ws {
		if ctx.Err() != nil {
			break
		}
		h := g.Clone()
		h.Place(word, o.p)
		val := o.val + b.p.future*ext.potential(h)
		if val > bestVal {
			best, bestVal = o.p, val
		}
	}
	return best, true
}

// roomCost is what the strong player expects to lose on the rivals' later
// long words when its grid is h: how cramped h is for them (see cramp),
// times room, the weight of a miss.
func (b *Bot) roomCost(h *wordfight.Grid, room float64) float64 {
	return room * cramp(b.vocab.capacity().capacity(h))
}

// roomWeight is the weight of a miss in v's position: the player's room,
// times lastRoom once a miss, a strike, ends the game.
func (b *Bot) roomWeight(v *wordfight.View) float64 {
	if v.StrikeLimit-v.Strikes <= 1 {
		return b.p.room * b.p.lastRoom
	}
	return b.p.room
}

// roomValue returns the most that placing word in g scores less the room
// cost of the grid it leaves (see roomCost): what declaring word is worth
// to the player's own grid, room included.
func (b *Bot) roomValue(rules wordfight.Rules, g *wordfight.Grid, word string, room float64) float64 {
	best := math.Inf(-1)
	for p, reused := range g.Placements(b.lex, word) {
		h := g.Clone()
		h.Place(word, p)
		best = max(best, float64(rules.Score(reused, len(word)))-b.roomCost(h, room))
	}
	return best
}
