package pairing

import (
	"fmt"
	"math"
	"slices"
)

// MinCostMatching pairs the vertices 0..n−1 of a complete graph so that
// every vertex has exactly one partner and the pairs' total cost is least.
// cost(i, j) gives the cost of pairing i with j (i < j, called once for
// each pair); ok=false forbids that pair. It returns mate, where mate[i] is
// i's partner. It fails, wrapping [ErrNoPairing], when no perfect matching
// avoids the forbidden pairs (always when n is odd); and it refuses
// negative costs, and costs so large that sums of them could overflow
// (above math.MaxInt64 / (8n)).
//
// The work is Edmonds' weighted blossom algorithm, in the O(n³) form Galil
// describes ("Efficient algorithms for finding maximum matching in graphs",
// 1986), run on weights C − cost with C larger than any matching's total
// cost: a matching of more pairs then always weighs more than one of
// fewer, so the heaviest matching is perfect whenever a perfect matching
// exists, and among perfect matchings the heaviest is the cheapest. A
// round of 500 players takes a fraction of a second and about 9 MB; time
// grows as the cube of n, memory as the square.
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
	limit := int64(math.MaxInt64 / 8 / int64(n))
	costs := make([]int64, n*n) // −1 for a forbidden pair
	var maxCost int64
	for i := range n {
		costs[i*n+i] = -1
		for j := i + 1; j < n; j++ {
			c, ok := cost(i, j)
			switch {
			case !ok:
				c = -1
			case c < 0:
				return nil, fmt.Errorf("pairing %d with %d costs %d: costs must not be negative", i, j, c)
			case c > limit:
				return nil, fmt.Errorf("pairing %d with %d costs %d: costs must stay below %d for %d players", i, j, c, limit, n)
			}
			costs[i*n+j], costs[j*n+i] = c, c
			maxCost = max(maxCost, c)
		}
	}
	// Any matching's total cost is at most n/2 · maxCost < offset, so each
	// pair's weight offset − cost is positive and more pairs weigh more.
	offset := int64(n/2)*maxCost + 1
	b := newBlossom(n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			if c := costs[i*n+j]; c >= 0 {
				b.setWeight(i+1, j+1, offset-c)
			}
		}
	}
	b.solve()
	mate := make([]int, n)
	for i := range n {
		m := b.mate[i+1]
		if m == 0 {
			return nil, fmt.Errorf("%d players: %w", n, ErrNoPairing)
		}
		mate[i] = int(m) - 1
	}
	return mate, nil
}

// edge is an edge of the blossom algorithm's graph: its two vertices and
// its weight (0: no edge). Between two top-level blossoms the matrix keeps
// the one edge of least slack, with its real end vertices.
type edge struct {
	u, v int32
	w    int64
}

// blossom is the state of the weighted blossom algorithm on vertices 1..n
// (0 stands for none). Indices above n name non-trivial blossoms: each
// holds at least three sub-blossoms and they nest, so at most (n−1)/2
// live at once, and a dissolved blossom's index is reused; n/2 indices
// suffice.
//
// Duals are kept doubled for blossoms, so that everything stays integer:
// the slack of edge uv is dual[u] + dual[v] − 2w, over real vertices only.
// With integer weights every vertex of the alternating forest has a dual of
// the same parity (tight edges join equal parities and the free vertices
// share one dual), so the slack between two outer vertices is even and
// half of it is whole.
type blossom struct {
	n, nx int
	g     []edge  // size², g[x*size+y]
	size  int     // n + n/2 + 1
	dual  []int64 // the dual of a vertex; twice the dual of a blossom
	mate  []int32 // for a top-level blossom or vertex: the vertex it is matched to
	slack []int32 // for a top-level blossom: the outer vertex of its least-slack edge
	// least is the slack of that edge, kept as duals change: every edge
	// from an outer vertex to one blossom changes slack alike (by −d to a
	// blossom outside the forest, by −2d to an outer one), so the least
	// stays least and one subtraction keeps it exact.
	least  []int64
	top    []int32   // the top-level blossom holding each vertex or blossom
	parent []int32   // the vertex by which an inner blossom hangs in its tree
	label  []int8    // −1 free of the forest, 0 outer (S), 1 inner (T)
	seen   []int32   // stamps for the search of a common ancestor
	stamp  int32     // the current stamp
	kids   [][]int32 // a blossom's sub-blossoms round its cycle, base first
	from   [][]int32 // from[b][v]: the sub-blossom of b holding vertex v
	queue  []int32   // outer vertices whose edges are still to scan
}

