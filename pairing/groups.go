package pairing

import (
	"fmt"
	"slices"
)

// maxPasses bounds the local improvement of [Groups]: each pass that
// changes anything lowers the cost, so the bound only guards the time.
const maxPasses = 50

// pairWindow is how many tables below its own [Groups] looks for a swap
// of two players for two: tables start in standings order, and farther
// ones seldom gain from such a swap but would cost time as the square of
// the field.
const pairWindow = 8

// maxDense is the largest field whose meetings [Groups] counts in a
// matrix (4 MB at most).
const maxDense = 2048

// Groups seats one round of a multi-seat Swiss event (Word Fight, Quizl)
// at tables of seats players, seats being 3 or 4.
//
// Table sizes: every table has seats or seats−1 players, and never fewer
// than 3, so that as many players as possible play:
//
//   - seats 4: a field of 3 is one table of three, 4 one table of four, 5 a
//     table of four and one bye, and any field of 6 or more is all seated,
//     with as few tables of three as the count allows (6 = 3+3, 7 = 4+3,
//     9 = 3+3+3, 10 = 4+3+3);
//   - seats 3: tables of three, and the one or two left over sit out;
//   - fields of 1 or 2 sit out whole.
//
// Those who sit out are the lowest-ranked among those with the fewest
// byes; the caller scores a bye as it chooses (the package doc suggests
// how).
//
// Seating: a table costs, for each two players at it, the square of their
// points difference plus a penalty for each time they met before: twice
// the square of a table's whole spread of [PlacePoints] (72 at tables of
// four, 32 at three), so that seating two who met weighs like a points
// gap of about 8 (or 6) between them. Repeats are penalised, never
// forbidden, so Groups does not fail for want of new opponents. Groups
// fills tables in standings order, the larger tables first (so tables of
// seats−1 start at the bottom of the standings), and then, while it
// lowers the total cost, swaps players between tables, moves a player
// from a larger table to a smaller one, and swaps two players for two at
// tables close in the standings. That is not always the exact optimum,
// but it never seats at a higher cost than the plain standings order, and
// it is deterministic; the order of field does not matter.
//
// A table of seats−1 gives fewer place points (4/2/0 against 6/4/2/0);
// an event that wants them even can scale them as it scores. Tables come
// in standings order (by their best-placed player); within a table the
// seat order follows a hash of the players and their games played, so
// that it looks random but is the same on every node. Groups fails only
// for a number of seats other than 3 or 4, or an empty or repeated ID.
func Groups(field []Entrant, seats int) (Round, error) {
	if seats != 3 && seats != 4 {
		return Round{}, fmt.Errorf("a table of %d seats: groups seat 3 or 4", seats)
	}
	if err := checkField(field); err != nil {
		return Round{}, err
	}
	sizes, nbyes := tableSizes(len(field), seats)
	order := standings(field)
	round := Round{Tables: [][]string{}}
	if nbyes > 0 {
		var byes []int
		byes, order = chooseByes(field, order, nbyes)
		for _, i := range byes {
			round.Byes = append(round.Byes, field[i].ID)
		}
	}
	if len(sizes) == 0 {
		return round, nil
	}
	g := newGrouping(field, order, sizes, seats)
	g.improve()
	round.Tables = g.tables()
	return round, nil
}

// tableSizes returns the sizes of the tables a field of n fills at tables
// of seats, largest first, and how many sit out.
func tableSizes(n, seats int) (sizes []int, byes int) {
	if seats == 3 {
		for range n / 3 {
			sizes = append(sizes, 3)
		}
		return sizes, n % 3
	}
	switch n {
	case 0, 1, 2:
		return nil, n
	case 3:
		return []int{3}, 0
	case 5:
		return []int{4}, 1
	}
	// n = 4a + 3b with b as small as possible: b ≡ −n (mod 4).
	b := (4 - n%4) % 4
	a := (n - 3*b) / 4
	for range a {
		sizes = append(sizes, 4)
	}
	for range b {
		sizes = append(sizes, 3)
	}
	return sizes, 0
}

