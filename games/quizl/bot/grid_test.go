package bot

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

var (
	linesFlag     = flag.Int("quizl.lines", 0, "make this many strong grids (seeds 1 to N, a fresh password each, as a solitaire table gets) and print how often the password lies on each line index")
	linesFromFlag = flag.Int("quizl.linesfrom", 1, "with -quizl.lines, the first seed")
)

// TestLines measures where the strong grid maker puts the password: for
// seeds 1 to -quizl.lines it makes a grid as Bot.Setup does for a
// solitaire table (Grid with no password given, level strong, the
// default lexicon) and counts the grids by the index of the password's
// line (row 5+k or column k) and by row or column. -quizl.linesfrom
// starts the seeds elsewhere, for seeds not tuned on. docs/bots.md quotes
// its figures. About 150 ms a grid: run it alone, with nice, e.g.
//
//	nice go test ./games/quizl/bot/ -run TestLines -quizl.lines 900 -v -timeout 30m
func TestLines(t *testing.T) {
	n := *linesFlag
	if n <= 0 {
		t.Skip("no -quizl.lines")
	}
	lex := lexicon.Default()
	var byIndex [quizl.Size]int
	rows := 0
	from := uint64(max(*linesFromFlag, 1))
	for seed := from; seed < from+uint64(n); seed++ {
		g, err := Grid(t.Context(), "", game.Strong, seed, lex)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		byIndex[int(g.Line)%quizl.Size]++
		if g.Line.IsRow() {
			rows++
		}
	}
	fmt.Printf("%d strong grids, seeds %d-%d: password by line index\n", n, from, from+uint64(n)-1)
	for k, c := range byIndex {
		fmt.Printf("  index %d: %4d  %5.1f%%\n", k, c, 100*float64(c)/float64(n))
	}
	fmt.Printf("  rows %d (%.1f%%), columns %d\n", rows, 100*float64(rows)/float64(n), n-rows)
}

// TestPickCapped checks that no index takes more than its cap, however
// its score dominates, and that the others keep their order.
func TestPickCapped(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name  string
		score []float64
	}{
		{"one dominant", []float64{0, 0, 0, 0, 100}},
		{"two dominant", []float64{0, 50, 0, 0, 50}},
		{"even", []float64{1, 1, 1, 1, 1}},
		{"graded", []float64{0, 4, 8, 12, 16}},
	}
	for _, tt := range tests {
		var n [5]int
		const draws = 20000
		for range draws {
			n[pickCapped(rng, tt.score, 4, 0.3)]++
		}
		for k, c := range n {
			if f := float64(c) / draws; f > 0.315 {
				t.Errorf("%s: index %d drawn %.3f of the time, cap 0.3", tt.name, k, f)
			}
		}
		if tt.name == "graded" && !(n[0] < n[1] && n[1] < n[2]) {
			t.Errorf("graded: %v, want the lower indices in the order of their scores", n)
		}
	}
}
