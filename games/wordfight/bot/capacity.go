package bot

import (
	"math"

	"parlour/games/wordfight"
)

// capReach is the farthest reach, in squares either side of a letter,
// that the capacity table tells apart: a word of 12 letters needs at most
// 11 on one side.
const capReach = 12

// capacityTable gives, for a letter of a grid with a and b clean squares
// before and after it in one line, the expected number of ways a random
// long word (of capLengths) can be laid through it there: the share of
// such words holding the letter at an index that leaves at most a letters
// before it and b after.
type capacityTable [26][capReach][capReach]float64

func newCapacityTable(words []string) *capacityTable {
	// The lengths of the words a rival declares to cross its grid,
	// weighed as the best-scoring greedy player's declarations on the
	// bench are: half of them 12-letter words; words shorter than 7
	// letters seldom fail to fit (docs/bots.md, "Room for long words").
	capLengths := [...]struct{ n, weight int }{{7, 4}, {8, 7}, {9, 9}, {10, 12}, {11, 16}, {12, 50}}
	var t capacityTable
	total := 0
	for _, l := range capLengths {
		total += l.weight
	}
	for _, l := range capLengths {
		var at [26][capReach]int // letter, index
		n := 0
		for _, w := range words {
			if len(w) != l.n {
				continue
			}
			n++
			for i := 0; i < len(w); i++ {
				at[w[i]-'a'][i]++
			}
		}
		if n == 0 {
			continue
		}
		f := float64(l.weight) / float64(total) / float64(n)
		for ch := range at {
			for i := 0; i < l.n; i++ {
				if at[ch][i] == 0 {
					continue
				}
				v := f * float64(at[ch][i])
				for a := i; a < capReach; a++ {
					for b := l.n - 1 - i; b < capReach; b++ {
						t[ch][a][b] += v
					}
				}
			}
		}
	}
	return &t
}

// capacity measures how many ways g leaves for long words crossing its
// letters, without overlapping its words: for each letter and each
// direction in which it has no neighbour, the squares before and after it
// that are empty with empty squares either side (a new letter there
// makes no cross word), looked up in the table. A grid whose long words
// lie side by side a few squares apart walls in the lines between them;
// one whose words spread out leaves long clean lines through its letters.
func (t *capacityTable) capacity(g *wordfight.Grid) float64 {
	b := g.Board()
	total := 0.0
	for r := 0; r < b.Height(); r++ {
		for c := 0; c < b.Width(); c++ {
			ch := g.At(r, c)
			if ch == 0 {
				continue
			}
			for _, down := range [2]bool{false, true} {
				dr, dc := 0, 1
				if down {
					dr, dc = 1, 0
				}
				if g.At(r-dr, c-dc) != 0 || g.At(r+dr, c+dc) != 0 {
					continue
				}
				before := reach(g, r, c, -dr, -dc)
				after := reach(g, r, c, dr, dc)
				total += t[ch-'a'][min(before, capReach-1)][min(after, capReach-1)]
			}
		}
	}
	return total
}

// reach counts the squares from r, c in direction dr, dc where a word
// through r, c can put new letters without touching another word: empty,
// usable, with empty squares either side, and the square past the word's
// end empty.
func reach(g *wordfight.Grid, r, c, dr, dc int) int {
	b := g.Board()
	n := 0
	for {
		rr, cc := r+(n+1)*dr, c+(n+1)*dc
		if !b.Usable(rr, cc) {
			return n
		}
		if g.At(rr, cc) != 0 {
			return max(n-1, 0)
		}
		if g.At(rr+dc, cc+dr) != 0 || g.At(rr-dc, cc-dr) != 0 {
			return n
		}
		n++
	}
}

// cramp grows as a grid's capacity falls: 1 for a grid with no room for
// long words, 0.45 at capacity 2, 0.2 at 4. On the bench (strong against
// greedy-best, seed 1) half the rival's words found no place in grids of
// capacity under 0.9, one in five at about 1.2, almost none above 2; since
// the grid only fills up, room is worth keeping before it is that short,
// hence the slow fall.
func cramp(capacity float64) float64 {
	return math.Exp(-capacity / 2.5)
}
