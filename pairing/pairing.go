package pairing

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
)

// Entrant is one player of a field as a pairing sees the standings.
type Entrant struct {
	ID     string
	Points int     // score so far, in the event's units (Swiss: 2 win, 1 draw, 0 loss; a bye = a win)
	Rating float64 // orders players of equal points (higher first)
	Byes   int     // byes had so far
	// Met lists the opponents met so far, one entry per game: a player met
	// twice appears twice. After a multi-seat game it lists each other
	// player at the table.
	Met []string
	// Avoid lists the players this one is kept apart from (a block,
	// made by either): a pairing treats them as met, so that a two-seat
	// round never seats them together, as it never repeats a game. It
	// counts in no tiebreak.
	Avoid []string
}

// Round is one round's pairing: its tables, each listing IDs in seat
// order, and who sits out.
type Round struct {
	Tables [][]string `json:"tables"`
	Byes   []string   `json:"byes,omitempty"`
}

// ErrNoPairing is returned (wrapped) when no pairing satisfies the rules:
// for [Swiss], every way to pair the field would repeat a game; for
// [MinCostMatching], every perfect matching uses a forbidden edge.
var ErrNoPairing = errors.New("no pairing without a rematch")

// checkField reports a field that no pairing can use: an empty or repeated
// ID.
func checkField(field []Entrant) error {
	seen := make(map[string]bool, len(field))
	for i, e := range field {
		if e.ID == "" {
			return fmt.Errorf("entrant %d has no ID", i+1)
		}
		if seen[e.ID] {
			return fmt.Errorf("entrant %q appears twice", e.ID)
		}
		seen[e.ID] = true
		if e.Byes < 0 {
			return fmt.Errorf("entrant %q has %d byes", e.ID, e.Byes)
		}
	}
	return nil
}

// standings returns the indices of field in standings order: points, then
// rating, then ID, best first.
func standings(field []Entrant) []int {
	order := make([]int, len(field))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		x, y := field[a], field[b]
		if c := cmp.Compare(y.Points, x.Points); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Rating, x.Rating); c != 0 {
			return c
		}
		return cmp.Compare(x.ID, y.ID)
	})
	return order
}

// seatHash is a deterministic, well-spread number for a player at a
// table after games games: seat orders follow it, so that they look random
// but are the same on every node, and change from game to game.
func seatHash(id string, games int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return mix(h.Sum64() + uint64(games)*0x9e3779b97f4a7c15)
}

// mix is the finaliser of SplitMix64: every bit of x moves every bit of
// the result, which FNV alone does not do for the last bytes hashed.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// seatOrder sorts the IDs of a table into seat order. At a two-seat table
// each player leans to sitting first in every other game (which games
// depends on a hash of the ID), and when both lean the same way a hash of
// both decides; over an event each player sits first about half the
// time. A larger table sorts by seatHash.
func seatOrder(table []string, games map[string]int) {
	if len(table) == 2 {
		a, b := table[0], table[1]
		wantA := (seatHash(a, 0)+uint64(games[a]))%2 == 0
		wantB := (seatHash(b, 0)+uint64(games[b]))%2 == 0
		aFirst := wantA
		if wantA == wantB {
			// A coin both orders of the pair toss alike: heads, the
			// smaller ID sits first.
			heads := mix(seatHash(a, games[a])^seatHash(b, games[b]))%2 == 0
			aFirst = heads == (a < b)
		}
		if !aFirst {
			table[0], table[1] = b, a
		}
		return
	}
	slices.SortFunc(table, func(a, b string) int {
		if c := cmp.Compare(seatHash(a, games[a]), seatHash(b, games[b])); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
}

// MaxRounds is the most rounds of Swiss a field of n players can play
// without a rematch: n−1 for an even field (everyone meets everyone), n
// for an odd one (each round one player sits out, and each sits out once),
// none for fewer than two. An event must not plan more. Even within the
// limit a late round of a small field can find every remaining pairing
// blocked by the rounds before (Swiss pairs one round at a time and cannot
// see ahead); [Swiss] then fails and the event ends early.
func MaxRounds(n int) int {
	switch {
	case n < 2:
		return 0
	case n%2 == 0:
		return n - 1
	default:
		return n
	}
}
