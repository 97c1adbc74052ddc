package bot

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"parlour/games/salvo"
)

// weights are the strong shooter's weights, in expected new hits.
type weights struct {
	// info is the worth of one bit of information about the fleet.
	info float64
	// sink is the cost of sinking a ship before the last when the sinker
	// loses a shot for it.
	sink float64
	// guess is the cost of ending the fleet while more than one layout
	// fits the reports, so that the outline is a guess.
	guess float64
	// samples is how many fleets the belief draws.
	samples int
	// shortlist is how many squares, best by a rough value, the shooter
	// weighs fully, with the risk of a guess, for each pick.
	shortlist int
}

// mediumWeights are the medium level's: a small belief, no thought for
// information or for shots lost by sinking, but care not to guess.
func mediumWeights() weights { return weights{info: 0, sink: 0, guess: 25, samples: 40, shortlist: 10} }

// easyWeights are the easy level's: medium's with a smaller belief.
func easyWeights() weights { return weights{info: 0, sink: 0, guess: 25, samples: 12, shortlist: 10} }

// strongWeights are the strong level's weights, tuned on the bench.
func strongWeights() weights {
	return weights{info: 0.45, sink: 0.6, guess: 200, samples: 300, shortlist: 30}
}

// shot tracks, for one sampled fleet, what a salvo being chosen would hit.
type shot struct {
	hits, sank salvo.Tally
	rem        [salvo.FleetSize]int8 // squares of each ship nobody has hit
	left       int8                  // squares of the fleet nobody has hit
	newHits    int8
	// early counts the shots lost to later salvos by sinking ships while
	// more salvos are needed: one per ship sunk per salvo still to come.
	early float32
}

// fire updates st for a shot at q, where ship (or -1) lies in the sample,
// with slots more shots to come in this salvo of shots.
func (st *shot) fire(q salvo.Square, ship int8, fired salvo.Board, slots, shots int) {
	if ship < 0 {
		return
	}
	c := salvo.ClassOf(int(ship))
	st.hits[c]++
	if fired.Has(q) {
		return // somebody hit it before: it counts, but sinks nothing
	}
	st.newHits++
	st.rem[ship]--
	st.left--
	if st.rem[ship] == 0 {
		st.sank[c]++
		if int(st.left) > slots {
			st.early += float32(int(st.left)-slots) / float32(max(1, shots-1))
		}
	}
}

// key identifies the report st would give.
func (st *shot) key() uint32 {
	var k uint32
	for c := range salvo.NumClasses {
		k = k<<4 | uint32(st.hits[c])
		k = k<<2 | uint32(st.sank[c])
	}
	return k
}

