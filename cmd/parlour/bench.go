package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"parlour/bench"
	nymbot "parlour/games/nymphabet/bot"
	quizlbot "parlour/games/quizl/bot"
	salvobot "parlour/games/salvo/bot"
	wfbot "parlour/games/wordfight/bot"
	"parlour/lexicon"
)

// benchFunc plays one game's matchups: games per matchup, from seed.
type benchFunc func(ctx context.Context, games int, seed uint64, lex *lexicon.Lexicon) ([]*bench.Matchup, error)

func benches() map[string]benchFunc {
	return map[string]benchFunc{
		"quizl":     quizlbot.Bench,
		"salvo":     salvobot.Bench,
		"wordfight": wfbot.Bench,
		"nymphabet": nymbot.Bench,
	}
}

func runBench(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("bench", flag.ContinueOnError)
	fl.SetOutput(stderr)
	games := fl.Int("games", 100, "games per matchup")
	seed := fl.Uint64("seed", 1, "seed for every game's randomness")
	asJSON := fl.Bool("json", false, "print the figures as JSON")
	lexName := fl.String("lexicon", "en", "lexicon: a name or a word-list file")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: parlour bench GAME [--games N] [--seed S] [--json] [--lexicon NAME|FILE]")
		fmt.Fprintln(stderr, "GAME is quizl, salvo, wordfight, nymphabet or all.")
		fl.PrintDefaults()
	}
	if err := parseFlags(fl, args); err != nil {
		return flagsFailed(err)
	}
	if fl.NArg() != 1 {
		fl.Usage()
		return 2
	}
	name := fl.Arg(0)
	if *games < 1 || *games > 1_000_000 {
		fmt.Fprintf(stderr, "parlour bench: --games %d: want 1 to 1000000\n", *games)
		return 2
	}
	all := benches()
	names := []string{name}
	if name == "all" {
		names = []string{"quizl", "salvo", "wordfight", "nymphabet"}
	} else if _, ok := all[name]; !ok {
		fmt.Fprintf(stderr, "parlour bench: no game called %q (try quizl, salvo, wordfight, nymphabet or all)\n", name)
		return 2
	}
	lex, err := lexicon.Load(*lexName)
	if err != nil {
		fmt.Fprintf(stderr, "parlour bench: %v\n", err)
		return 2
	}
	for _, n := range names {
		start := time.Now()
		ms, err := all[n](ctx, *games, *seed, lex)
		if err != nil {
			fmt.Fprintf(stderr, "parlour bench %s: %v\n", n, err)
			return 1
		}
		if *asJSON {
			err = bench.WriteJSON(stdout, n, ms)
		} else {
			title := fmt.Sprintf("%s: %d games per matchup, seed %d, lexicon %s (%s)", n, *games, *seed, lex.Name(), time.Since(start).Round(time.Millisecond))
			err = bench.Print(stdout, title, ms)
			fmt.Fprintln(stdout)
		}
		if err != nil {
			fmt.Fprintf(stderr, "parlour bench: %v\n", err)
			return 1
		}
	}
	return 0
}