// chooseByes picks k entrants to sit out: the fewest byes first, then the
// lowest in the standings. It returns them and the others, each in
// standings order.
func chooseByes(field []Entrant, order []int, k int) (byes, rest []int) {
	cand := slices.Clone(order)
	slices.Reverse(cand)
	slices.SortStableFunc(cand, func(a, b int) int { return field[a].Byes - field[b].Byes })
	out := make(map[int]bool, k)
	for _, i := range cand[:k] {
		out[i] = true
	}
	for _, i := range order {
		if out[i] {
			byes = append(byes, i)
		} else {
			rest = append(rest, i)
		}
	}
	return byes, rest
}

// grouping is a seating under improvement: tables of indices into field.
type grouping struct {
	field []Entrant
	seat  [][]int        // tables of indices into field
	meets map[[2]int]int // times each pair (lower index first) met
	// dense holds the same counts as a matrix (capped at 255) for fields
	// small enough, because the improvement asks for them millions of
	// times; nil for larger fields.
	dense   []uint8
	penalty int64 // the cost of one earlier meeting
}

// avoidMeetings is how many earlier meetings a block between two players
// weighs as, when tables of more than two seat a round.
const avoidMeetings = 64

func newGrouping(field []Entrant, order []int, sizes []int, seats int) *grouping {
	spread := int64(2 * (seats - 1))
	g := &grouping{field: field, meets: make(map[[2]int]int), penalty: 2 * spread * spread}
	pos := make(map[string]int, len(field))
	for i, e := range field {
		pos[e.ID] = i
	}
	seated := make(map[int]bool, len(order))
	for _, i := range order {
		seated[i] = true
	}
	for _, i := range order {
		seen := make(map[int]int)
		for _, id := range field[i].Met {
			if j, ok := pos[id]; ok && seated[j] && j != i {
				seen[j]++
			}
		}
		// Players kept apart count as met many times: a table seats
		// them together only when every other seating is worse still.
		for _, id := range field[i].Avoid {
			if j, ok := pos[id]; ok && seated[j] && j != i {
				seen[j] += avoidMeetings
			}
		}
		for j, c := range seen {
			// Either side's memory counts; take the larger if they differ.
			k := [2]int{min(i, j), max(i, j)}
			g.meets[k] = max(g.meets[k], c)
		}
	}
	if n := len(field); n <= maxDense {
		g.dense = make([]uint8, n*n)
		for k, c := range g.meets {
			c = min(c, 255)
			g.dense[k[0]*n+k[1]], g.dense[k[1]*n+k[0]] = uint8(c), uint8(c)
		}
	}
	next := 0
	for _, size := range sizes {
		g.seat = append(g.seat, slices.Clone(order[next:next+size]))
		next += size
	}
	return g
}

// pairCost is what seating field[i] with field[j] costs.
func (g *grouping) pairCost(i, j int) int64 {
	gap := int64(min(abs(g.field[i].Points-g.field[j].Points), maxGap))
	var met int
	if g.dense != nil {
		met = int(g.dense[i*len(g.field)+j])
	} else {
		met = g.meets[[2]int{min(i, j), max(i, j)}]
	}
	return gap*gap + g.penalty*int64(met)
}

// costWith is what seating p at table t costs, leaving out the player at
// seat skip of that table.
func (g *grouping) costWith(p, t, skip int) int64 {
	var c int64
	for s, q := range g.seat[t] {
		if s != skip {
			c += g.pairCost(p, q)
		}
	}
	return c
}

