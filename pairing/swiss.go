package pairing

import "fmt"

// maxGap caps the points difference a pairing cost counts: beyond it every
// gap is as bad, and the cap keeps costs far from overflow.
const maxGap = 1000

// Swiss pairs one round of a Swiss event: two-seat tables of players with
// equal or close points, never two who have met before, nor two kept
// apart (Entrant.Avoid). When the field is
// odd, one entrant sits out: the lowest-ranked without a bye for whom the
// others can still be paired (should every such choice force a rematch,
// the lowest-ranked with the fewest byes). Tables come in standings order
// (the best-placed pair first). Who sits first alternates from game to
// game for each player, by a hash of their ID and the games they have
// played, so that each sits first about half the time, the same on every
// node. The order of field does not matter. Swiss fails, wrapping [ErrNoPairing],
// when every way to pair the field repeats a game or seats two players
// kept apart; it fails too on an
// empty or repeated ID. The work grows as the cube of the field: a round
// of 500 takes a fraction of a second, one of 2,000 some seconds.
func Swiss(field []Entrant) (Round, error) {
	if err := checkField(field); err != nil {
		return Round{}, err
	}
	order := standings(field)
	round := Round{Tables: [][]string{}}
	if len(order)%2 == 1 {
		bye, rest, err := swissBye(field, order)
		if err != nil {
			return Round{}, err
		}
		round.Byes = []string{bye}
		order = rest
	}
	mate, err := swissMatch(field, order)
	if err != nil {
		return Round{}, err
	}
	round.Tables = swissTables(field, order, mate)
	return round, nil
}

// swissBye chooses who sits out an odd round, and returns the others in
// standings order. One matching over the field and a virtual player who
// stands for the bye settles it exactly: pairs cost nothing (only
// rematches are ruled out) and the bye costs more the higher its taker
// stands and the more byes they have had, so the cheapest perfect
// matching gives the bye to the lowest-ranked of those with the fewest
// byes for whom the others can still be paired.
func swissBye(field []Entrant, order []int) (string, []int, error) {
	n := len(order)
	fewest := field[order[0]].Byes
	for _, i := range order {
		fewest = min(fewest, field[i].Byes)
	}
	met := metSets(field, order)
	mate, err := MinCostMatching(n+1, func(i, j int) (int64, bool) {
		if j == n {
			extra := int64(min(field[order[i]].Byes-fewest, n))
			return extra*int64(n) + int64(n-1-i), true
		}
		return 0, !met[i][field[order[j]].ID]
	})
	if err != nil {
		return "", nil, fmt.Errorf("%d players, whoever sits out: %w", n, err)
	}
	k := mate[n]
	rest := make([]int, 0, n-1)
	rest = append(rest, order[:k]...)
	rest = append(rest, order[k+1:]...)
	return field[order[k]].ID, rest, nil
}

// swissMatch pairs the entrants order lists (in standings order) by least
// cost: the square of the points gap dominates, then the distance in the
// standings. mate is indexed by position in order.
func swissMatch(field []Entrant, order []int) ([]int, error) {
	n := len(order)
	met := metSets(field, order)
	// The standings distance of a whole matching is below n², so a points
	// gap of 1 (weighing n²) outweighs any arrangement of places.
	weight := int64(n)*int64(n) + 1
	mate, err := MinCostMatching(n, func(i, j int) (int64, bool) {
		if met[i][field[order[j]].ID] {
			return 0, false
		}
		gap := int64(min(abs(field[order[i]].Points-field[order[j]].Points), maxGap))
		return gap*gap*weight + int64(j-i), true
	})
	if err != nil {
		return nil, fmt.Errorf("%d players: %w", n, err)
	}
	return mate, nil
}

// metSets returns, for each entrant order lists, the set of IDs they have
// met or are kept apart from (Entrant.Avoid).
func metSets(field []Entrant, order []int) []map[string]bool {
	sets := make([]map[string]bool, len(order))
	for k, i := range order {
		sets[k] = make(map[string]bool, len(field[i].Met)+len(field[i].Avoid))
		for _, id := range field[i].Met {
			sets[k][id] = true
		}
		for _, id := range field[i].Avoid {
			sets[k][id] = true
		}
	}
	// A meeting counts if either side remembers it, and so does a block.
	pos := make(map[string]int, len(order))
	for k, i := range order {
		pos[field[i].ID] = k
	}
	for _, i := range order {
		for _, id := range field[i].Met {
			if p, ok := pos[id]; ok {
				sets[p][field[i].ID] = true
			}
		}
		for _, id := range field[i].Avoid {
			if p, ok := pos[id]; ok {
				sets[p][field[i].ID] = true
			}
		}
	}
	return sets
}

// swissTables turns a matching into tables in standings order, each in
// seat order.
func swissTables(field []Entrant, order, mate []int) [][]string {
	games := make(map[string]int, len(order))
	for _, i := range order {
		games[field[i].ID] = len(field[i].Met) + field[i].Byes
	}
	tables := make([][]string, 0, len(mate)/2)
	for k, m := range mate {
		if m < k {
			continue
		}
		t := []string{field[order[k]].ID, field[order[m]].ID}
		seatOrder(t, games)
		tables = append(tables, t)
	}
	return tables
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
