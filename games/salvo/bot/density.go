package bot

import (
	"math/rand/v2"
	"slices"
	"strings"

	"parlour/games/salvo"
)

// fleetDensity is the fleet-density baseline: a shooter written apart
// from the strong player's belief (belief.go, shooter.go), as an outside
// engine would be. For each ship it lists the places that agree with
// every salvo's report for the ship's class (exactly that many squares of
// the salvo for a class of one ship, at most that many for a submarine;
// wholly fired at if and only if the class was reported sunk, at the
// salvo that completed it), draws whole fleets from those places, keeps
// the ones whose ships lie together legally and whose submarines add up
// to the reports, and fires at the unfired squares most of the drawn
// fleets cover. It does not weigh information, the shots it loses by
// sinking, or the salvo's squares together; it outlines the fleet drawn
// most often.
type fleetDensity struct {
	place   salvo.Placement
	salvos  []densityReport
	fired   salvo.Board // by anybody at the target
	mine    salvo.Board // by this seat: not to be fired at again
	units   [salvo.FleetSize][]densityPlace
	samples []salvo.Fleet
}

// densityReport is one salvo at the target, with every square fired at
// the target up to and including it.
type densityReport struct {
	squares, upto salvo.Board
	hits, sank    salvo.Tally
}

// densityPlace is one place a ship may lie.
type densityPlace struct {
	ship        salvo.Ship
	board, near salvo.Board
	// per[j] counts its squares in salvo j; doneAt is the salvo that
	// completed it, -1 if none has.
	per    []int8
	doneAt int
}

// densitySamples is how many fleets the baseline draws for a salvo, and
// densityAttempts how many random fleets it may try for them.
const (
	densitySamples  = 400
	densityAttempts = 60000
)

func newFleetDensity(v salvo.View, p salvo.Placement) *fleetDensity {
	d := &fleetDensity{place: p}
	for _, s := range v.Salvos {
		if s.At != v.Target {
			continue
		}
		b := salvo.BoardOf(s.Squares...)
		d.fired = d.fired.Or(b)
		if s.By == v.Seat {
			d.mine = d.mine.Or(b)
		}
		d.salvos = append(d.salvos, densityReport{b, d.fired, s.Report.Hits, s.Report.Sank})
	}
	for i := range salvo.FleetSize {
		if i == 4 {
			d.units[4] = d.units[3]
			break
		}
		d.units[i] = d.places(salvo.ClassOf(i))
	}
	return d
}

// places lists the places a ship of class c may lie, each checked on its
// own against the reports of its class.
func (d *fleetDensity) places(c salvo.Class) []densityPlace {
	sunk := 0
	for _, s := range d.salvos {
		sunk += s.sank[c]
	}
	var out []densityPlace
next:
	for _, sh := range d.place.Placements(c.Len()) {
		b := sh.Board()
		x := densityPlace{ship: sh, board: b, per: make([]int8, len(d.salvos)), doneAt: -1}
		for j, s := range d.salvos {
			n := b.And(s.squares).Count()
			if n > s.hits[c] || (c.Count() == 1 && n != s.hits[c]) {
				continue next
			}
			x.per[j] = int8(n)
			if x.doneAt < 0 && b.AndNot(s.upto).Empty() {
				x.doneAt = j
			}
		}
		switch {
		case x.doneAt >= 0 && d.salvos[x.doneAt].sank[c] == 0:
			continue // it would have been reported sunk
		case x.doneAt < 0 && sunk == c.Count():
			continue // every ship of the class is sunk
		}
		x.near = b.Neighbours(d.place.Diagonal)
		out = append(out, x)
	}
	return out
}

// legal reports whether places a and b may hold two ships of one fleet.
func (d *fleetDensity) legal(a, b *densityPlace) bool {
	if a.board.Intersects(b.board) {
		return false
	}
	return !d.place.Strict || a.near.And(b.board).Count() <= 1 && b.near.And(a.board).Count() <= 1
}

// subsFit reports whether two submarines at a and b add up to every
// report of their class.
func (d *fleetDensity) subsFit(a, b *densityPlace) bool {
	for j, s := range d.salvos {
		if int(a.per[j])+int(b.per[j]) != s.hits[salvo.Submarine] {
			return false
		}
		sank := 0
		if a.doneAt == j {
			sank++
		}
		if b.doneAt == j {
			sank++
		}
		if sank != s.sank[salvo.Submarine] {
			return false
		}
	}
	return true
}