func newBlossom(n int) *blossom {
	size := n + n/2 + 1
	b := &blossom{
		n: n, nx: n, size: size,
		g:      make([]edge, size*size),
		dual:   make([]int64, size),
		mate:   make([]int32, size),
		slack:  make([]int32, size),
		least:  make([]int64, size),
		top:    make([]int32, size),
		parent: make([]int32, size),
		label:  make([]int8, size),
		seen:   make([]int32, size),
		kids:   make([][]int32, size),
		from:   make([][]int32, size),
	}
	for x := range size {
		for y := range size {
			b.g[x*size+y] = edge{u: int32(x), v: int32(y)}
		}
	}
	for x := 0; x <= n; x++ {
		b.top[x] = int32(x)
	}
	for x := 1; x < size; x++ {
		b.from[x] = make([]int32, n+1)
		if x <= n {
			b.from[x][x] = int32(x)
		}
	}
	return b
}

func (b *blossom) at(x, y int32) *edge { return &b.g[int(x)*b.size+int(y)] }

func (b *blossom) setWeight(u, v int, w int64) {
	b.g[u*b.size+v].w = w
	b.g[v*b.size+u].w = w
}

// delta is the slack of e.
func (b *blossom) delta(e *edge) int64 {
	return b.dual[e.u] + b.dual[e.v] - 2*e.w
}

// updateSlack records u's edge to top-level blossom x if it is the least
// slack one seen.
func (b *blossom) updateSlack(u, x int32) {
	b.offerSlack(u, x, b.delta(b.at(u, x)))
}

// offerSlack is updateSlack with the edge's slack d already known.
func (b *blossom) offerSlack(u, x int32, d int64) {
	if b.slack[x] == 0 || d < b.least[x] {
		b.slack[x], b.least[x] = u, d
	}
}

// setSlack recomputes x's least-slack edge to the outer vertices.
func (b *blossom) setSlack(x int32) {
	b.slack[x] = 0
	for u := int32(1); u <= int32(b.n); u++ {
		if b.at(u, x).w > 0 && b.top[u] != x && b.label[b.top[u]] == 0 {
			b.updateSlack(u, x)
		}
	}
}

// push queues the vertices of blossom x for scanning.
func (b *blossom) push(x int32) {
	if x <= int32(b.n) {
		b.queue = append(b.queue, x)
		return
	}
	for _, k := range b.kids[x] {
		b.push(k)
	}
}

// setTop makes t the top-level blossom of x and everything inside it.
func (b *blossom) setTop(x, t int32) {
	b.top[x] = t
	if x > int32(b.n) {
		for _, k := range b.kids[x] {
			b.setTop(k, t)
		}
	}
}

// evenPosition returns the position of sub-blossom k in blossom x's
// cycle, first turning the cycle round (keeping its base) if that makes
// the position even, so that the path from the base to k alternates
// properly.
func (b *blossom) evenPosition(x, k int32) int {
	pos := slices.Index(b.kids[x], k)
	if pos%2 == 1 {
		slices.Reverse(b.kids[x][1:])
		return len(b.kids[x]) - pos
	}
	return pos
}

// match matches top-level blossom u along its edge to v, rematching the
// cycle inside u so that the vertex the edge leaves from becomes its base.
func (b *blossom) match(u, v int32) {
	e := *b.at(u, v)
	b.mate[u] = e.v
	if u <= int32(b.n) {
		return
	}
	k := b.from[u][e.u]
	pos := b.evenPosition(u, k)
	for i := range pos {
		b.match(b.kids[u][i], b.kids[u][i^1])
	}
	b.match(k, v)
	kids := b.kids[u]
	b.kids[u] = append(slices.Clone(kids[pos:]), kids[:pos]...)
}

