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
func (ps *pairs) crosses(w string) bool {
	for i := 0; i < len(w); i++ {
		for j := i + 1; j < len(w) && j-i < maxGap; j++ {
			if ps[w[i]-'a'][w[j]-'a'][j-i] {
				return true
			}
		}
	}
	return false
}

// crossers returns up to n vocabulary words, longest first (at random
// among equals), that may reuse two or more letters of g: under multiply
// they score at least twice their length, more than any word reusing one.
func (b *Bot) crossers(rng *rand.Rand, g *wordfight.Grid, n int) []string {
	if n <= 0 || g.Len() < 2 {
		return nil
	}
	ps := pairsOf(g)
	longest := g.Board().Longest()
	var out []string
	for _, w := range b.vocab.words {
		if len(w) <= longest && ps.crosses(w) {
			out = append(out, w)
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	slices.SortStableFunc(out, func(x, y string) int { return len(y) - len(x) })
	return out[:min(len(out), n)]
}
