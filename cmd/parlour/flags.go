package main

import (
	"errors"
	"flag"
)

// parseFlags parses args as fl's flags wherever they stand among the
// other arguments, as most command lines allow ("parlour replay game.json
// --json"), where fl.Parse stops at the first argument that is not a
// flag. The others stay in order in fl.Args(); "--" ends the flags, so an
// argument after it is taken as it is even if it begins with "-".
func parseFlags(fl *flag.FlagSet, args []string) error {
	var rest []string
	for {
		if err := fl.Parse(args); err != nil {
			return err
		}
		left := fl.Args()
		if len(left) == 0 {
			break
		}
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			rest = append(rest, left...)
			break
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
	// Parsing "--" alone sets nothing and leaves rest as the arguments.
	return fl.Parse(append([]string{"--"}, rest...))
}

// flagsFailed is the exit status of a command whose flags did not parse:
// 0 when err is only the -h or --help asked for (flag has printed the
// usage), as flag.ExitOnError would exit, and 2, a usage error, otherwise.
func flagsFailed(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}
