package bot

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"

	"parlour/game"
	"parlour/games/wordfight"
	"parlour/lexicon"
)

// Careful is the name of the bench's careful baseline.
const Careful = "careful"

// carefulWeights are the careful player's appetite and judgement.
type carefulWeights struct {
	// random, extenders and holders are how many words it weighs for a
	// declaration: drawn at random from its vocabulary, holding a run of
	// letters of its grid, and holding a word of the public list.
	random, extenders, holders int
	// ends is what a placement earns for each free square beyond either
	// end of the word, counting at most endsMax a side.
	ends    float64
	endsMax int
	// rival weighs what the best rival is expected to score with a word
	// against what the player scores with it.
	rival float64
	// grids is how many grids the player imagines for each rival, and
	// shortlist how many of its best-scoring candidates it weighs in them.
	grids, shortlist int
	// strike is what ending the game with a strike is worth, per unit of
	// chance that the rival cannot place the word: a gain while the player
	// leads, a loss while it trails; a strike that does not end the game
	// counts strike/4.
	strike float64
}

// carefulTuned are the weights the bench's careful player plays with.
// They were chosen in trials against greedy-best on tuning seeds of their
// own (see docs/bots.md), none of the bench's held-out seeds.
var carefulTuned = carefulWeights{
	random: 3000, extenders: 400, holders: 400,
	ends: 0.1, endsMax: 6,
	rival: 0.5, grids: 16, shortlist: 150,
	strike: 20,
}

// careful is the bench's careful baseline, a player of its own written
// apart from the levels' code (it uses only the referee's
// Grid.Placements, Grid.Place and Rules.Score): it declares, of random
// words, words that extend runs of letters already in its grid and words
// that hold words of the public list, the one whose best score in its own
// grid most exceeds what it expects the best rival to score with it, and
// it places each word where it scores most plus a bonus for the free
// squares left beyond both ends of the word, where a longer word holding
// it may go later. It expects a rival to play like a best-scoring greedy
// player: it imagines the rival's grid by replaying the public list into
// empty grids, each word where it scores most (at random among equals),
// weighing each imagined grid by how well it agrees with what the rival
// could and could not place, and takes the rival's score with a word to
// be its mean best score over those grids (nothing where it does not fit).
type careful struct {
	seed  uint64
	lex   *lexicon.Lexicon
	words []string // most common first
	w     carefulWeights
}

var _ game.Bot = (*careful)(nil)

func newCareful(seed uint64, lex *lexicon.Lexicon) *careful {
	return &careful{seed: seed, lex: lex, words: bestGreedyWords(lex), w: carefulTuned}
}

// Setup implements game.Bot: Word Fight has no setup.
func (b *careful) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	return nil, nil
}

// Move implements game.Bot.
func (b *careful) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	v, g, rng, err := seatView(view, seat, "careful", "careful/", b.seed)
	if err != nil {
		return "", err
	}
	if v.Current != "" {
		p, _, ok := b.place(rng, v.Rules, g, strings.ToLower(v.Current))
		if !ok {
			return "cannot", nil
		}
		return "place " + p.String(), nil
	}
	w, err := b.declare(rng, v, g)
	if err != nil {
		return "", err
	}
	return "declare " + w, nil
}

// place returns the placement of w in g that scores most with the bonus
// for the free squares beyond its ends, drawn at random among equals, and
// its points without the bonus; ok is false when w has no legal placement.
func (b *careful) place(rng *rand.Rand, rules wordfight.Rules, g *wordfight.Grid, w string) (at wordfight.Placement, pts int, ok bool) {
	best, ties := 0.0, 0
	for p, reused := range g.Placements(b.lex, w) {
		s := rules.Score(reused, len(w))
		v := float64(s) + b.w.ends*float64(freeBeyond(g, p, len(w), b.w.endsMax))
		switch {
		case !ok || v > best+1e-9:
			at, pts, best, ok, ties = p, s, v, true, 1
		case v >= best-1e-9:
			ties++
			if rng.IntN(ties) == 0 {
				at, pts = p, s
			}
		}
	}
	return at, pts, ok
}