// strongSalvo picks the squares of a salvo together, greedily: each square
// added is the one that most raises the salvo's value over n fleets drawn
// from the belief (expected new hits, plus the information its report
// carries, less the shots it costs by sinking ships early, less the
// chance that it leaves two places of a ship that no later report can
// tell apart, which would make the outline a guess).
func strongSalvo(ctx context.Context, k *knowledge, r *rand.Rand, shots int, w weights) ([]salvo.Square, error) {
	bel := k.belief()
	ss, _ := bel.draw(ctx, r, w.samples)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(ss) == 0 {
		return densitySalvo(k, r, shots), nil
	}
	m := len(ss)
	conf := newConfusion(bel, ss)
	at := make([][salvo.Squares]int8, m)
	cur := make([]shot, m)
	var useful salvo.Board // squares where some sample has a ship
	for i, s := range ss {
		for q := range at[i] {
			at[i][q] = -1
		}
		for j, b := range s.boards {
			for _, q := range b.Squares() {
				at[i][q] = int8(j)
			}
			cur[i].rem[j] = int8(b.AndNot(k.fired).Count())
			cur[i].left += cur[i].rem[j]
		}
		useful = useful.Or(s.all)
	}
	cands := useful.AndNot(k.mine).Squares()
	penalty := w.sink
	if !k.sinkerLoses {
		penalty = 0
	}
	groups := map[uint32]int32{}
	var all salvo.Board
	for q := range salvo.Square(salvo.Squares) {
		all = all.With(q)
	}
	var chosen []salvo.Square
	var taken salvo.Board // the squares chosen so far
	// value returns the worth of the salvo with q added, without the risk
	// of losing a ship's place for good.
	value := func(q salvo.Square) float64 {
		clear(groups)
		var newHits int
		var early float64
		for i := range cur {
			st := cur[i]
			st.fire(q, at[i][q], k.fired, shots-len(chosen)-1, shots)
			newHits += int(st.newHits)
			early += float64(st.early)
			groups[st.key()]++
		}
		h := 0.0
		for _, c := range groups {
			p := float64(c) / float64(m)
			h -= p * math.Log2(p)
		}
		return (float64(newHits) - penalty*early + w.info*h*float64(m)) / float64(m)
	}
	// full adds that risk, which costs more to weigh.
	full := func(q salvo.Square) float64 {
		return value(q) - w.guess*conf.risk(taken.With(q), all.AndNot(k.mine.Or(taken).With(q)))
	}
	// A square where no drawn fleet has a ship changes nothing: the
	// greedy choice stops when nothing beats it, and such squares fill
	// the rest of the salvo.
	blank := all.AndNot(useful).AndNot(k.mine).Squares()
	for len(chosen) < shots && len(cands) > 0 {
		// Weigh every square roughly, then the best few fully.
		type scored struct {
			i int
			v float64
		}
		rough := make([]scored, len(cands))
		for i, q := range cands {
			rough[i] = scored{i, value(q) + 1e-9*r.Float64()}
		}
		slices.SortFunc(rough, func(a, b scored) int { return cmp.Compare(b.v, a.v) })
		bi, bv := -1, math.Inf(-1)
		for _, x := range rough[:min(len(rough), max(1, w.shortlist))] {
			if v := full(cands[x.i]) + 1e-9*r.Float64(); v > bv {
				bi, bv = x.i, v
			}
		}
		// Better a blank shot than one that sinks a ship while later
		// salvos are needed (each loses a shot) or that loses for good
		// the means to tell two places of a ship apart.
		if len(blank) > 0 && bv < full(blank[0]) {
			break
		}
		q := cands[bi]
		cands = slices.Delete(cands, bi, bi+1)
		chosen = append(chosen, q)
		taken = taken.With(q)
		for i := range cur {
			cur[i].fire(q, at[i][q], k.fired, shots-len(chosen), shots)
		}
	}
	r.Shuffle(len(blank), func(i, j int) { blank[i], blank[j] = blank[j], blank[i] })
	for len(chosen) < shots && len(blank) > 0 {
		chosen = append(chosen, blank[0])
		blank = blank[1:]
	}
	return fill(k, r, chosen, shots), nil
}

// hashBoard hashes a board and a key.
func hashBoard(b salvo.Board, key uint64) uint64 {
	w := b.Bits()
	h := (14695981039346656037 ^ key*0x9e3779b97f4a7c15) * 1099511628211
	h = (h ^ w[0]) * 1099511628211
	h ^= h >> 29
	h = (h ^ w[1]) * 1099511628211
	return h ^ h>>31
}

// confusion weighs the places each ship may lie, to find the salvos after
// which two of them could never be told apart: they would agree on every
// report of the ship's class and on every square still open to fire at.
//
// The two submarines are weighed as pairs of places rather than places
// when there are at most maxPairs pairs: their reports are shared, so two pairs can be
// told apart by no report although each submarine of one lies elsewhere
// than both of the other's (F2-F3 and F8-G8 against F8-F9 and G8-H8, when
// F2 and F9, then F3, G8 and H8, then F8 were fired at together), which
// places alone miss. That was the commonest wrong outline left.
type confusion struct {
	units  [4][]cand
	weight [4][]float64
	// pairs are the submarines' places two by two that meet every
	// report together, pairW their weights; nil when there were too
	// many pairs.
	pairs  [][2]int32
	pairW  []float64
	full   salvo.Board // every square of the ocean
	groups map[uint64]group
}

// group is the weight of a group of places that agree, and its heaviest
// place's.
type group struct{ sum, best float64 }

// add adds a place of weight w to the group g.
func (c *confusion) add(g uint64, w float64) {
	x := c.groups[g]
	c.groups[g] = group{x.sum + w, max(x.best, w)}
}

// maxPairs bounds the pairs of submarine places confusion lists; past
// it, early in a game, each submarine is weighed alone: listing and
// weighing more would slow the opening salvos, which seldom confuse
// pairs.
const maxPairs = 6000

