package pairing

import (
	"errors"
	"fmt"
)

// maxGap caps the points difference a pairing cost counts: beyond it every
// gap is as bad, and the cap keeps costs far from overflow.
const maxGap = 1000

// Swiss pairs one round of a Swiss event: two-seat tables of players with
// equal or close points, never two who have met before. When the field is
// odd, one entrant sits out: the lowest-ranked with the fewest byes (in
// practice, without one) for whom the others can still be paired. Tables
// come in standings order (the best-placed pair first); within a table
// the seat order follows a hash of the players and the games they have
// played, so that it is the same on every node and changes from round to
// round. Swiss fails, wrapping [ErrNoPairing], when every way to pair the
// field repeats a game.
func Swiss(field []Entrant) (Round, error) {
	if err := checkField(field); err != nil {
		return Round{}, err
	}
	order := standings(field)
	var round Round
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
// standings order.
func swissBye(field []Entrant, order []int) (string, []int, error) {
	fewest := field[order[0]].Byes
	for _, i := range order {
		fewest = min(fewest, field[i].Byes)
	}
	for k := len(order) - 1; k >= 0; k-- {
		if field[order[k]].Byes != fewest {
			continue
		}
		rest := make([]int, 0, len(order)-1)
		rest = append(rest, order[:k]...)
		rest = append(rest, order[k+1:]...)
		_, err := swissMatch(field, rest)
		if err == nil {
			return field[order[k]].ID, rest, nil
		}
		if !errors.Is(err, ErrNoPairing) {
			return "", nil, err
		}
	}
	return "", nil, fmt.Errorf("%d players, whoever sits out: %w", len(order), ErrNoPairing)
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
	return MinCostMatching(n, func(i, j int) (int64, bool) {
		if met[i][field[order[j]].ID] {
			return 0, false
		}
		gap := int64(min(abs(field[order[i]].Points-field[order[j]].Points), maxGap))
		return gap*gap*weight + int64(j-i), true
	})
}

// metSets returns, for each entrant order lists, the set of IDs they have
// met.
func metSets(field []Entrant, order []int) []map[string]bool {
	sets := make([]map[string]bool, len(order))
	for k, i := range order {
		sets[k] = make(map[string]bool, len(field[i].Met))
		for _, id := range field[i].Met {
			sets[k][id] = true
		}
	}
	// A meeting counts if either side remembers it.
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
	var tables [][]string
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
