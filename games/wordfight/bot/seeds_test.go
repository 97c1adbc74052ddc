package bot

import (
	"context"
	"flag"
	"fmt"
	"os"
	"testing"

	"parlour/bench"
)

var (
	seedsFlag = flag.String("wordfight.seeds", "", "TestSeeds: bench seeds to play, as in 1-3,101-103")
	onlyFlag  = flag.String("wordfight.only", "5,6", "TestSeeds: the bench's matchups to play, by index from 0")
	seedGames = flag.Int("wordfight.games", 100, "TestSeeds: games per matchup and seed")
)

// TestSeeds plays the bench's matchups on many seeds, each seed exactly as
// `parlour bench wordfight --seed S` plays it, and prints each seed's
// table and the matchups pooled over all the seeds: the figures
// docs/bots.md quotes for tuning and held-out seeds. It runs only with
// -wordfight.seeds; -wordfight.careful changes the careful player's
// weights, for trials on tuning seeds.
func TestSeeds(t *testing.T) {
	if *seedsFlag == "" {
		t.Skip("no -wordfight.seeds")
	}
	seeds, err := bench.ParseList(*seedsFlag)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := bench.ParseList(*onlyFlag)
	if err != nil {
		t.Fatal(err)
	}
	keep := func(i int) bool {
		for _, k := range idx {
			if int(k) == i {
				return true
			}
		}
		return false
	}
	cw, err := parseCareful(*tuneFlag)
	if err != nil {
		t.Fatal(err)
	}
	var pooled []*bench.Matchup
	for _, s := range seeds {
		ms, err := benchPairings(context.Background(), *seedGames, s, enLex(), pairings(), keep, cw)
		if err != nil {
			t.Fatal(err)
		}
		bench.Print(os.Stdout, fmt.Sprintf("seed %d, %d games per matchup", s, *seedGames), ms)
		fmt.Println()
		pooled = bench.Pool(pooled, ms)
	}
	bench.Print(os.Stdout, fmt.Sprintf("seeds %s pooled, %d games per matchup and seed", *seedsFlag, *seedGames), pooled)
}
