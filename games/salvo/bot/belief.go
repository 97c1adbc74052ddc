package bot

import (
	"context"
	"math/rand/v2"

	"parlour/games/salvo"
)

// report is one salvo at the target and what it was told.
type report struct {
	squares salvo.Board
	hits    salvo.Tally
	sank    salvo.Tally
}

// knowledge is everything a seat's view says about its target's fleet.
type knowledge struct {
	place salvo.Placement
	// sinkerLoses is set when sinking a ship costs the sinker a shot.
	sinkerLoses bool
	// reports are every salvo fired at the target, by anybody, oldest
	// first: everybody at the table hears them.
	reports []report
	// upto[k] is every square fired at the target in reports[0..k].
	upto []salvo.Board
	// fired holds every square fired at the target; mine those this seat
	// fired, which it may not fire at again.
	fired, mine salvo.Board
	// sunk counts the target's ships sunk per class.
	sunk salvo.Tally
}

func newKnowledge(v salvo.View, p salvo.Placement, sinkerLoses bool) *knowledge {
	k := &knowledge{place: p, sinkerLoses: sinkerLoses}
	for _, s := range v.Salvos {
		if s.At != v.Target {
			continue
		}
		b := salvo.BoardOf(s.Squares...)
		k.reports = append(k.reports, report{b, s.Report.Hits, s.Report.Sank})
		k.fired = k.fired.Or(b)
		k.upto = append(k.upto, k.fired)
		if s.By == v.Seat {
			k.mine = k.mine.Or(b)
		}
		for c := range k.sunk {
			k.sunk[c] += s.Report.Sank[c]
		}
	}
	return k
}

// cand is one place a ship may lie, with what the reports say about it.
type cand struct {
	ship        salvo.Ship
	board, near salvo.Board
	// hits[k] counts its squares in report k's salvo (submarines only).
	hits []int8
	// done is the report whose salvo completed it, -1 if none has.
	done int
}

// candidates lists the places the fleet's i-th ship may lie, consistent on
// its own with every report. For the submarines, whose reports are
// shared, it checks only what one submarine alone must meet.
func (k *knowledge) candidates(i int) []cand {
	c := salvo.ClassOf(i)
	var out []cand
	var totalSank int
	for _, r := range k.reports {
		totalSank += r.sank[c]
	}
next:
	for _, sh := range k.place.Placements(c.Len()) {
		b := sh.Board()
		x := cand{ship: sh, board: b, done: -1}
		if c == salvo.Submarine {
			x.hits = make([]int8, len(k.reports))
		}
		for j, r := range k.reports {
			n := b.And(r.squares).Count()
			if c == salvo.Submarine {
				if n > r.hits[c] {
					continue next
				}
				x.hits[j] = int8(n)
			} else if n != r.hits[c] {
				continue next
			}
			if x.done < 0 && b.AndNot(k.upto[j]).Empty() {
				x.done = j
			}
		}
		if x.done >= 0 && k.reports[x.done].sank[c] == 0 {
			continue
		}
		if x.done < 0 && c != salvo.Submarine && totalSank > 0 {
			continue
		}
		if x.done < 0 && c == salvo.Submarine && totalSank == 2 {
			continue
		}
		x.near = b.Neighbours(k.place.Diagonal)
		out = append(out, x)
	}
	return out
}

// subsAgree reports whether submarines a and b together meet every report.
func (k *knowledge) subsAgree(a, b *cand) bool {
	for j, r := range k.reports {
		if int(a.hits[j])+int(b.hits[j]) != r.hits[salvo.Submarine] {
			return false
		}
		n := 0
		if a.done == j {
			n++
		}
		if b.done == j {
			n++
		}
		if n != r.sank[salvo.Submarine] {
			return false
		}
	}
	return true
}

// fits reports whether two ships may lie together under the placement
// rules.
func (k *knowledge) fits(a, b *cand) bool {
	if a.board.Intersects(b.board) {
		return false
	}
	return !k.place.Strict || a.near.And(b.board).Count() <= 1 && b.near.And(a.board).Count() <= 1
}

