package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"parlour/docs"
)

func runRules(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("rules", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: parlour rules GAME   (quizl, salvo, wordfight, nymphabet)")
	}
	if err := parseFlags(fl, args); err != nil {
		return flagsFailed(err)
	}
	if fl.NArg() != 1 {
		fl.Usage()
		return 2
	}
	name := strings.ToLower(fl.Arg(0))
	if strings.ContainsAny(name, "/\\.") {
		fmt.Fprintf(stderr, "parlour rules: no game called %q\n", fl.Arg(0))
		return 2
	}
	b, err := fs.ReadFile(docs.Rules, "rules/"+name+".md")
	if err != nil || name == "index" {
		fmt.Fprintf(stderr, "parlour rules: no game called %q (try quizl, salvo, wordfight or nymphabet)\n", fl.Arg(0))
		return 2
	}
	stdout.Write(b)
	return 0
}
