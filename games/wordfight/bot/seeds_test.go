package bot

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"parlour/bench"
)

var (
	seedsFlag = flag.String("wordfight.seeds", "", "TestSeeds: bench seeds to play, as in 1-3,101-103")
	onlyFlag  = flag.String("wordfight.only", "5,6", "TestSeeds: the bench's matchups to play, by index from 0")
	seedGames = flag.Int("wordfight.games", 100, "TestSeeds: games per matchup and seed")
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

// TestSeeds plays the bench's matchups on many seeds, each seed exactly as
// `parlour bench wordfight --seed S` plays it, and prints each seed's
// table and the matchups pooled over all the seeds: the figures
// docs/bots.md quotes for tuning and held-out seeds. It runs only with
// -wordfight.seeds.
func TestSeeds(t *testing.T) {
	if *seedsFlag == "" {
		t.Skip("no -wordfight.seeds")
	}
	seeds, err := parseList(*seedsFlag)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := parseList(*onlyFlag)
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
	var pooled []*bench.Matchup
	for _, s := range seeds {
		ms, err := benchPairings(context.Background(), *seedGames, s, enLex(), pairings(), keep)
		if err != nil {
			t.Fatal(err)
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
