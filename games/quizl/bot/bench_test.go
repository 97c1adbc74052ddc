package bot

import (
	"context"
	"flag"
	"os"
	"strings"
	"testing"

	"parlour/bench"
	"parlour/game"
	"parlour/games/quizl"
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
	overs := 0
	for _, m := range ms {
		decided := strings.HasSuffix(m.Name, "decided games")
		if strings.HasPrefix(m.Name, "calibration, ") {
			continue // counts announcements, not games
		}
		if m.Games != n && !(decided && m.Games < n) {
			t.Errorf("%s: %d games, want %d", m.Name, m.Games, n)
		}
		if m.Over != nil {
			overs++
			if !m.Paired || m.Over.Games != m.Games || !strings.HasSuffix(m.Over.Name, "random fillers") {
				t.Errorf("%s compared with %q (paired %v), want its own solver's random fillers, paired", m.Name, m.Over.Name, m.Paired)
			}
		}
	}
	if overs != 6 {
		t.Errorf("%d deceptive rows compared with random ones, want one per solver (6)", overs)
	}
	hiding := ms[0]
	if !strings.HasPrefix(hiding.Name, "strong grid maker") || len(hiding.MoveTimes) != n || len(hiding.Counted) != quizl.Size {
		t.Fatalf("first row %q with %d grid times and %d counted labels, want the strong grid maker's, one time a grid, one label an index", hiding.Name, len(hiding.MoveTimes), len(hiding.Counted))
	}
	s := hiding.Summary()
	total := 0
	for _, c := range s.Counts {
		total += c.N
	}
	if total != n {
		t.Errorf("line indexes counted %d grids, want %d", total, n)
	}
}

// BenchmarkStrongMove times one move of the strong solver early in a
// solitaire game, when the most hypotheses are alive (targets: median
// under 100 ms, p99 under 500 ms).
func BenchmarkStrongMove(b *testing.B) {
	lex := lexicon.Default()
	g, err := quizl.RandomGrid("crane", lex, 1)
	if err != nil {
		b.Fatal(err)
	}
	cfg := game.Config{Players: []string{"solver"}, Rules: game.Defaults(quizl.Game{}.Options()), Lexicon: lex}
	st, err := quizl.NewStateGrids(cfg, []*quizl.Grid{g})
	if err != nil {
		b.Fatal(err)
	}
	for _, sq := range []string{"74", "52"} {
		if _, err := st.Apply(0, sq); err != nil {
			b.Fatal(err)
		}
	}
	bot, _ := New(game.Strong, 1, lex)
	view := st.ViewOf(0)
	ctx := context.Background()
	for b.Loop() {
		if _, err := bot.Move(ctx, cfg, 0, view); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGrid times the strong grid maker around a given password, as
// solitaire and the bench call it.
func BenchmarkGrid(b *testing.B) {
	lex := lexicon.Default()
	var seed uint64
	for b.Loop() {
		seed++
		if _, err := Grid(b.Context(), "crane", game.Strong, seed, lex); err != nil {
			b.Fatal(err)
		}
	}
}