// belief is the set of fleets consistent with the knowledge, held as each
// ship's candidate places.
type belief struct {
	k     *knowledge
	units [4][]cand // battleship, cruiser, destroyer, submarine
	pairs [][2]int32
}

func (k *knowledge) belief() *belief {
	b := &belief{k: k}
	for i := range 4 {
		b.units[i] = k.candidates(i)
	}
	return b
}

// sample is one fleet the target may have.
type sample struct {
	fleet  salvo.Fleet
	boards [salvo.FleetSize]salvo.Board
	all    salvo.Board
	// id tells fleets apart, the submarines either way round.
	id [salvo.FleetSize]salvo.Board
}

func (b *belief) sampleOf(idx [5]int) sample {
	var s sample
	for i := range salvo.FleetSize {
		c := &b.units[min(i, 3)][idx[i]]
		s.fleet[i] = c.ship
		s.boards[i] = c.board
		s.all = s.all.Or(c.board)
	}
	s.id = s.boards
	if less(s.id[4], s.id[3]) {
		s.id[3], s.id[4] = s.id[4], s.id[3]
	}
	return s
}

func less(a, b salvo.Board) bool {
	qa, qb := a.First(), b.First()
	if qa != qb {
		return qa < qb
	}
	return a.Squares()[1] < b.Squares()[1]
}

// consistent reports whether the ships idx pick lie together legally and
// the submarines meet the reports.
func (b *belief) consistent(idx [5]int) bool {
	for i := range salvo.FleetSize {
		ci := &b.units[min(i, 3)][idx[i]]
		for j := range i {
			if !b.k.fits(ci, &b.units[min(j, 3)][idx[j]]) {
				return false
			}
		}
	}
	return b.k.subsAgree(&b.units[3][idx[3]], &b.units[3][idx[4]])
}

// enumerateLimit bounds the fleets draw lists exactly.
const enumerateLimit = 4000

// draw returns up to n fleets consistent with the knowledge: every such
// fleet when there are few (exact is then set), else fleets drawn from
// them, exactly uniformly by rejection while that is quick and by Gibbs
// sampling otherwise.
func (b *belief) draw(ctx context.Context, r *rand.Rand, n int) (out []sample, exact bool) {
	for _, u := range b.units {
		if len(u) == 0 {
			return nil, true
		}
	}
	size := float64(len(b.units[0])) * float64(len(b.units[1])) * float64(len(b.units[2])) * float64(len(b.units[3])) * float64(len(b.units[3]))
	if size < 4e5 {
		if all, ok := b.enumerate(enumerateLimit); ok {
			if len(all) > n { // an even subset keeps it uniform
				r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
				return all[:n], false
			}
			return all, true
		}
	}
	const attempts = 40000
	var last [5]int
	found := false
	for a := 0; a < attempts && len(out) < n; a++ {
		var idx [5]int
		for i := range idx {
			idx[i] = r.IntN(len(b.units[min(i, 3)]))
		}
		if idx[3] == idx[4] || !b.consistent(idx) {
			continue
		}
		out = append(out, b.sampleOf(idx))
		last, found = idx, true
	}
	if len(out) >= n {
		return out, false
	}
	if !found {
		var ok bool
		last, ok = b.search(r)
		if !ok {
			return nil, true
		}
	}
	return append(out, b.gibbs(ctx, r, last, n-len(out))...), false
}

// enumerate lists every consistent fleet, or reports false when there are
// more than limit.
func (b *belief) enumerate(limit int) ([]sample, bool) {
	var out []sample
	u := &b.units
	var idx [5]int
	for idx[0] = range u[0] {
		for idx[1] = range u[1] {
			if !b.k.fits(&u[0][idx[0]], &u[1][idx[1]]) {
				continue
			}
			for idx[2] = range u[2] {
				if !b.k.fits(&u[0][idx[0]], &u[2][idx[2]]) || !b.k.fits(&u[1][idx[1]], &u[2][idx[2]]) {
					continue
				}
				for idx[3] = range u[3] {
					s3 := &u[3][idx[3]]
					if !b.k.fits(&u[0][idx[0]], s3) || !b.k.fits(&u[1][idx[1]], s3) || !b.k.fits(&u[2][idx[2]], s3) {
						continue
					}
					for idx[4] = idx[3] + 1; idx[4] < len(u[3]); idx[4]++ {
						if !b.consistent(idx) {
							continue
						}
						if len(out) == limit {
							return nil, false
						}
						out = append(out, b.sampleOf(idx))
					}
				}
			}
		}
	}
	return out, true
}

