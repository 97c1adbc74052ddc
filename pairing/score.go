package pairing

// Outcome is a two-seat game's result for one player. Its value is the
// points it scores off a streak.
type Outcome int

// The outcomes of a two-seat game.
const (
	Loss Outcome = 0
	Draw Outcome = 1
	Win  Outcome = 2
)

// Streak is an arena player's run of wins. An arena scores 2 for a win, 1
// for a draw and 0 for a loss; after two wins in a row the player is on a
// streak, and while it lasts every game scores double: 4 for a win and 2
// for a draw (as Lichess's arenas do). A draw or a loss ends the streak,
// so the draw that ends a streak still scores 2. The zero Streak is a
// player with no wins in a row yet.
type Streak struct{ Wins int }

// Score returns the points o scores and whether it was played on a streak,
// and records it. A value other than Win or Draw counts as a loss.
func (s *Streak) Score(o Outcome) (points int, onStreak bool) {
	onStreak = s.Wins >= 2
	switch o {
	case Win:
		points = 2
		s.Wins++
	case Draw:
		points = 1
		s.Wins = 0
	default:
		s.Wins = 0
	}
	if onStreak {
		points *= 2
	}
	return points, onStreak
}

// PlacePoints returns the points of finishing alone in place (1 for first)
// at a table of seats players, in the doubled units of the package doc:
// 2 × (seats − place), so 6/4/2/0 at a table of four, 4/2/0 at three and
// 2/0 at two. A place outside the table scores 0. For tied places use
// [TablePoints].
func PlacePoints(place, seats int) int {
	if place < 1 || place > seats {
		return 0
	}
	return 2 * (seats - place)
}

// TablePoints returns each player's points from a table's final scores
// (scores[i] is seat i's score in the game, higher better): places by
// score, and players tied for places share those places' [PlacePoints]
// equally. In the doubled units the share is a whole number: k players
// tied from place p take the mean of 2(s−p) … 2(s−p−k+1), which is
// 2s − 2p − k + 1. Scores [30, 30, 10, 5] give [5, 5, 2, 0]; a two-seat
// draw gives [1, 1].
func TablePoints(scores []int) []int {
	s := len(scores)
	points := make([]int, s)
	for i, x := range scores {
		above, tied := 0, 0
		for _, y := range scores {
			switch {
			case y > x:
				above++
			case y == x:
				tied++
			}
		}
		p := above + 1
		points[i] = 2*s - 2*p - tied + 1
	}
	return points
}
