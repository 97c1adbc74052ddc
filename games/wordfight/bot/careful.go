package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"

	"parlour/game"
	"parlour/games/wordfight"
	"parlour/lexicon"
)

// Careful is the name of the bench's careful baseline.
const Careful = "careful"

// The careful player's appetite: of its vocabulary (bestGreedyWords: SCOWL
// size 50 or less, 3 to 12 letters) it weighs carefulRandom words drawn at
// random, and up to carefulExtenders that hold a run of letters of its
// grid and carefulHolders that hold a word of the public list. A
// placement earns carefulEnds points for each free square beyond either
// end of the word, counting at most carefulEndsMax a side. It expects a
// rival to score carefulRival times the most it could (laying the word
// over a listed word it placed): a rival's grid is hidden, and the word
// it would lie over may be hemmed in there. These weights were chosen in
// 40-game trials against greedy-best on seeds of their own (555 +
// 7919 i), none of the bench's: ends 0 or 0.1 and rival 0.5 won 54-57%
// of games with 400 random words, against 33-47% for the other weights
// tried (rival 1 or 0, ends 0.25) and with 200.
const (
	carefulRandom    = 400
	carefulExtenders = 150
	carefulHolders   = 150
	carefulEnds      = 0.1
	carefulEndsMax   = 6
	carefulRival     = 0.5
)

// careful is the bench's careful baseline, a player of its own written
// apart from the levels' code (it uses only the referee's
// Grid.Placements and Rules.Score): it declares, of random words, words
// that extend runs of letters already in its grid and words that hold
// words of the public list, the one whose best score in its own grid
// most exceeds what it expects a rival to score with it, and it places
// each word where it scores most plus a bonus for the free squares left
// beyond both ends of the word, where a longer word holding it may go
// later.
type careful struct {
	seed  uint64
	lex   *lexicon.Lexicon
	words []string // most common first
	// ends and rival weigh the free squares beyond a placement's ends and
	// the rival's expected score (carefulEnds and carefulRival).
	ends, rival float64
}

var _ game.Bot = (*careful)(nil)

func newCareful(seed uint64, lex *lexicon.Lexicon) *careful {
	return &careful{seed: seed, lex: lex, words: bestGreedyWords(lex), ends: carefulEnds, rival: carefulRival}
}

// Setup implements game.Bot: Word Fight has no setup.
func (b *careful) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	return nil, nil
}

// Move implements game.Bot.
func (b *careful) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	v, err := asView(view)
	if err != nil {
		return "", err
	}
	if v.Seat != seat || v.Grid == nil {
		return "", fmt.Errorf("word fight careful: the view is not seat %d's", seat)
	}
	g, err := wordfight.GridFromRows(v.Grid)
	if err != nil {
		return "", fmt.Errorf("word fight careful: %w", err)
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "careful/%d/%d/%s", v.Seat, len(v.List), v.Current)
	rng := rand.New(rand.NewPCG(b.seed, h.Sum64()))
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
		v := float64(s) + b.ends*float64(freeBeyond(g, p, len(w)))
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
// a word of length n placed at p, at most carefulEndsMax a side.
func freeBeyond(g *wordfight.Grid, p wordfight.Placement, n int) int {
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
		for k := 1; k <= carefulEndsMax; k++ {
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
// own grid less the most a rival is expected to score with it is
// greatest; words it cannot place come last.
func (b *careful) declare(rng *rand.Rand, v *wordfight.View, g *wordfight.Grid) (string, error) {
	longest := g.Board().Longest()
	var cands []string
	for range 64 * carefulRandom {
		if len(b.words) == 0 || len(cands) == carefulRandom {
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
	cands = append(cands, b.holding(letterRuns(g), longest, carefulExtenders)...)
	cands = append(cands, b.holding(listed, longest, carefulHolders)...)
	rivals := rivalWords(v)
	word, top, placed := cands[0], 0.0, false
	for _, w := range cands {
		if slices.Contains(listed, w) {
			continue
		}
		own, ok := b.bestScore(v.Rules, g, w)
		if !ok {
			continue
		}
		val := float64(own) - b.rival*rivalEstimate(v.Rules, rivals, w)
		if !placed || val > top {
			word, top, placed = w, val, true
		}
	}
	return word, nil
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

// rivalWords returns, per other seat still playing, the words of the
// public list it placed (it did not say it could not), lower case.
func rivalWords(v *wordfight.View) [][]string {
	var out [][]string
	for s := range v.Players {
		if game.Seat(s) == v.Seat || (s < len(v.Resigned) && v.Resigned[s]) {
			continue
		}
		var ws []string
		for _, e := range v.List {
			if e.Done && !slices.Contains(e.Cannot, game.Seat(s)) {
				ws = append(ws, strings.ToLower(e.Word))
			}
		}
		out = append(out, ws)
	}
	return out
}

// rivalEstimate is what the careful player expects the best-placed rival
// to score with w: laid over a word of the list it placed and w holds,
// that word's letters reused; else one letter crossed; nothing in an
// empty grid.
func rivalEstimate(rules wordfight.Rules, rivals [][]string, w string) float64 {
	most := 0
	for _, ws := range rivals {
		if len(ws) == 0 {
			continue
		}
		reused := 1
		for _, x := range ws {
			if len(x) < len(w) && len(x) > reused && strings.Contains(w, x) {
				reused = len(x)
			}
		}
		most = max(most, rules.Score(reused, len(w)))
	}
	return float64(most)
}
