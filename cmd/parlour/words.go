package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"parlour/lexicon"
)

const wordsUsage = `usage:
  parlour words check [--lexicon L] WORD...     is each a genuine word? (exit 0 if all are, 1 if not)
  parlour words match [--lexicon L] [--exclude LETTERS] [--distinct] PATTERN
                                                the words that fit PATTERN, e.g. c?a?e (exit 1 if none)
  parlour words stats [--lexicon L]             how many words, by length and by commonness

L is en (the default), en-common, en-large, or a word-list file (one word a line).`

// runWords looks words up in a lexicon: parlour words check|match|stats.
func runWords(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, wordsUsage)
		return 2
	}
	switch args[0] {
	case "check":
		return wordsCheck(args[1:], stdout, stderr)
	case "match":
		return wordsMatch(args[1:], stdout, stderr)
	case "stats":
		return wordsStats(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprintln(stdout, wordsUsage)
		return 0
	}
	fmt.Fprintf(stderr, "parlour words: unknown command %q\n\n%s\n", args[0], wordsUsage)
	return 2
}

// wordsFlags parses the flags of words sub, returning the lexicon chosen,
// or an exit status.
func wordsFlags(sub string, fl *flag.FlagSet, args []string, stderr io.Writer) (*lexicon.Lexicon, int) {
	lexName := lexiconFlag(fl)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprintln(stderr, wordsUsage) }
	if err := fl.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil, 0
		}
		return nil, 2
	}
	lex, err := loadLexicon(*lexName)
	if err != nil {
		fmt.Fprintf(stderr, "parlour words %s: %v\n", sub, err)
		return nil, 2
	}
	return lex, -1
}

func wordsCheck(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("words check", flag.ContinueOnError)
	lex, code := wordsFlags("check", fl, args, stderr)
	if lex == nil {
		return code
	}
	if fl.NArg() == 0 {
		fmt.Fprintln(stderr, "parlour words check: give one or more words to check")
		return 2
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	all := true
	for _, w := range fl.Args() {
		verdict, ok := checkWord(lex, w)
		all = all && ok
		fmt.Fprintf(tw, "%s\t%s\n", display(w), verdict)
	}
	tw.Flush()
	if !all {
		return 1
	}
	return 0
}

// checkWord says whether w is a genuine word of lex, and if not, why not.
func checkWord(lex *lexicon.Lexicon, w string) (string, bool) {
	lw := strings.ToLower(w)
	if size, ok := lex.Commonness(lw); ok {
		return fmt.Sprintf("genuine word, commonness %d (10 most common ... 95 rarest)", size), true
	}
	switch {
	case w == "":
		return "not a word: it is empty", false
	case len(w) > lexicon.MaxWordLen:
		return fmt.Sprintf("not a word: longer than the %d letters a word may have", lexicon.MaxWordLen), false
	}
	for _, r := range lw {
		if r < 'a' || r > 'z' {
			return fmt.Sprintf("not a word: it holds %s, and words are letters a-z only", quoteChar(r)), false
		}
	}
	return fmt.Sprintf("not a word in %s", lex.Name()), false
}

// quoteChar shows r in a verdict: "x" if printable, else its code point.
func quoteChar(r rune) string {
	if r != utf8.RuneError && unicode.IsPrint(r) {
		return `"` + string(r) + `"`
	}
	return fmt.Sprintf("%U", r)
}

// display shows a word as the games do, in capitals, and quotes anything
// that is not plain letters.
func display(w string) string {
	for _, r := range w {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return fmt.Sprintf("%q", w)
		}
	}
	if w == "" {
		return `""`
	}
	return strings.ToUpper(w)
}

func wordsMatch(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("words match", flag.ContinueOnError)
	exclude := fl.String("exclude", "", "letters no wildcard may take")
	distinct := fl.Bool("distinct", false, "only words whose letters are all different")
	lex, code := wordsFlags("match", fl, args, stderr)
	if lex == nil {
		return code
	}
	if fl.NArg() != 1 {
		fmt.Fprintln(stderr, "parlour words match: give one pattern: letters, with ? (or .) for any letter, e.g. c?a?e")
		return 2
	}
	words, err := lex.Match(fl.Arg(0), lexicon.MatchOptions{Exclude: *exclude, Distinct: *distinct})
	if err != nil {
		fmt.Fprintf(stderr, "parlour words match: %v\n", err)
		return 2
	}
	for _, w := range words {
		fmt.Fprintln(stdout, w)
	}
	if len(words) == 0 {
		fmt.Fprintf(stderr, "parlour words match: no word of %s fits %s\n", lex.Name(), fl.Arg(0))
		return 1
	}
	return 0
}

func wordsStats(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("words stats", flag.ContinueOnError)
	lex, code := wordsFlags("stats", fl, args, stderr)
	if lex == nil {
		return code
	}
	if fl.NArg() != 0 {
		fmt.Fprintf(stderr, "parlour words stats: unexpected argument %q\n", fl.Arg(0))
		return 2
	}
	fmt.Fprintf(stdout, "lexicon %s: %d words\n\n", lex.Name(), lex.Len())
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "letters\twords\t")
	for n := 1; n <= lexicon.MaxWordLen; n++ {
		if c := len(lex.OfLength(n)); c > 0 {
			fmt.Fprintf(tw, "%d\t%d\t\n", n, c)
		}
	}
	tw.Flush()
	fmt.Fprintln(stdout)
	sizes := lex.Sizes()
	keys := make([]int, 0, len(sizes))
	for s := range sizes {
		keys = append(keys, s)
	}
	slices.Sort(keys)
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "commonness\twords\t")
	for _, s := range keys {
		fmt.Fprintf(tw, "%d\t%d\t\n", s, sizes[s])
	}
	tw.Flush()
	fmt.Fprintln(stdout, "\n(commonness is SCOWL's list size: 10 most common ... 95 rarest; a word list's words are all 10)")
	return 0
}