// augment flips the alternating path from top-level blossom u up to its
// tree's root, u taking v.
func (b *blossom) augment(u, v int32) {
	for {
		next := b.top[b.mate[u]]
		b.match(u, v)
		if next == 0 {
			return
		}
		b.match(next, b.top[b.parent[next]])
		u, v = b.top[b.parent[next]], next
	}
}

// commonAncestor returns the nearest outer blossom on both u's and v's
// paths to their roots, or 0 when they lie in different trees.
func (b *blossom) commonAncestor(u, v int32) int32 {
	b.stamp++
	for u != 0 || v != 0 {
		if u != 0 {
			if b.seen[u] == b.stamp {
				return u
			}
			b.seen[u] = b.stamp
			u = b.top[b.mate[u]]
			if u != 0 {
				u = b.top[b.parent[u]]
			}
		}
		u, v = v, u
	}
	return 0
}

// addBlossom shrinks the odd cycle through u, v and their common ancestor
// a into a new outer blossom.
func (b *blossom) addBlossom(u, a, v int32) {
	nb := int32(b.n + 1)
	for nb <= int32(b.nx) && b.top[nb] != 0 {
		nb++
	}
	if nb > int32(b.nx) {
		b.nx++
	}
	b.dual[nb], b.label[nb] = 0, 0
	b.mate[nb] = b.mate[a]
	kids := append(b.kids[nb][:0], a)
	for x := u; x != a; {
		y := b.top[b.mate[x]]
		kids = append(kids, x, y)
		b.push(y)
		x = b.top[b.parent[y]]
	}
	slices.Reverse(kids[1:])
	for x := v; x != a; {
		y := b.top[b.mate[x]]
		kids = append(kids, x, y)
		b.push(y)
		x = b.top[b.parent[y]]
	}
	b.kids[nb] = kids
	b.setTop(nb, nb)
	for x := int32(1); x <= int32(b.nx); x++ {
		b.at(nb, x).w, b.at(x, nb).w = 0, 0
	}
	clear(b.from[nb])
	for _, k := range kids {
		for x := int32(1); x <= int32(b.nx); x++ {
			if e := b.at(k, x); e.w > 0 && (b.at(nb, x).w == 0 || b.delta(e) < b.delta(b.at(nb, x))) {
				*b.at(nb, x), *b.at(x, nb) = *e, *b.at(x, k)
			}
		}
		for x := 1; x <= b.n; x++ {
			if b.from[k][x] != 0 {
				b.from[nb][x] = k
			}
		}
	}
	b.setSlack(nb)
}

// expand dissolves inner blossom x, whose dual has reached zero, giving
// its sub-blossoms their places in the tree.
func (b *blossom) expand(x int32) {
	for _, k := range b.kids[x] {
		b.setTop(k, k)
	}
	k := b.from[x][b.at(x, b.parent[x]).u]
	pos := b.evenPosition(x, k)
	for i := 0; i < pos; i += 2 {
		ks, kn := b.kids[x][i], b.kids[x][i+1]
		b.parent[ks] = b.at(kn, ks).u
		b.label[ks], b.label[kn] = 1, 0
		b.slack[ks] = 0
		b.setSlack(kn)
		b.push(kn)
	}
	b.label[k] = 1
	b.parent[k] = b.parent[x]
	for _, ks := range b.kids[x][pos+1:] {
		b.label[ks] = -1
		b.setSlack(ks)
	}
	b.top[x] = 0
}

