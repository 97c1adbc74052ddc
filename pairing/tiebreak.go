package pairing

import (
	"cmp"
	"slices"
)

// Game is one game of an event for the tie-breaks: its players and each
// one's points from it, in the event's units. A game with one player is a
// bye.
type Game struct {
	Players []string
	Points  []int // each player's points from this game, in the event's units
	// Seats is, for a bye, the seats of the event's tables: the bye
	// stands for a game against one fewer opponents. Zero reads the
	// seats from the largest finished table, which before any has
	// finished (a first round under way) is none.
	Seats int
}

// Buchholz returns each player's Buchholz score: the sum, over their
// games, of every opponent's total; a bye counts as a game against
// opponents whose totals equal the player's own (see the package doc).
// totals holds each player's final total; a player missing from it counts
// 0. Only players with games appear in the result.
func Buchholz(games []Game, totals map[string]int) map[string]int {
	k := virtualOpponents(games)
	b := make(map[string]int)
	for _, g := range games {
		if len(g.Players) == 1 {
			p := g.Players[0]
			b[p] += k * totals[p]
			continue
		}
		for i, p := range g.Players {
			b[p] += 0
			for j, q := range g.Players {
				if i != j {
					b[p] += totals[q]
				}
			}
		}
	}
	return b
}

// SonnebornBerger returns each player's Sonneborn-Berger score: the sum,
// over their games and over each opponent at the table, of the opponent's
// total times the player's result against that opponent, counted 2 when
// the player took more points from the game than the opponent, 1 when as
// many and 0 when fewer (or when nobody took a point: see Unplayed). A
// two-seat game thus counts a beaten opponent's total twice, a drawn
// one's once and a winner's not at all: the classical score, doubled. A bye counts as a game against opponents as strong as
// the player (see the package doc). totals holds each player's final
// total; a player missing from it counts 0. Only players with games appear
// in the result.
func SonnebornBerger(games []Game, totals map[string]int) map[string]int {
	k := virtualOpponents(games)
	sb := make(map[string]int)
	for _, g := range games {
		if len(g.Players) == 1 {
			p := g.Players[0]
			sb[p] += k * totals[p] * result(pointsOf(g, 0), k)
			continue
		}
		for i, p := range g.Players {
			sb[p] += 0
			if Unplayed(g) {
				continue // lost by all: nothing against anyone
			}
			for j, q := range g.Players {
				if i != j {
					sb[p] += totals[q] * result(pointsOf(g, i), pointsOf(g, j))
				}
			}
		}
	}
	return sb
}

// Unplayed reports whether nobody took a point from game g, of two
// players or more: every one of them forfeited it (a draw shares points,
// and so do the places of a tied table). Such a game is lost by all: it
// counts as no draw between them.
func Unplayed(g Game) bool {
	if len(g.Players) < 2 {
		return false
	}
	for i := range g.Players {
		if pointsOf(g, i) != 0 {
			return false
		}
	}
	return true
}

// virtualOpponents is how many opponents a bye stands for: one fewer than
// the most players at any table of the event (one in a two-seat event),
// the event's seats as its byes hold them (Game.Seats) among them.
func virtualOpponents(games []Game) int {
	most := 2
	for _, g := range games {
		most = max(most, len(g.Players), g.Seats)
	}
	return most - 1
}

// result is a player's result against another, in two-seat units, from
// the points each took from the game: 2 above, 1 level, 0 below.
func result(mine, theirs int) int {
	switch {
	case mine > theirs:
		return 2
	case mine == theirs:
		return 1
	}
	return 0
}

// pointsOf is player i's points from g; a missing entry counts 0.
func pointsOf(g Game, i int) int {
	if i < len(g.Points) {
		return g.Points[i]
	}
	return 0
}

// Rank returns the field's IDs in standings order: points, then Buchholz,
// then Sonneborn-Berger (each computed from games with the field's points
// as the totals), then rating, then ID.
func Rank(field []Entrant, games []Game) []string {
	totals := make(map[string]int, len(field))
	for _, e := range field {
		totals[e.ID] = e.Points
	}
	bh := Buchholz(games, totals)
	sb := SonnebornBerger(games, totals)
	order := slices.Clone(field)
	slices.SortStableFunc(order, func(x, y Entrant) int {
		if c := cmp.Compare(y.Points, x.Points); c != 0 {
			return c
		}
		if c := cmp.Compare(bh[y.ID], bh[x.ID]); c != 0 {
			return c
		}
		if c := cmp.Compare(sb[y.ID], sb[x.ID]); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Rating, x.Rating); c != 0 {
			return c
		}
		return cmp.Compare(x.ID, y.ID)
	})
	ids := make([]string, len(order))
	for i, e := range order {
		ids[i] = e.ID
	}
	return ids
}
