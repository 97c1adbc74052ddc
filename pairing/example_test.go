package pairing_test

import (
	"fmt"

	"parlour/pairing"
)

// The third round of a five-player Swiss event: nobody meets an opponent
// again, scores are as close as that allows, and the lowest-ranked player
// without a bye sits out.
func ExampleSwiss() {
	field := []pairing.Entrant{
		{ID: "ada", Points: 4, Met: []string{"bo", "cy"}},
		{ID: "bo", Points: 2, Met: []string{"ada", "dee"}},
		{ID: "cy", Points: 2, Met: []string{"dee", "ada"}},
		{ID: "dee", Points: 2, Met: []string{"cy", "bo"}},
		{ID: "eve", Points: 2, Byes: 1, Met: []string{"cy"}},
	}
	round, err := pairing.Swiss(field)
	if err != nil {
		fmt.Println(err) // the event has run out of rounds
		return
	}
	fmt.Println("tables:", round.Tables)
	fmt.Println("bye:", round.Byes)
	// Output:
	// tables: [[ada eve] [bo cy]]
	// bye: [dee]
}

// An arena's waiting pool: ada and bo have just played each other, so
// each meets someone else.
func ExampleArena() {
	pairs := pairing.Arena([]pairing.Waiting{
		{ID: "ada", Points: 8, Last: "bo"},
		{ID: "bo", Points: 7, Last: "ada"},
		{ID: "cy", Points: 6},
		{ID: "dee", Points: 2},
		{ID: "eve", Points: 0},
	})
	fmt.Println(pairs)
	// Output: [[ada cy] [bo dee]]
}

// An arena player's scores: the third win in a row is on a streak.
func ExampleStreak_Score() {
	var s pairing.Streak
	for _, o := range []pairing.Outcome{pairing.Win, pairing.Win, pairing.Win, pairing.Draw, pairing.Win} {
		points, onStreak := s.Score(o)
		fmt.Print(points)
		if onStreak {
			fmt.Print(" (streak)")
		}
		fmt.Println()
	}
	// Output:
	// 2
	// 2
	// 4 (streak)
	// 2 (streak)
	// 2
}

// A Word Fight table of four ends 31, 31, 18, 9: the two tied for first
// share first and second place's points, in doubled units.
func ExampleTablePoints() {
	fmt.Println(pairing.TablePoints([]int{31, 31, 18, 9}))
	// Output: [5 5 2 0]
}
