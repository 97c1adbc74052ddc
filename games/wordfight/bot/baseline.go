package bot

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"

	"parlour/game"
	"parlour/games/wordfight"
	"parlour/lexicon"
)

// The best-scoring greedy player's vocabulary and appetite: words of SCOWL
// size 50 or less, 3 to 12 letters; of them it weighs bestGreedyRandom at
// random and up to bestGreedyHolders that hold a word of its grid.
const (
	bestGreedyRarest  = 50
	bestGreedyRandom  = 400
	bestGreedyHolders = 120
)

// bestGreedy is the bench's best-scoring greedy player, the opponent an
// outside engine was measured against: it places every word where it scores most
// (at random among equals) and says "cannot" only when no placement is
// legal; it declares, of a few hundred random words and the words that
// hold a word of its grid, the one that scores most in its own grid. It
// has no thought for the other players and no look-ahead, and it shares
// none of the levels' search (Bot's placement weighing, crossing words,
// imagined grids): only the referee's Grid.Placements and Rules.Score.
type bestGreedy struct {
	seed  uint64
	lex   *lexicon.Lexicon
	words []string // most common first
}

var _ game.Bot = (*bestGreedy)(nil)

func newBestGreedy(seed uint64, lex *lexicon.Lexicon, words []string) *bestGreedy {
	return &bestGreedy{seed: seed, lex: lex, words: words}
}

// bestGreedyKey files bestGreedyWords with its lexicon (Lexicon.Derived).
type bestGreedyKey struct{}

// bestGreedyWords lists the words the best-scoring greedy player may
// declare, most common first: made once per lexicon, shared by every
// such player.
func bestGreedyWords(lex *lexicon.Lexicon) []string {
	return lex.Derived(bestGreedyKey{}, func() any { return listBestGreedyWords(lex) }).([]string)
}

func listBestGreedyWords(lex *lexicon.Lexicon) []string {
	var out []string
	for w, c := range lex.ByCommonness() {
		if c > bestGreedyRarest {
			break
		}
		if len(w) >= 3 && len(w) <= 12 {
			out = append(out, w)
		}
	}
	return out
}

// Setup implements game.Bot: Word Fight has no setup.
func (b *bestGreedy) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	return nil, nil
}

// Move implements game.Bot.
func (b *bestGreedy) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	v, g, rng, err := seatView(view, seat, "greedy-best", "greedy-best/", b.seed)
	if err != nil {
		return "", err
	}
	if v.Current != "" {
		p, _, ok := bestPlacement(b.lex, rng, v.Rules, g, strings.ToLower(v.Current))
		if !ok {
			return "cannot", nil
		}
		return "place " + p.String(), nil
	}
	w, err := b.declare(rng, v.Rules, g)
	if err != nil {
		return "", err
	}
	return "declare " + w, nil
}

// bestPlacement returns a placement of w in g that scores most, drawn at
// random among equals, and its score; ok is false when w has no legal
// placement. It is how the greedy baseline places its words, and how the
// careful player expects a rival to place theirs.
func bestPlacement(lex *lexicon.Lexicon, rng *rand.Rand, rules wordfight.Rules, g *wordfight.Grid, w string) (at wordfight.Placement, pts int, ok bool) {
	ties := 0
	for p, reused := range g.Placements(lex, w) {
		s := rules.Score(reused, len(w))
		switch {
		case !ok || s > pts:
			at, pts, ok, ties = p, s, true, 1
		case s == pts:
			ties++
			if rng.IntN(ties) == 0 {
				at = p
			}
		}
	}
	return at, pts, ok
}

// declare returns the candidate word that scores most in g: the first
// word of a grid scores alike wherever it goes, so it is a random one.
func (b *bestGreedy) declare(rng *rand.Rand, rules wordfight.Rules, g *wordfight.Grid) (string, error) {
	longest := g.Board().Longest()
	var fits []string
	for range 64 * bestGreedyRandom {
		if len(b.words) == 0 || len(fits) == bestGreedyRandom {
			break
		}
		if w := b.words[rng.IntN(len(b.words))]; len(w) <= longest {
			fits = append(fits, w)
		}
	}
	if len(fits) == 0 {
		for n := 2; n <= longest; n++ {
			if ws := b.lex.OfLength(n); len(ws) > 0 {
				return ws[0], nil
			}
		}
		return "", errors.New("word fight greedy-best: no word of the lexicon fits the board")
	}
	if g.Len() == 0 {
		return fits[0], nil
	}
	cands := append(fits, b.holders(g, longest)...)
	word, top := fits[0], -1
	for _, w := range cands {
		if _, s, ok := bestPlacement(b.lex, rng, rules, g, w); ok && s > top {
			word, top = w, s
		}
	}
	return word, nil
}

// holders returns up to bestGreedyHolders words, most common first, that
// are longer than a word of g's rows or columns (of three letters or
// more) and hold it: laid over it they reuse all its letters.
func (b *bestGreedy) holders(g *wordfight.Grid, longest int) []string {
	var runs []string
	for _, r := range runsOf(g) {
		if len(r) >= 3 {
			runs = append(runs, r)
		}
	}
	var out []string
	for _, w := range b.words {
		if len(out) == bestGreedyHolders {
			break
		}
		if len(w) > longest {
			continue
		}
		for _, r := range runs {
			if len(w) > len(r) && strings.Contains(w, r) {
				out = append(out, w)
				break
			}
		}
	}
	return out
}
