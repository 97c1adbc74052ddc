package bot

import (
	"context"
	"flag"
	"os"
	"testing"

	"parlour/bench"
	"parlour/lexicon"
)

var benchGames = flag.Int("quizl.games", 0, "play a Quizl bench of this many games per matchup and print it")

// TestBench runs a small bench: every matchup plays, and the figures are
// sane. With -quizl.games N it runs a full one and prints the table.
func TestBench(t *testing.T) {
	n := 1
	if *benchGames > 0 {
		n = *benchGames
	}
	ms, err := Bench(context.Background(), n, 1, lexicon.Default())
	if err != nil {
		t.Fatal(err)
	}
	if *benchGames > 0 {
		bench.Print(os.Stdout, "quizl", ms)
	}
	for _, m := range ms {
		if m.Games != n {
			t.Errorf("%s: %d games, want %d", m.Name, m.Games, n)
		}
	}
}
