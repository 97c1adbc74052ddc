// Command parlour is Parlour's single binary: the server, the referees'
// command-line tools and the computer players' bench, as subcommands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// command is one subcommand: it gets its arguments (after its name) and
// returns the process exit status.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() map[string]command {
	return map[string]command{
		"rules":     {"print a game's rules", runRules},
		"nymphabet": {"solve Nymphabet by retrograde analysis", runNymphabet},
		"replay":    {"re-referee a game record", runReplay},
		"analyse":   {"analyse a finished game record with the engines", runAnalyse},
		"words":     {"look words up in a lexicon", runWords},
		"bench":     {"play the computer players against each other and measure them", runBench},
		"serve":     {"serve tables over HTTP and WebSocket (the default)", runServe},
		"play":      {"play the games in this terminal", runPlay},
		"loadtest":  {"drive a running server with scripted players and measure it", runLoadtest},
		"admin":     {"on the server's machine: moderators, the reports, backups of the data", runAdmin},
		"version":   {"print which build this is", runVersion},
	}
}

func main() {
	if env, ok := steadyMonitorEnv(os.Args[1:], os.Environ()); ok && restarts {
		err := restart(env)
		fmt.Fprintf(os.Stderr, "parlour serve: going on with Go's monitor as it is: %v\n", err)
	}
	ctx, stop := signalContext()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// signalContext returns a context cancelled by the first interrupt or
// SIGTERM, which asks for a graceful stop. The signals are then let go,
// so that a second one ends the process at once as Go's default does:
// an operator whose shutdown hangs (a store that does not answer) has a
// way out short of SIGKILL.
// The signals are let go before the context is cancelled, so that one
// sent once the stop has begun finds the default already back.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-c:
		case <-ctx.Done():
		}
		signal.Stop(c)
		cancel()
	}()
	return ctx, cancel
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 {
		if c, ok := cmds["serve"]; ok {
			return c.run(ctx, nil, stdin, stdout, stderr)
		}
		usage(stderr, cmds)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) == 1 {
			usage(stdout, cmds)
			return 0
		}
		return help(ctx, cmds, args[1:], stdout, stderr)
	case "-version", "--version":
		args = []string{"version"}
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "parlour: unknown command %q\n\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	return c.run(ctx, args[1:], stdin, stdout, stderr)
}

// help prints one command's help on stdout: what the command itself
// prints for -h (on either stream), so that its flags are described in
// one place.
func help(ctx context.Context, cmds map[string]command, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "parlour: help takes one command, not %q\n", strings.Join(args, " "))
		return 2
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "parlour: unknown command %q\n\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	c.run(ctx, []string{"-h"}, strings.NewReader(""), stdout, stdout)
	return 0
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: parlour COMMAND [ARGS]   (no command: parlour serve)")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'parlour help COMMAND' (or 'parlour COMMAND -h') for a command's flags.")
}