// draw fills d.samples with up to n fleets that meet every report: by
// drawing each ship at random from its places and keeping the fleets that
// fit, and when those are rare, by placing the ships one by one among the
// places that fit the ships placed before (quicker, but less even).
func (d *fleetDensity) draw(r *rand.Rand, n int) {
	d.samples = d.samples[:0]
	for _, u := range d.units {
		if len(u) == 0 {
			return
		}
	}
	var pick [salvo.FleetSize]*densityPlace
	for a := 0; a < densityAttempts && len(d.samples) < n; a++ {
		ok := true
		for i := range salvo.FleetSize {
			pick[i] = &d.units[i][r.IntN(len(d.units[i]))]
			for j := range i {
				if !d.legal(pick[i], pick[j]) {
					ok = false
					break
				}
			}
			if !ok {
				break
			}
		}
		if ok && d.subsFit(pick[3], pick[4]) {
			d.samples = append(d.samples, d.fleetOf(pick))
		}
	}
	if len(d.samples) >= n/4 {
		return
	}
	for a := 0; a < 4*n && len(d.samples) < n; a++ {
		if d.sequential(r, &pick) {
			d.samples = append(d.samples, d.fleetOf(pick))
		}
	}
}

// sequential places the ships one by one, each at random among the places
// that fit those before it, and reports whether a whole fleet fitted.
func (d *fleetDensity) sequential(r *rand.Rand, pick *[salvo.FleetSize]*densityPlace) bool {
	var opts []int
	for i := range salvo.FleetSize {
		opts = opts[:0]
	cands:
		for k := range d.units[i] {
			p := &d.units[i][k]
			for j := range i {
				if !d.legal(p, pick[j]) {
					continue cands
				}
			}
			if i == 4 && !d.subsFit(pick[3], p) {
				continue
			}
			opts = append(opts, k)
		}
		if len(opts) == 0 {
			return false
		}
		pick[i] = &d.units[i][opts[r.IntN(len(opts))]]
	}
	return true
}

func (d *fleetDensity) fleetOf(pick [salvo.FleetSize]*densityPlace) salvo.Fleet {
	var f salvo.Fleet
	for i, p := range pick {
		f[i] = p.ship
	}
	// The submarines either way round are one fleet.
	if f[4].Start < f[3].Start {
		f[3], f[4] = f[4], f[3]
	}
	return f
}

// salvo returns the shots squares not fired at before that most drawn
// fleets cover, at random among equals, filled with random squares.
func (d *fleetDensity) salvo(r *rand.Rand, shots int) []salvo.Square {
	d.draw(r, densitySamples)
	var count [salvo.Squares]int
	for _, f := range d.samples {
		for _, q := range f.Board().AndNot(d.fired).Squares() {
			count[q]++
		}
	}
	type scored struct {
		q salvo.Square
		v float64
	}
	var all []scored
	for q := range salvo.Square(salvo.Squares) {
		if count[q] > 0 && !d.mine.Has(q) {
			all = append(all, scored{q, float64(count[q]) + r.Float64()})
		}
	}
	slices.SortFunc(all, func(a, b scored) int {
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
	return d.fill(r, out, shots)
}

// fill adds random squares this seat has not fired at until the salvo has
// shots squares.
func (d *fleetDensity) fill(r *rand.Rand, out []salvo.Square, shots int) []salvo.Square {
	taken := d.mine.Or(salvo.BoardOf(out...))
	var free []salvo.Square
	for q := range salvo.Square(salvo.Squares) {
		if !taken.Has(q) {
			free = append(free, q)
		}
	}
	r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	return append(out, free[:min(len(free), shots-len(out))]...)
}

// outline returns the fleet drawn most often, or false when no fleet
// meets the reports.
func (d *fleetDensity) outline(r *rand.Rand) (salvo.Fleet, bool) {
	d.draw(r, 4*densitySamples)
	if len(d.samples) == 0 {
		return salvo.Fleet{}, false
	}
	count := map[salvo.Fleet]int{}
	best, bestN := d.samples[0], 0
	for _, f := range d.samples {
		count[f]++
		if count[f] > bestN {
			best, bestN = f, count[f]
		}
	}
	return best, true
}

// fleetDensityMove is the fleet-density baseline's move.
func fleetDensityMove(v salvo.View, p salvo.Placement, r *rand.Rand) (string, error) {
	d := newFleetDensity(v, p)
	if v.MustOutline {
		f, ok := d.outline(r)
		if !ok {
			return "resign", nil
		}
		return "outline " + strings.Join(f.Strings(), " "), nil
	}
	sq := d.salvo(r, v.Shots)
	parts := make([]string, len(sq))
	for i, q := range sq {
		parts[i] = q.String()
	}
	return "fire " + strings.Join(parts, " "), nil
}
