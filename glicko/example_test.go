package glicko_test

import (
	"fmt"
	"time"

	"parlour/glicko"
)

// A rated game between two new players: each is one rating period for
// both, against the other's rating from before the game.
func ExampleSystem_Game() {
	var s glicko.System // τ = 0.5
	winner, loser, err := s.Game(glicko.New(), glicko.New(), glicko.Win)
	if err != nil {
		panic(err)
	}
	fmt.Println(winner)
	fmt.Println(loser)
	// Output:
	// 1662 ± 290 (σ 0.06)
	// 1338 ± 290 (σ 0.06)
}

// The worked example of Glickman's paper: one rating period with three
// games.
func ExampleSystem_Update() {
	player := glicko.Rating{Value: 1500, RD: 200, Volatility: 0.06}
	r, err := glicko.System{Tau: 0.5}.Update(player, []glicko.Result{
		{Opponent: glicko.Rating{Value: 1400, RD: 30, Volatility: 0.06}, Score: glicko.Win},
		{Opponent: glicko.Rating{Value: 1550, RD: 100, Volatility: 0.06}, Score: glicko.Loss},
		{Opponent: glicko.Rating{Value: 1700, RD: 300, Volatility: 0.06}, Score: glicko.Loss},
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.2f %.2f %.5f\n", r.Value, r.RD, r.Volatility)
	// Output: 1464.05 151.52 0.06000
}

// A player who sits out a period grows less certain.
func ExampleSystem_Idle() {
	var s glicko.System
	r := s.Idle(glicko.Rating{Value: 1800, RD: 60, Volatility: 0.06})
	fmt.Printf("%.0f ± %.1f\n", r.Value, r.RD)
	// Output: 1800 ± 60.9
}

// A settled player who stays away a year is no longer settled.
func ExampleSystem_Away() {
	var s glicko.System
	r := s.Away(glicko.Rating{Value: 1800, RD: 60, Volatility: 0.06}, 365*24*time.Hour)
	fmt.Printf("%.0f ± %.1f\n", r.Value, r.RD)
	// Output: 1800 ± 110.0
}

func ExampleOnLeaderboard() {
	r := glicko.Rating{Value: 1650, RD: 95, Volatility: 0.06}
	fmt.Println(glicko.OnLeaderboard(r, 4), glicko.OnLeaderboard(r, 5))
	// Output: false true
}
