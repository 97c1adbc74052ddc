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
	// Avoid lists the players this one is kept apart from (a block,
	// made by either): Arena never pairs them; whoever has nobody else
	// waits.
	Avoid []string
}

// Arena pairs an arena's waiting pool: it orders the players by points,
// then rating, then ID, and pairs each with the nearest player below who
// is not an immediate rematch (neither was the other's last opponent).
// Should that leave players over who could only meet again, it reopens the
// pairs near them and settles those players exactly, by minimum-cost
// matching: as many pairs as the pool allows, then as few immediate
// rematches as possible (none, whenever another opponent can take them),
// then the lowest-placed left to wait, then the closest standings. With an
// odd pool one player waits for the next game to end. Each pair lists the
// higher-placed player first; the caller chooses seats. Entries with an
// empty or repeated ID are ignored.
//
// Arena costs a sort and a walk down the standings, plus a small exact
// matching in the rare case above: 5,000 waiting players pair in a few
// milliseconds.
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
	apart := func(a, b int) bool {
		return slices.Contains(pool[a].Avoid, pool[b].ID) || slices.Contains(pool[b].Avoid, pool[a].ID)
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
			if !paired[j] && !rematch(i, j) && !apart(i, j) {
				paired[i], paired[j] = true, true
				idx = append(idx, [2]int{i, j})
				break
			}
		}
	}
	// Whoever is left over could only face a rematch among those still
	// free. When two or more are, settle them and the pairs around them
	// exactly.
	var left []int
	for i := range pool {
		if !paired[i] {
			left = append(left, i)
		}
	}
	if len(left) >= 2 {
		idx = settle(len(pool), idx, left, rematch)
		// Settling weighs rematches, not blocks: a pair kept apart
		// waits for others.
		idx = slices.DeleteFunc(idx, func(p [2]int) bool { return apart(p[0], p[1]) })
	}
	slices.SortFunc(idx, func(p, q [2]int) int { return cmp.Compare(min(p[0], p[1]), min(q[0], q[1])) })
	pairs = make([][2]string, len(idx))
	for k, p := range idx {
		a, b := min(p[0], p[1]), max(p[0], p[1])
		pairs[k] = [2]string{pool[a].ID, pool[b].ID}
	}
	return pairs
}

// Settling the players a greedy pass left over: pools up to smallPool are
// settled whole; in larger ones, the pairs within localWindow places of a
// left-over player are reopened, up to maxSettle players in all.
const (
	smallPool   = 64
	localWindow = 12
	maxSettle   = 200
)

// settle re-pairs the left-over players of a pool of n (in standings
// order) together with the pairs near them, by minimum-cost matching, and
// returns all the pairs.
func settle(n int, idx [][2]int, left []int, rematch func(a, b int) bool) [][2]int {
	open := make([]bool, n)
	for _, p := range left {
		open[p] = true
	}
	var keep [][2]int
	for _, pr := range idx {
		near := n <= smallPool
		for _, p := range left {
			if abs(pr[0]-p) <= localWindow || abs(pr[1]-p) <= localWindow {
				near = true
				break
			}
		}
		if near {
			open[pr[0]], open[pr[1]] = true, true
		} else {
			keep = append(keep, pr)
		}
	}
	var s []int
	for i, o := range open {
		if o {
			s = append(s, i)
		}
	}
	m := len(s)
	if m > maxSettle {
		// Too many to settle exactly in the time: pair the left-over
		// players in order, rematches or not.
		for k := 0; k+1 < len(left); k += 2 {
			idx = append(idx, [2]int{left[k], left[k+1]})
		}
		return idx
	}
	// Costs in strict order of importance: a rematch outweighs any choice
	// of who waits, which outweighs any closeness of standings (the
	// square of the places between two players, whose sum stays below
	// closeness).
	closeness := int64(m)*int64(n)*int64(n) + 1
	waitStep := closeness
	again := int64(m)*waitStep + closeness
	mate, err := MinCostMatching(m+m%2, func(i, j int) (int64, bool) {
		if j == m { // j is the virtual opponent: i waits
			return int64(m-1-i) * waitStep, true
		}
		d := int64(s[j] - s[i])
		c := d * d
		if rematch(s[i], s[j]) {
			c += again
		}
		return c, true
	})
	if err != nil {
		// Every pair is allowed, so only absurd sizes fail: fall back
		// as above.
		for k := 0; k+1 < len(left); k += 2 {
			idx = append(idx, [2]int{left[k], left[k+1]})
		}
		return idx
	}
	for k, j := range mate[:m] {
		if k < j && j < m {
			keep = append(keep, [2]int{s[k], s[j]})
		}
	}
	return keep
}