// bestScore returns the most points w scores in g, or false when it has
// no legal placement.
func (b *careful) bestScore(rules wordfight.Rules, g *wordfight.Grid, w string) (int, bool) {
	top, ok := 0, false
	for _, reused := range g.Placements(b.lex, w) {
		if s := rules.Score(reused, len(w)); !ok || s > top {
			top, ok = s, true
		}
	}
	return top, ok
}

// freeBeyond counts the empty usable squares in a row beyond each end of
// a word of length n placed at p, at most most a side.
func freeBeyond(g *wordfight.Grid, p wordfight.Placement, n, most int) int {
	dr, dc := 0, 1
	if p.Down {
		dr, dc = 1, 0
	}
	free := 0
	for _, dir := range []int{-1, 1} {
		r, c := p.Row, p.Col
		if dir > 0 {
			r, c = p.Row+dr*(n-1), p.Col+dc*(n-1)
		}
		for k := 1; k <= most; k++ {
			rr, cc := r+dir*dr*k, c+dir*dc*k
			if !g.Board().Usable(rr, cc) || g.At(rr, cc) != 0 {
				break
			}
			free++
		}
	}
	return free
}

// declare returns, of its candidates, the word whose best score in its
// own grid less what the best rival is expected to score with it, with
// the worth of the strike it may bring, is greatest. It never declares a
// listed word or one it cannot place itself, while it has another.
func (b *careful) declare(rng *rand.Rand, v *wordfight.View, g *wordfight.Grid) (string, error) {
	longest := g.Board().Longest()
	var cands []string
	for range 64 * b.w.random {
		if len(b.words) == 0 || len(cands) == b.w.random {
			break
		}
		if w := b.words[rng.IntN(len(b.words))]; len(w) <= longest {
			cands = append(cands, w)
		}
	}
	if len(cands) == 0 {
		for n := 2; n <= longest; n++ {
			if ws := b.lex.OfLength(n); len(ws) > 0 {
				return ws[0], nil
			}
		}
		return "", errors.New("word fight careful: no word of the lexicon fits the board")
	}
	if g.Len() == 0 {
		return cands[0], nil
	}
	var listed []string
	for _, e := range v.List {
		listed = append(listed, strings.ToLower(e.Word))
	}
	cands = append(cands, b.holding(letterRuns(g), longest, b.w.extenders)...)
	cands = append(cands, b.holding(listed, longest, b.w.holders)...)
	type cand struct {
		w   string
		own int
		val float64
	}
	var ranked []cand
	seen := map[string]bool{}
	for _, w := range cands {
		if seen[w] || slices.Contains(listed, w) {
			continue
		}
		seen[w] = true
		if own, ok := b.bestScore(v.Rules, g, w); ok {
			ranked = append(ranked, cand{w, own, float64(own)})
		}
	}
	if len(ranked) == 0 {
		return cands[0], nil
	}
	slices.SortStableFunc(ranked, func(x, y cand) int { return cmp.Compare(y.own, x.own) })
	rivals := b.imagineRivals(rng, v, g.Board())
	if len(rivals) == 0 {
		return ranked[0].w, nil
	}
	// The best rival's points so far, by the imagined grids.
	theirs := 0.0
	for _, r := range rivals {
		theirs = max(theirs, r.points())
	}
	left := v.StrikeLimit - v.Strikes
	top := ranked[:min(len(ranked), b.w.shortlist)]
	for i := range top {
		gain, miss := 0.0, 0.0
		for _, r := range rivals {
			pts, cannot := r.expect(b, v.Rules, top[i].w)
			gain = max(gain, pts)
			miss = max(miss, cannot)
		}
		val := float64(top[i].own) - b.w.rival*gain
		if miss > 0 {
			worth := b.w.strike
			if left > 1 {
				worth /= 4
			}
			if float64(v.Score+top[i].own) <= theirs+gain {
				worth = -worth
			}
			val += worth * miss
		}
		top[i].val = val
	}
	slices.SortStableFunc(top, func(x, y cand) int { return cmp.Compare(y.val, x.val) })
	return top[0].w, nil
}

