package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestHelpCommand: "parlour help COMMAND" prints that command's own help
// (what "parlour COMMAND -h" prints), not the list of commands, for every
// command; the list is for "help" alone, and an unknown command is an
// error.
func TestHelpCommand(t *testing.T) {
	t.Parallel()
	for name := range commands() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var out, errOut bytes.Buffer
			if code := run(context.Background(), []string{"help", name}, strings.NewReader(""), &out, &errOut); code != 0 {
				t.Fatalf("exit %d; stderr:\n%s", code, errOut.String())
			}
			got := out.String()
			if !strings.Contains(got, "usage:") || !strings.Contains(got, "parlour "+name) {
				t.Fatalf("no usage of parlour %s on stdout:\n%s", name, got)
			}
			if strings.Contains(got, "commands:") {
				t.Fatalf("the list of commands, not %s's help:\n%s", name, got)
			}
			var hOut, hErr bytes.Buffer
			run(context.Background(), []string{name, "-h"}, strings.NewReader(""), &hOut, &hErr)
			if want := hOut.String() + hErr.String(); got != want {
				t.Fatalf("help %s prints\n%s\nbut %s -h prints\n%s", name, got, name, want)
			}
		})
	}
	for _, tc := range []struct {
		args []string
		code int
		out  string // on stdout
		err  string // on stderr
	}{
		{[]string{"help"}, 0, "commands:", ""},
		{[]string{"-h"}, 0, "commands:", ""},
		// The operator finds the backup in the list of commands.
		{[]string{"help"}, 0, "backups of the data", ""},
		{[]string{"help", "dance"}, 2, "", `unknown command "dance"`},
		{[]string{"help", "play", "more"}, 2, "", "help takes one command"},
	} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), tc.args, strings.NewReader(""), &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), tc.out) || !strings.Contains(errOut.String(), tc.err) {
			t.Errorf("%q: exit %d, stdout\n%s\nstderr\n%s", tc.args, code, out.String(), errOut.String())
		}
	}
}

// TestHelpFlagExitsZero: asking a command for its help with -h or --help
// succeeds, as flag's own ExitOnError treats it and as the help command
// does: a script that runs "parlour replay -h" to read the flags is not
// told that something failed.
func TestHelpFlagExitsZero(t *testing.T) {
	t.Parallel()
	for name := range commands() {
		for _, flag := range []string{"-h", "--help"} {
			t.Run(name+flag, func(t *testing.T) {
				t.Parallel()
				var out, errOut bytes.Buffer
				if code := run(context.Background(), []string{name, flag}, strings.NewReader(""), &out, &errOut); code != 0 {
					t.Fatalf("exit %d; stderr:\n%s", code, errOut.String())
				}
				if !strings.Contains(out.String()+errOut.String(), "usage:") {
					t.Fatalf("no usage printed:\n%s%s", out.String(), errOut.String())
				}
			})
		}
	}
	// A flag that does not exist is still a usage error.
	for _, name := range []string{"replay", "analyse", "rules", "bench"} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{name, "--no-such-flag"}, strings.NewReader(""), &out, &errOut); code != 2 {
			t.Errorf("%s --no-such-flag: exit %d, want 2", name, code)
		}
	}
}
