package pairing

import (
	"fmt"
	"math"
)

// MinCostMatching pairs the vertices 0..n−1 of a complete graph so that
// every vertex has exactly one partner and the pairs' total cost is least.
// cost(i, j) gives the cost of pairing i with j (i < j, called once for
// each pair); ok=false forbids that pair. It returns mate, where mate[i] is
// i's partner. It fails, wrapping [ErrNoPairing], when no perfect matching
// avoids the forbidden pairs (always when n is odd), and when costs are
// negative or so large that their sum could overflow.
//
// Among matchings of equal cost the result is deterministic: it depends
// only on n and the costs.
func MinCostMatching(n int, cost func(i, j int) (int64, bool)) ([]int, error) {
	if n < 0 {
		return nil, fmt.Errorf("matching %d vertices", n)
	}
	if n%2 == 1 {
		return nil, fmt.Errorf("%d players cannot all be paired: %w", n, ErrNoPairing)
	}
	if n == 0 {
		return []int{}, nil
	}
	// The costs as a matrix, with −1 for a forbidden pair.
	c := make([][]int64, n)
	for i := range c {
		c[i] = make([]int64, n)
	}
	limit := int64(math.MaxInt64 / 4 / int64(n))
	for i := 0; i < n; i++ {
		c[i][i] = -1
		for j := i + 1; j < n; j++ {
			w, ok := cost(i, j)
			if !ok {
				w = -1
			} else if w < 0 {
				return nil, fmt.Errorf("pairing %d with %d costs %d: costs must not be negative", i, j, w)
			} else if w > limit {
				return nil, fmt.Errorf("pairing %d with %d costs %d: costs must stay below %d for %d players", i, j, w, limit, n)
			}
			c[i][j], c[j][i] = w, w
		}
	}
	return matchSmall(c)
}

// matchSmall finds a least-cost perfect matching by dynamic programming
// over subsets; it serves fields of up to 20 players.
func matchSmall(c [][]int64) ([]int, error) {
	n := len(c)
	if n > 20 {
		return nil, fmt.Errorf("matching %d players is not supported yet", n)
	}
	const none = math.MaxInt64
	full := 1<<n - 1
	best := make([]int64, 1<<n)
	for s := range best {
		best[s] = -2 // not yet known
	}
	best[full] = 0
	var solve func(s int) int64
	solve = func(s int) int64 {
		if best[s] != -2 {
			return best[s]
		}
		i := 0
		for s&(1<<i) != 0 {
			i++
		}
		r := int64(none)
		for j := i + 1; j < n; j++ {
			if s&(1<<j) != 0 || c[i][j] < 0 {
				continue
			}
			rest := solve(s | 1<<i | 1<<j)
			if rest != none && c[i][j]+rest < r {
				r = c[i][j] + rest
			}
		}
		best[s] = r
		return r
	}
	if solve(0) == none {
		return nil, fmt.Errorf("%d players: %w", n, ErrNoPairing)
	}
	mate := make([]int, n)
	s := 0
	for s != full {
		i := 0
		for s&(1<<i) != 0 {
			i++
		}
		for j := i + 1; j < n; j++ {
			if s&(1<<j) != 0 || c[i][j] < 0 {
				continue
			}
			rest := solve(s | 1<<i | 1<<j)
			if rest != none && c[i][j]+rest == best[s] {
				mate[i], mate[j] = j, i
				s |= 1<<i | 1<<j
				break
			}
		}
	}
	return mate, nil
}