// improve swaps players between tables, and moves a player from a larger
// table to one seat smaller (which keeps the sizes' count), while that
// lowers the total cost; when no such step is left, it tries swapping two
// players of one table for two of another up to pairWindow tables away,
// and starts over if that helps.
// It goes in a fixed order, so that the result is deterministic.
func (g *grouping) improve() {
	for range maxPasses {
		changed := false
		for a := range g.seat {
			for b := range g.seat {
				if a < b && g.swapBetween(a, b) {
					changed = true
				}
				if len(g.seat[a]) == len(g.seat[b])+1 && g.moveBetween(a, b) {
					changed = true
				}
			}
		}
		if changed {
			continue
		}
		for a := range g.seat {
			for b := a + 1; b < min(a+1+pairWindow, len(g.seat)); b++ {
				if g.swapTwo(a, b) {
					changed = true
				}
			}
		}
		if !changed {
			return
		}
	}
}

// tableCost is what table t costs as seated.
func (g *grouping) tableCost(t int) int64 {
	var c int64
	for i, p := range g.seat[t] {
		for _, q := range g.seat[t][i+1:] {
			c += g.pairCost(p, q)
		}
	}
	return c
}

// swapTwo makes every swap of two players of table a for two of table b
// that lowers the cost, and reports whether it made any.
func (g *grouping) swapTwo(a, b int) bool {
	changed := false
	ta, tb := g.seat[a], g.seat[b]
	for i := range ta {
		for j := i + 1; j < len(ta); j++ {
			for k := range tb {
				for l := k + 1; l < len(tb); l++ {
					before := g.tableCost(a) + g.tableCost(b)
					ta[i], tb[k] = tb[k], ta[i]
					ta[j], tb[l] = tb[l], ta[j]
					if g.tableCost(a)+g.tableCost(b) < before {
						changed = true
						continue
					}
					ta[i], tb[k] = tb[k], ta[i]
					ta[j], tb[l] = tb[l], ta[j]
				}
			}
		}
	}
	return changed
}

// swapBetween makes every swap between tables a and b that lowers the
// cost, and reports whether it made any.
func (g *grouping) swapBetween(a, b int) bool {
	changed := false
	for sa := range g.seat[a] {
		for sb := range g.seat[b] {
			x, y := g.seat[a][sa], g.seat[b][sb]
			before := g.costWith(x, a, sa) + g.costWith(y, b, sb)
			after := g.costWith(y, a, sa) + g.costWith(x, b, sb)
			if after < before {
				g.seat[a][sa], g.seat[b][sb] = y, x
				changed = true
			}
		}
	}
	return changed
}

// moveBetween moves the one player from table a to table b, one seat
// smaller, whose move lowers the cost most, if any does.
func (g *grouping) moveBetween(a, b int) bool {
	best, gain := -1, int64(0)
	for sa, x := range g.seat[a] {
		if d := g.costWith(x, a, sa) - g.costWith(x, b, -1); d > gain {
			best, gain = sa, d
		}
	}
	if best < 0 {
		return false
	}
	x := g.seat[a][best]
	g.seat[a] = slices.Delete(g.seat[a], best, best+1)
	g.seat[b] = append(g.seat[b], x)
	return true
}

// tables returns the seating as IDs: tables in standings order (by their
// best-placed player), each in seat order.
func (g *grouping) tables() [][]string {
	rank := make(map[int]int, len(g.field))
	for r, i := range standings(g.field) {
		rank[i] = r
	}
	seat := slices.Clone(g.seat)
	best := func(t []int) int {
		b := len(g.field)
		for _, i := range t {
			b = min(b, rank[i])
		}
		return b
	}
	slices.SortFunc(seat, func(x, y []int) int { return best(x) - best(y) })
	tables := make([][]string, len(seat))
	for k, t := range seat {
		games := make(map[string]int, len(t))
		for _, i := range t {
			e := g.field[i]
			tables[k] = append(tables[k], e.ID)
			games[e.ID] = len(e.Met) + e.Byes
		}
		seatOrder(tables[k], games)
	}
	return tables
}
