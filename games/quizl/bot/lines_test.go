package bot

import (
	"flag"
	"fmt"
	"testing"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

var linesFlag = flag.Int("quizl.lines", 0, "make this many strong grids (seeds 1 to N, a fresh password each, as a solitaire table gets) and print how often the password lies on each line index")

// TestLines measures where the strong grid maker puts the password: for
// seeds 1 to -quizl.lines it makes a grid as Bot.Setup does for a
// solitaire table (Grid with no password given, level strong, the
// default lexicon) and counts the grids by the index of the password's
// line (row 5+k or column k) and by row or column. docs/bots.md quotes
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
	for seed := uint64(1); seed <= uint64(n); seed++ {
		g, err := Grid(t.Context(), "", game.Strong, seed, lex)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		byIndex[int(g.Line)%quizl.Size]++
		if g.Line.IsRow() {
			rows++
		}
	}
	fmt.Printf("%d strong grids, seeds 1-%d: password by line index\n", n, n)
	for k, c := range byIndex {
		fmt.Printf("  index %d: %4d  %5.1f%%\n", k, c, 100*float64(c)/float64(n))
	}
	fmt.Printf("  rows %d (%.1f%%), columns %d\n", rows, 100*float64(rows)/float64(n), n-rows)
}
