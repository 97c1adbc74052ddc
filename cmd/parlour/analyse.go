package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"parlour/analysis"
	"parlour/games"
	"parlour/lexicon"
)

// runAnalyse is `parlour analyse`: the engines' analysis of a finished
// game record (docs/analysis.md), for people or, with --json, as the
// object GET /api/v1/tables/{id}/analysis serves.
func runAnalyse(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("analyse", flag.ContinueOnError)
	fl.SetOutput(stderr)
	asJSON := fl.Bool("json", false, "print the analysis as one JSON object")
	lexName := fl.String("lexicon", "", "referee with this lexicon (a name, or a word-list file) instead of the record's")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: parlour analyse [--json] [--lexicon WORDLIST] FILE|-")
		fl.PrintDefaults()
	}
	if err := parseFlags(fl, args); err != nil {
		return flagsFailed(err)
	}
	if fl.NArg() != 1 {
		fl.Usage()
		return 2
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "parlour analyse: %v\n", err)
		return code
	}
	rec, err := readRecord(fl.Arg(0), stdin)
	if err != nil {
		return fail(2, err)
	}
	name := *lexName
	if name == "" {
		name = rec.Lexicon
		if name == "" {
			name = lexicon.DefaultName
		}
		if !isEmbeddedLexicon(name) {
			return fail(1, fmt.Errorf("the record uses lexicon %q; give its word list with --lexicon", name))
		}
	}
	lex, err := lexicon.Load(name)
	if err != nil {
		return fail(2, err) // the lexicon package names itself
	}
	a, err := analysis.Of(ctx, games.Registry(), rec, lex)
	if errors.Is(err, analysis.ErrInProgress) {
		return fail(1, fmt.Errorf("%w; analysis is for finished games only", err))
	}
	if err != nil {
		return fail(1, err)
	}
	if *asJSON {
		return writeJSON(stdout, stderr, a, 0)
	}
	if err := a.WriteText(stdout); err != nil {
		return fail(1, err)
	}
	return 0
}