// newConfusion weighs each place by how often the drawn fleets hold it,
// smoothed so that places no draw holds still count a little.
func newConfusion(b *belief, ss []sample) *confusion {
	c := &confusion{units: b.units, groups: map[uint64]group{}}
	for q := range salvo.Square(salvo.Squares) {
		c.full = c.full.With(q)
	}
	for u := range 4 {
		c.weight[u] = make([]float64, len(b.units[u]))
		pos := map[salvo.Board]int{}
		for i, x := range b.units[u] {
			pos[x.board] = i
		}
		for _, s := range ss {
			for i := range s.boards {
				if min(i, 3) == u {
					c.weight[u][pos[s.boards[i]]]++
				}
			}
		}
		sum := 0.0
		for i := range c.weight[u] {
			c.weight[u][i] += 0.5
			sum += c.weight[u][i]
		}
		for i := range c.weight[u] {
			c.weight[u][i] /= sum
		}
	}
	if b.subPairs(maxPairs) {
		c.pairs = b.pairs
		c.pairW = make([]float64, len(c.pairs))
		sum := 0.0
		for i, pr := range c.pairs {
			c.pairW[i] = c.weight[3][pr[0]] * c.weight[3][pr[1]]
			sum += c.pairW[i]
		}
		for i := range c.pairW {
			c.pairW[i] /= sum
		}
	}
	return c
}

// risk returns the chance, summed over the ships, that a ship's place is
// lost for good after a salvo at squares, with open the squares left to
// fire at: the weight of every place but the heaviest in each group of
// places that agree on the salvo's hits and on their open squares.
func (c *confusion) risk(squares, open salvo.Board) float64 {
	total := 0.0
	for u := range 4 {
		clear(c.groups)
		if u == 3 && c.pairs != nil {
			// A pair that lies wholly on open squares is told apart
			// from every other by those squares.
			shut := c.full.AndNot(open)
			sub := c.units[3]
			for i, pr := range c.pairs {
				a, b := &sub[pr[0]], &sub[pr[1]]
				if !a.board.Intersects(shut) && !b.board.Intersects(shut) {
					continue
				}
				oa, ob := a.board.And(open), b.board.And(open)
				if x, y := oa.Bits(), ob.Bits(); x[1] > y[1] || x[1] == y[1] && x[0] > y[0] {
					oa, ob = ob, oa
				}
				n := a.board.Or(b.board).And(squares).Count()
				g := hashBoard(ob, hashBoard(oa, uint64(n)))
				c.add(g, c.pairW[i])
			}
			for _, x := range c.groups {
				total += x.sum - x.best
			}
			continue
		}
		for i := range c.units[u] {
			x := &c.units[u][i]
			g := hashBoard(x.board.And(open), uint64(x.board.And(squares).Count()))
			c.add(g, c.weight[u][i])
		}
		for _, x := range c.groups {
			total += x.sum - x.best
		}
	}
	return total
}

// fill adds random squares the seat may still fire at until the salvo
// has shots squares.
func fill(k *knowledge, r *rand.Rand, chosen []salvo.Square, shots int) []salvo.Square {
	if len(chosen) >= shots {
		return chosen
	}
	taken := k.mine.Or(salvo.BoardOf(chosen...))
	var avail []salvo.Square
	for q := range salvo.Square(salvo.Squares) {
		if !taken.Has(q) {
			avail = append(avail, q)
		}
	}
	r.Shuffle(len(avail), func(i, j int) { avail[i], avail[j] = avail[j], avail[i] })
	return append(chosen, avail[:min(len(avail), shots-len(chosen))]...)
}

// top picks the shots squares of highest score the seat may fire at,
// breaking ties at random, skipping squares that score nothing.
func top(k *knowledge, r *rand.Rand, score [salvo.Squares]float64, shots int) []salvo.Square {
	type sc struct {
		q salvo.Square
		v float64
	}
	var all []sc
	for q := range salvo.Square(salvo.Squares) {
		if !k.mine.Has(q) && score[q] > 0 {
			all = append(all, sc{q, score[q] + 1e-6*r.Float64()})
		}
	}
	slices.SortFunc(all, func(a, b sc) int {
		switch {
		case a.v > b.v:
			return -1
		case a.v < b.v:
			return 1
		}
		return 0
	})
	var out []salvo.Square
	for _, x := range all[:min(len(all), shots)] {
		out = append(out, x.q)
	}
	return fill(k, r, out, shots)
}