// search finds one consistent fleet by randomised backtracking, within a
// budget of steps.
func (b *belief) search(r *rand.Rand) ([5]int, bool) {
	var idx [5]int
	budget := 200000
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == salvo.FleetSize {
			return b.k.subsAgree(&b.units[3][idx[3]], &b.units[3][idx[4]])
		}
		u := b.units[min(i, 3)]
		start := r.IntN(len(u))
		for o := range u {
			if budget--; budget < 0 {
				return false
			}
			j := (start + o) % len(u)
			if i == 4 && j <= idx[3] {
				continue
			}
			ok := true
			for p := range i {
				if !b.k.fits(&u[j], &b.units[min(p, 3)][idx[p]]) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			idx[i] = j
			if rec(i + 1) {
				return true
			}
		}
		return false
	}
	return idx, rec(0)
}

// subPairs lists in b.pairs, once, every two places of the submarines
// that lie together legally and together meet every report, and reports
// false, listing nothing, when there would be more than limit (no limit
// when limit < 0).
func (b *belief) subPairs(limit int) bool {
	if b.pairs != nil {
		return limit < 0 || len(b.pairs) <= limit
	}
	u := b.units[3]
	out := [][2]int32{} // not nil: listed
	for i := range u {
		for j := i + 1; j < len(u); j++ {
			if b.k.fits(&u[i], &u[j]) && b.k.subsAgree(&u[i], &u[j]) {
				if limit >= 0 && len(out) == limit {
					return false
				}
				out = append(out, [2]int32{int32(i), int32(j)})
			}
		}
	}
	b.pairs = out
	return true
}

// gibbs draws n fleets by Gibbs sampling from the consistent fleet start:
// each sweep redraws every ship (the two submarines together) uniformly
// from the places that fit the others.
func (b *belief) gibbs(ctx context.Context, r *rand.Rand, start [5]int, n int) []sample {
	u := &b.units
	b.subPairs(-1)
	idx := start
	var opts []int
	out := make([]sample, 0, n)
	for len(out) < n {
		if ctx.Err() != nil {
			break
		}
		for unit := range 4 {
			opts = opts[:0]
			if unit < 3 {
			cands:
				for j := range u[unit] {
					for p := range salvo.FleetSize {
						if p != unit && !b.k.fits(&u[unit][j], &u[min(p, 3)][idx[p]]) {
							continue cands
						}
					}
					opts = append(opts, j)
				}
				if len(opts) > 0 {
					idx[unit] = opts[r.IntN(len(opts))]
				}
				continue
			}
		pairs:
			for j, pr := range b.pairs {
				for p := range 3 {
					o := &u[p][idx[p]]
					if !b.k.fits(&u[3][pr[0]], o) || !b.k.fits(&u[3][pr[1]], o) {
						continue pairs
					}
				}
				opts = append(opts, j)
			}
			if len(opts) > 0 {
				pr := b.pairs[opts[r.IntN(len(opts))]]
				idx[3], idx[4] = int(pr[0]), int(pr[1])
			}
		}
		out = append(out, b.sampleOf(idx))
	}
	return out
}

// outline returns the fleet to outline once every ship is sunk: the one
// consistent fleet, or the one most often drawn when the reports left
// more than one.
func (k *knowledge) outline(ctx context.Context, r *rand.Rand) (salvo.Fleet, bool) {
	ss, _ := k.belief().draw(ctx, r, enumerateLimit)
	if len(ss) == 0 {
		return salvo.Fleet{}, false
	}
	count := map[[salvo.FleetSize]salvo.Board]int{}
	best, bestN := 0, 0
	for i, s := range ss {
		count[s.id]++
		if c := count[s.id]; c > bestN {
			best, bestN = i, c
		}
	}
	return ss[best].fleet, true
}
