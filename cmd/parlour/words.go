package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"parlour/game"
	"parlour/lexicon"
)

const wordsUsage = `usage:
  parlour words check [--lexicon L] [--json] WORD...
                                 is each a genuine word? (exit 0 if all are, 1 if not)
  parlour words match [--lexicon L] [--json] [--exclude LETTERS] [--distinct] PATTERN | --len N[-M]
                                 the words that fit PATTERN, e.g. c?a?e, or every word of
                                 N to M letters (exit 1 if none)
  parlour words stats [--lexicon L]
                                 how many words, by length and by commonness

L is en (the default), en-common, en-large, or a word-list file (one word a line).
With --json, check and match print one JSON object a line for each word:
{"word": "crane", "genuine": true, "commonness": 35} (commonness is null, and
"problem" says why, for a word that is not genuine).`

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
	if err := parseFlags(fl, args); err != nil {
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
	asJSON := fl.Bool("json", false, "print one JSON object a line for each word")
	lex, code := wordsFlags("check", fl, args, stderr)
	if lex == nil {
		return code
	}
	if fl.NArg() == 0 {
		fmt.Fprintln(stderr, "parlour words check: give one or more words to check")
		return 2
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	enc := newWordEncoder(stdout)
	all := true
	for _, w := range fl.Args() {
		verdict, ok := checkWord(lex, w)
		all = all && ok
		if *asJSON {
			wj := wordJSON{Word: w, Genuine: ok}
			if ok {
				c, _ := lex.Commonness(strings.ToLower(w))
				wj.Commonness = &c
			} else {
				wj.Problem = verdict
			}
			enc.Encode(wj)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\n", display(w), verdict)
	}
	tw.Flush()
	if !all {
		return 1
	}
	return 0
}

// wordJSON is one word as check and match print it with --json.
type wordJSON struct {
	Word    string `json:"word"`
	Genuine bool   `json:"genuine"`
	// Commonness is the word's SCOWL size; null for a word that is not
	// genuine.
	Commonness *int `json:"commonness"`
	// Problem says why a word is not genuine.
	Problem string `json:"problem,omitempty"`
}

func newWordEncoder(w io.Writer) *json.Encoder {
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	return e
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
	asJSON := fl.Bool("json", false, "print one JSON object a line for each word")
	length := fl.String("len", "", "instead of a pattern, every word of N letters, or of N to M letters (N-M)")
	lex, code := wordsFlags("match", fl, args, stderr)
	if lex == nil {
		return code
	}
	var patterns []string
	switch {
	case *length != "" && fl.NArg() > 0:
		fmt.Fprintln(stderr, "parlour words match: give either a PATTERN or --len, not both")
		return 2
	case *length != "":
		lo, hi, err := parseLenRange(*length)
		if err != nil {
			fmt.Fprintf(stderr, "parlour words match: --len %s: %v\n", *length, err)
			return 2
		}
		for n := lo; n <= hi; n++ {
			patterns = append(patterns, strings.Repeat("?", n))
		}
	case fl.NArg() != 1:
		fmt.Fprintln(stderr, "parlour words match: give one pattern: letters, with ? (or .) for any letter, e.g. c?a?e; or --len 4-6 for every word of 4 to 6 letters")
		return 2
	default:
		patterns = []string{fl.Arg(0)}
	}
	var words []string
	for _, p := range patterns {
		ws, err := lex.Match(p, lexicon.MatchOptions{Exclude: *exclude, Distinct: *distinct})
		if err != nil {
			fmt.Fprintf(stderr, "parlour words match: %v\n", err)
			return 2
		}
		words = append(words, ws...)
	}
	enc := newWordEncoder(stdout)
	for _, w := range words {
		if *asJSON {
			c, _ := lex.Commonness(w)
			enc.Encode(wordJSON{Word: w, Genuine: true, Commonness: &c})
			continue
		}
		fmt.Fprintln(stdout, w)
	}
	if len(words) == 0 {
		what := strings.Join(fl.Args(), " ")
		if *length != "" {
			what = "--len " + *length
		}
		fmt.Fprintf(stderr, "parlour words match: no word of %s fits %s\n", lex.Name(), what)
		return 1
	}
	return 0
}

// parseLenRange reads --len: N, or N-M with N <= M, each from 1 to
// lexicon.MaxWordLen.
func parseLenRange(s string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(s, "-")
	if lo, err = parseLen(a); err != nil {
		return 0, 0, err
	}
	hi = lo
	if isRange {
		if hi, err = parseLen(b); err != nil {
			return 0, 0, err
		}
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("the range runs backwards: write %d-%d", hi, lo)
	}
	return lo, hi, nil
}

func parseLen(s string) (int, error) {
	if s == "" {
		return 0, errors.New("want a length, N, or a range of lengths, N-M (e.g. 4-6)")
	}
	n, err := strconv.Atoi(s)
	if err != nil || s[0] == '+' {
		return 0, fmt.Errorf("%q is not a number of letters: want N or N-M (e.g. 4-6)", s)
	}
	if n < 1 || n > lexicon.MaxWordLen {
		return 0, fmt.Errorf("a word has 1 to %d letters, not %d", lexicon.MaxWordLen, n)
	}
	return n, nil
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
	fmt.Fprintf(stdout, "lexicon %s: %s\n\n", lex.Name(), game.Count(lex.Len(), "word", "words"))
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
