package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"parlour/internal/buildinfo"
)

// runVersion prints which build this binary is: the line an operator
// checks after a deploy and a bug report quotes.
func runVersion(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: parlour version\n\nPrints the build: version, commit and its time, Go version and platform.")
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "parlour version: takes no arguments, not %q\n", fs.Arg(0))
		return 2
	}
	fmt.Fprintln(stdout, buildinfo.Read())
	return 0
}