// holding returns up to limit words, most common first, no longer than
// longest, that hold one of parts (of three letters or more) and are
// longer than it.
func (b *careful) holding(parts []string, longest, limit int) []string {
	var long []string
	for _, p := range parts {
		if len(p) >= 3 {
			long = append(long, p)
		}
	}
	if len(long) == 0 {
		return nil
	}
	var out []string
	for _, w := range b.words {
		if len(out) == limit {
			break
		}
		if len(w) > longest {
			continue
		}
		for _, p := range long {
			if len(w) > len(p) && strings.Contains(w, p) {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

// letterRuns returns the runs of two letters or more across and down g.
func letterRuns(g *wordfight.Grid) []string {
	b := g.Board()
	var out []string
	scan := func(n, m int, at func(i, j int) byte) {
		for i := range n {
			run := []byte{}
			for j := 0; j <= m; j++ {
				var ch byte
				if j < m {
					ch = at(i, j)
				}
				if ch != 0 {
					run = append(run, ch)
					continue
				}
				if len(run) >= 2 {
					out = append(out, string(run))
				}
				run = run[:0]
			}
		}
	}
	scan(b.Height(), b.Width(), func(r, c int) byte { return g.At(r, c) })
	scan(b.Width(), b.Height(), func(c, r int) byte { return g.At(r, c) })
	return out
}

// guessedGrid is a grid a rival may hold, the points it would have scored
// in it, and how much the careful player believes in it.
type guessedGrid struct {
	g      *wordfight.Grid
	pts    float64
	weight float64
}

// guessedRival is the grids the careful player imagines for one rival.
type guessedRival []guessedGrid

// Agreement weighs an imagined grid down for each word the rival placed
// that it could not take, and each the rival could not place that it
// could.
const carefulDisagree = 0.25

// imagineRivals imagines b.w.grids grids for each rival still playing:
// the public list replayed into an empty board, each word the rival
// answered placed where it scores most (at random among equals).
func (b *careful) imagineRivals(rng *rand.Rand, v *wordfight.View, board *wordfight.Board) []guessedRival {
	var out []guessedRival
	for s := range v.Players {
		if game.Seat(s) == v.Seat || (s < len(v.Resigned) && v.Resigned[s]) {
			continue
		}
		r := make(guessedRival, b.w.grids)
		for k := range r {
			r[k] = guessedGrid{g: wordfight.NewGrid(board), weight: 1}
			for _, e := range v.List {
				if !e.Done {
					continue
				}
				w := strings.ToLower(e.Word)
				placed := !slices.Contains(e.Cannot, game.Seat(s))
				at, pts, ok := bestPlacement(b.lex, rng, v.Rules, r[k].g, w)
				switch {
				case ok && placed:
					r[k].g.Place(w, at)
					r[k].pts += float64(pts)
				case ok != placed:
					r[k].weight *= carefulDisagree
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// points returns the rival's points so far, by its imagined grids.
func (r guessedRival) points() float64 {
	sum, weight := 0.0, 0.0
	for _, x := range r {
		sum += x.weight * x.pts
		weight += x.weight
	}
	return sum / weight
}

// expect returns what the rival is expected to score with w, and the
// chance that it cannot place w, over its imagined grids.
func (r guessedRival) expect(b *careful, rules wordfight.Rules, w string) (pts, cannot float64) {
	weight := 0.0
	for _, x := range r {
		weight += x.weight
		if s, ok := b.bestScore(rules, x.g, w); ok {
			pts += x.weight * float64(s)
		} else {
			cannot += x.weight
		}
	}
	return pts / weight, cannot / weight
}