// tight handles a tight edge e from an outer vertex: it grows the tree,
// shrinks a blossom, or reports an augmenting path (and augments).
func (b *blossom) tight(e edge) bool {
	u, v := b.top[e.u], b.top[e.v]
	switch b.label[v] {
	case -1:
		b.parent[v] = e.u
		b.label[v] = 1
		nu := b.top[b.mate[v]]
		b.slack[v], b.slack[nu] = 0, 0
		b.label[nu] = 0
		b.push(nu)
	case 0:
		a := b.commonAncestor(u, v)
		if a == 0 {
			b.augment(u, v)
			b.augment(v, u)
			return true
		}
		b.addBlossom(u, a, v)
	}
	return false
}

// stage grows alternating trees from every free vertex, adjusting duals,
// until it augments (true) or no augmenting path can gain weight (false).
func (b *blossom) stage() bool {
	for x := 1; x <= b.nx; x++ {
		b.label[x], b.slack[x] = -1, 0
	}
	b.queue = b.queue[:0]
	for x := int32(1); x <= int32(b.nx); x++ {
		if b.top[x] == x && b.mate[x] == 0 {
			b.parent[x], b.label[x] = 0, 0
			b.push(x)
		}
	}
	if len(b.queue) == 0 {
		return false
	}
	n := int32(b.n)
	for {
		for len(b.queue) > 0 {
			u := b.queue[0]
			b.queue = b.queue[1:]
			if b.label[b.top[u]] == 1 {
				continue
			}
			// Edges between real vertices keep their ends, so the row
			// can be read straight, without the edge's own ends. (Not
			// u's top-level blossom: a blossom formed on the way may
			// take u in.)
			row := b.g[int(u)*b.size : int(u)*b.size+int(n)+1]
			du := b.dual[u]
			for v := int32(1); v <= n; v++ {
				w := row[v].w
				if w == 0 || b.top[u] == b.top[v] {
					continue
				}
				if d := du + b.dual[v] - 2*w; d != 0 {
					if x := b.top[v]; x == v {
						b.offerSlack(u, x, d)
					} else {
						b.updateSlack(u, x)
					}
				} else if b.tight(row[v]) {
					return true
				}
			}
		}
		d := int64(math.MaxInt64)
		for x := n + 1; x <= int32(b.nx); x++ {
			if b.top[x] == x && b.label[x] == 1 {
				d = min(d, b.dual[x]/2)
			}
		}
		for x := int32(1); x <= int32(b.nx); x++ {
			if b.top[x] == x && b.slack[x] != 0 {
				switch b.label[x] {
				case -1:
					d = min(d, b.least[x])
				case 0:
					d = min(d, b.least[x]/2)
				}
			}
		}
		for u := int32(1); u <= n; u++ {
			switch b.label[b.top[u]] {
			case 0:
				if b.dual[u] <= d {
					return false
				}
				b.dual[u] -= d
			case 1:
				b.dual[u] += d
			}
		}
		for x := n + 1; x <= int32(b.nx); x++ {
			if b.top[x] == x {
				switch b.label[x] {
				case 0:
					b.dual[x] += 2 * d
				case 1:
					b.dual[x] -= 2 * d
				}
			}
		}
		for x := int32(1); x <= int32(b.nx); x++ {
			if b.top[x] == x && b.slack[x] != 0 {
				switch b.label[x] {
				case -1:
					b.least[x] -= d
				case 0:
					b.least[x] -= 2 * d
				}
			}
		}
		b.queue = b.queue[:0]
		for x := int32(1); x <= int32(b.nx); x++ {
			if s := b.slack[x]; b.top[x] == x && s != 0 && b.label[x] != 1 && b.top[s] != x && b.least[x] == 0 {
				if b.tight(*b.at(s, x)) {
					return true
				}
			}
		}
		for x := n + 1; x <= int32(b.nx); x++ {
			if b.top[x] == x && b.label[x] == 1 && b.dual[x] == 0 {
				b.expand(x)
			}
		}
	}
}

// solve finds a matching of greatest weight.
func (b *blossom) solve() {
	var wmax int64
	for _, e := range b.g {
		wmax = max(wmax, e.w)
	}
	for u := 1; u <= b.n; u++ {
		b.dual[u] = wmax
	}
	for b.stage() {
	}
}
