package bot

import (
	"math/rand/v2"
	"slices"

	"parlour/games/wordfight"
)

// maxGap is the farthest apart two letters of a word can lie.
const maxGap = wordfight.MaxSide

// pairs records which two letters lie in one row or column of a grid, and
// how far apart: a word can reuse two letters of the grid only where two
// of its own letters match such a pair.
type pairs [26][26][maxGap]bool

func pairsOf(g *wordfight.Grid) *pairs {
	var ps pairs
	b := g.Board()
	type at struct {
		ch  byte
		pos int
	}
	var line []at
	scan := func() {
		for i := range line {
			for j := i + 1; j < len(line); j++ {
				if d := line[j].pos - line[i].pos; d < maxGap {
					ps[line[i].ch-'a'][line[j].ch-'a'][d] = true
				}
			}
		}
		line = line[:0]
	}
	for r := 0; r < b.Height(); r++ {
		for c := 0; c < b.Width(); c++ {
			if ch := g.At(r, c); ch != 0 {
				line = append(line, at{ch, c})
			}
		}
		scan()
	}
	for c := 0; c < b.Width(); c++ {
		for r := 0; r < b.Height(); r++ {
			if ch := g.At(r, c); ch != 0 {
				line = append(line, at{ch, r})
			}
		}
		scan()
	}
	return &ps
}

// crosses reports whether two letters of w match a pair of ps.
func (ps *pairs) crosses(w string) bool { return ps.matches(w, 1) > 0 }

// matches counts the pairs of w's letters that match a pair of ps, up to
// limit.
func (ps *pairs) matches(w string, limit int) int {
	n := 0
	for i := 0; i < len(w); i++ {
		for j := i + 1; j < len(w) && j-i < maxGap; j++ {
			if ps[w[i]-'a'][w[j]-'a'][j-i] {
				if n++; n >= limit {
					return n
				}
			}
		}
	}
	return n
}

// crossers returns up to n vocabulary words that may reuse two or more
// letters of g (under multiply they score at least twice their length,
// more than any word reusing one), those that might score most first, at
// random among equals.
func (b *Bot) crossers(rng *rand.Rand, g *wordfight.Grid, n int) []string {
	if n <= 0 || g.Len() < 2 {
		return nil
	}
	ps := pairsOf(g)
	longest := g.Board().Longest()
	type cand struct {
		w     string
		bound int // the points it might score: its length times 2, or 3
	}
	var cs []cand
	for _, w := range b.vocab.words {
		if len(w) > longest {
			continue
		}
		// Three letters in one line make three pairs: a word matching
		// three may reuse three letters.
		if m := ps.matches(w, 3); m > 0 {
			cs = append(cs, cand{w, len(w) * min(m+1, 3)})
		}
	}
	rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	slices.SortStableFunc(cs, func(x, y cand) int { return y.bound - x.bound })
	out := make([]string, min(len(cs), n))
	for i := range out {
		out[i] = cs[i].w
	}
	return out
}
