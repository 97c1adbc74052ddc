package bot

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
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
	fleetsFlag = flag.String("salvo.fleets", "random,placer", "TestSeeds: the fleets to fire at, random and/or placer (the strong placer's)")
	roundsFlag = flag.String("salvo.rounds", "", "TestSeeds: the placer's search, as keep x trials a round (8x2 is the placer before successive halving; empty for HardFleet's)")
)

// parseRounds reads the placer's search as "24x1,6x2,2x4": each round
// keeps that many candidates and plays each of them that many trial
// games more.
func parseRounds(s string) ([]trialRound, error) {
	var out []trialRound
	for part := range strings.SplitSeq(s, ",") {
		keep, trials, ok := strings.Cut(strings.TrimSpace(part), "x")
		k, err1 := strconv.Atoi(keep)
		n, err2 := strconv.Atoi(trials)
		if !ok || err1 != nil || err2 != nil || k < 1 || n < 1 {
			return nil, fmt.Errorf("placer round %q: want candidates x trial games, such as 8x2", part)
		}
		out = append(out, trialRound{keep: k, trials: n})
	}
	return out, nil
}

func TestParseRounds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []trialRound
	}{
		{"8x2", []trialRound{{8, 2}}},
		{"24x1, 6x2,2x4", []trialRound{{24, 1}, {6, 2}, {2, 4}}},
		{"", nil},
		{"8", nil},
		{"8x", nil},
		{"0x2", nil},
		{"8x2,", nil},
		{"ax2", nil},
	} {
		got, err := parseRounds(tc.in)
		if tc.want == nil {
			if err == nil {
				t.Errorf("%q: %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// TestSeeds plays the bench's practice games (random fleets and the
// strong placer's fleets, the same fleets and shooter seeds as `parlour
// bench salvo --seed S`) for the chosen shooters on many seeds, and prints
// each seed's table and the games pooled over the seeds: salvos to sink,
// with 95% intervals, wrong outlines, and how many more salvos the
// placer's fleets cost each shooter than random ones. -salvo.rounds plays
// the placer with another search (8x2: the placer before successive
// halving, game for game). It runs only with -salvo.seeds.
func TestSeeds(t *testing.T) {
	if *seedsFlag == "" {
		t.Skip("no -salvo.seeds")
	}
	seeds, err := bench.ParseList(*seedsFlag)
	if err != nil {
		t.Fatal(err)
	}
	levels := strings.Split(*levelsFlag, ",")
	var kinds []string
	for _, f := range strings.Split(*fleetsFlag, ",") {
		switch f {
		case "random":
			kinds = append(kinds, "random fleets")
		case "placer":
			kinds = append(kinds, "placer's fleets")
		default:
			t.Fatalf("-salvo.fleets %q: want random, placer or both", f)
		}
	}
	place := HardFleet
	if *roundsFlag != "" {
		rounds, err := parseRounds(*roundsFlag)
		if err != nil {
			t.Fatal(err)
		}
		place = func(ctx context.Context, r *rand.Rand, p salvo.Placement) salvo.Fleet {
			return hardFleet(ctx, r, p, rounds)
		}
	}
	rules := game.Defaults(salvo.Game{}.Options())
	p := salvo.PlacementOf(rules)
	var pooled []*bench.Matchup
	for _, s := range seeds {
		var ms []*bench.Matchup
		onRandom := map[string]*bench.Matchup{}
		for _, kind := range kinds {
			fleets := make([]salvo.Fleet, *seedGames)
			for i := range fleets {
				r := rand.New(rand.NewPCG(s, uint64(i)))
				if kind == "random fleets" {
					fleets[i] = salvo.RandomFleet(r, p)
				} else {
					fleets[i] = place(context.Background(), r, p)
				}
			}
			for _, level := range levels {
				m := bench.NewMatchup(level+" vs "+kind, "salvos to sink")
				m.Counted = map[string]string{"fleet": "wrong outlines"}
				if kind == "random fleets" {
					onRandom[level] = m
				} else {
					m.Over = onRandom[level]
				}
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
		pooled = bench.Pool(pooled, ms)
	}
	bench.Print(os.Stdout, fmt.Sprintf("seeds %s pooled, %d games per matchup and seed", *seedsFlag, *seedGames), pooled)
}
