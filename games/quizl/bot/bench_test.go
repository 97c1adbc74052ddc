package bot

import (
	"context"
	"flag"
	"os"
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
	for _, m := range ms {
		if m.Games != n {
			t.Errorf("%s: %d games, want %d", m.Name, m.Games, n)
		}
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
