package bot

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"parlour/bench"
	"parlour/game"
	"parlour/games/salvo"
)

var (
	seedsFlag  = flag.String("salvo.seeds", "", "TestSeeds: bench seeds to play, as in 1-3,101-103")
	seedGames  = flag.Int("salvo.games", 200, "TestSeeds: games per matchup and seed")
	levelsFlag = flag.String("salvo.levels", "strong,fleet-density", "TestSeeds: shooters to play")
)

// parseList reads "1-3,7" as 1, 2, 3, 7.
func parseList(s string) ([]uint64, error) {
	var out []uint64
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.ParseUint(lo, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", part, err)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(hi, 10, 64); err != nil || b < a {
				return nil, fmt.Errorf("%q is not a range", part)
			}
		}
		for x := a; x <= b; x++ {
			out = append(out, x)
		}
	}
	return out, nil
}

// TestSeeds plays the bench's practice games (random fleets and the
// strong placer's fleets, the same fleets and shooter seeds as `parlour
// bench salvo --seed S`) for the chosen shooters on many seeds, and prints
// each seed's table and the games pooled over the seeds: salvos to sink,
// with 95% intervals, and wrong outlines. It runs only with -salvo.seeds.
func TestSeeds(t *testing.T) {
	if *seedsFlag == "" {
		t.Skip("no -salvo.seeds")
	}
	seeds, err := parseList(*seedsFlag)
	if err != nil {
		t.Fatal(err)
	}
	levels := strings.Split(*levelsFlag, ",")
	rules := game.Defaults(salvo.Game{}.Options())
	p := salvo.PlacementOf(rules)
	var pooled []*bench.Matchup
	for _, s := range seeds {
		var ms []*bench.Matchup
		for _, kind := range []string{"random fleets", "placer's fleets"} {
			fleets := make([]salvo.Fleet, *seedGames)
			for i := range fleets {
				r := rand.New(rand.NewPCG(s, uint64(i)))
				if kind == "random fleets" {
					fleets[i] = salvo.RandomFleet(r, p)
				} else {
					fleets[i] = HardFleet(r, p)
				}
			}
			for _, level := range levels {
				m := bench.NewMatchup(level+" vs "+kind, "salvos to sink")
				for i, f := range fleets {
					n, right, err := Practice(context.Background(), rules, f, level, s+uint64(i), m.Time)
					if err != nil {
						t.Fatal(err)
					}
					winner := "fleet"
					if right {
						winner = level
					}
					m.Add(float64(n), winner)
				}
				ms = append(ms, m)
			}
		}
		bench.Print(os.Stdout, fmt.Sprintf("seed %d, %d games per matchup", s, *seedGames), ms)
		fmt.Println()
		if pooled == nil {
			for _, m := range ms {
				pooled = append(pooled, bench.NewMatchup(m.Name, m.Measure))
			}
		}
		for i, m := range ms {
			for _, v := range m.Values {
				pooled[i].Add(v, "")
			}
			for w, c := range m.Wins {
				pooled[i].Wins[w] += c
			}
			pooled[i].MoveTimes = append(pooled[i].MoveTimes, m.MoveTimes...)
		}
	}
	bench.Print(os.Stdout, fmt.Sprintf("seeds %s pooled, %d games per matchup and seed", *seedsFlag, *seedGames), pooled)
}

func TestParseList(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"1-3,7", "[1 2 3 7]", true},
		{"5", "[5]", true},
		{"3-1", "", false},
		{"x", "", false},
		{"", "", false},
	} {
		got, err := parseList(c.in)
		if (err == nil) != c.ok || (c.ok && fmt.Sprint(got) != c.want) {
			t.Errorf("parseList(%q) = %v, %v", c.in, got, err)
		}
	}
}
