package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"parlour/games/nymphabet"
	"parlour/games/nymphabet/solve"
	"parlour/lexicon"
)

// runNymphabet is `parlour nymphabet solve`: the value of every position
// of Nymphabet under perfect play, from retrograde analysis of a lexicon.
func runNymphabet(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: parlour nymphabet solve [--mode standard|cyclic|scoring] [--lexicon NAME|FILE] [--json] [--all]")
	}
	if len(args) == 0 || args[0] != "solve" {
		switch {
		case len(args) == 0:
		case args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help":
			usage()
			return 0
		default:
			fmt.Fprintf(stderr, "parlour nymphabet: unknown command %q (the one there is: solve)\n", args[0])
		}
		usage()
		return 2
	}
	fl := flag.NewFlagSet("nymphabet solve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { usage(); fl.PrintDefaults() }
	mode := fl.String("mode", string(nymphabet.Standard), "the variant: standard, cyclic or scoring")
	lexName := fl.String("lexicon", lexicon.DefaultName, "the lexicon: a name (en, en-common, en-large) or a word-list file")
	asJSON := fl.Bool("json", false, "print one JSON object")
	all := fl.Bool("all", false, "cyclic mode: list every position with a winning word, not only the starts")
	if err := parseFlags(fl, args[1:]); err != nil {
		return flagsFailed(err)
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "parlour nymphabet solve: unexpected argument %q\n", fl.Arg(0))
		usage()
		return 2
	}
	m := nymphabet.Mode(strings.ToLower(*mode))
	switch m {
	case nymphabet.Standard, nymphabet.Cyclic, nymphabet.Scoring:
	default:
		fmt.Fprintf(stderr, "parlour nymphabet solve: no mode %q (standard, cyclic or scoring)\n", *mode)
		return 2
	}
	lex, err := lexicon.Load(*lexName)
	if err != nil {
		fmt.Fprintf(stderr, "parlour nymphabet solve: lexicon: %v\n", err)
		return 2
	}
	if err := ctx.Err(); err != nil {
		return 1
	}
	s := solve.New(lex, m)
	r := s.Report()
	if *asJSON {
		e := json.NewEncoder(stdout)
		e.SetIndent("", "  ")
		if err := e.Encode(r); err != nil {
			fmt.Fprintf(stderr, "parlour nymphabet solve: %v\n", err)
			return 1
		}
		return 0
	}
	if err := printSolution(stdout, s, r, lex, *all); err != nil {
		fmt.Fprintf(stderr, "parlour nymphabet solve: %v\n", err)
		return 1
	}
	return 0
}

// printSolution writes a report for people.
func printSolution(w io.Writer, s *solve.Solver, r solve.Report, lex *lexicon.Lexicon, all bool) error {
	fmt.Fprintf(w, "Nymphabet, %s mode, lexicon %s (%d words)\n\n", r.Mode, lex.Name(), lex.Len())
	fmt.Fprintf(w, "With perfect play the first player %s.\n\n", outcome(r.FirstPlayer))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if r.Mode == nymphabet.Standard {
		fmt.Fprintln(w, "Every position: the value for the player who must write a word beginning with the letter, and a winning word.")
		fmt.Fprintln(w)
		printEntries(tw, r.Positions)
	} else {
		fmt.Fprintln(w, "Every start: the value for the first player beginning with the letter, and a word that achieves it.")
		fmt.Fprintln(w)
		printEntries(tw, r.Starts)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Mode == nymphabet.Cyclic {
		printCyclicGrid(w, s)
		if all {
			printCyclicAll(w, s)
		}
	}
	if r.Mode == nymphabet.Scoring {
		fmt.Fprintf(w, "\nA scoring position also depends on both players' products so far; the search solved %d of them.\n", s.Positions())
	}
	fmt.Fprintln(w)
	if r.QThroughU {
		fmt.Fprintf(w, "Words beginning with Q that delete Q through U: %s.\n", strings.ToUpper(strings.Join(r.QThroughUWords, ", ")))
	} else {
		fmt.Fprintln(w, "No word beginning with Q deletes Q through U.")
	}
	return nil
}

func outcome(v solve.Value) string {
	switch v {
	case solve.Win:
		return "wins"
	case solve.Loss:
		return "loses"
	}
	return "draws"
}

func printEntries(tw *tabwriter.Writer, es []solve.Entry) {
	for _, e := range es {
		word := "-"
		if e.Word != "" {
			word = strings.ToUpper(e.Word)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", e.Letter, e.Value, word)
	}
}

// printCyclicGrid shows the value of every cyclic position: W where the
// player to move wins, - where they lose.
func printCyclicGrid(w io.Writer, s *solve.Solver) {
	fmt.Fprintln(w, "\nEvery position (W: the player to move wins; -: loses), by letters left and current letter:")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  left  %s\n", "A B C D E F G H I J K L M N O P Q R S T U V W X Y Z")
	for n := nymphabet.Letters; n >= 1; n-- {
		var b strings.Builder
		for c := range nymphabet.Letters {
			if c > 0 {
				b.WriteByte(' ')
			}
			if s.Value(solve.Position{Letter: c, Left: n, Mover: 1, Other: 1}) == solve.Win {
				b.WriteByte('W')
			} else {
				b.WriteByte('-')
			}
		}
		fmt.Fprintf(w, "  %4d  %s\n", n, b.String())
	}
}

// printCyclicAll lists every cyclic position with a winning word.
func printCyclicAll(w io.Writer, s *solve.Solver) {
	fmt.Fprintln(w, "\nEvery position with a winning word:")
	for n := nymphabet.Letters; n >= 1; n-- {
		for c := range nymphabet.Letters {
			p := solve.Position{Letter: c, Left: n, Mover: 1, Other: 1}
			word := "-"
			if m, ok := s.BestMove(p); ok && m.Value == solve.Win {
				word = strings.ToUpper(solve.Best(m.Words).Text)
			}
			fmt.Fprintf(w, "  %c, %2d left: %s %s\n", 'A'+c, n, s.Value(p), word)
		}
	}
}
