package main

import (
	"context"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

// TestParseFlags: flags are read wherever they stand among the other
// arguments, which keep their order; "--" ends the flags; a bad flag is
// refused wherever it stands.
func TestParseFlags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		json bool
		lex  string
		rest []string
		bad  bool
	}{
		{args: nil, rest: nil},
		{args: []string{"game.json"}, rest: []string{"game.json"}},
		{args: []string{"--json", "game.json"}, json: true, rest: []string{"game.json"}},
		{args: []string{"game.json", "--json"}, json: true, rest: []string{"game.json"}},
		{args: []string{"a", "--lexicon", "en-large", "b", "--json", "c"}, json: true, lex: "en-large", rest: []string{"a", "b", "c"}},
		{args: []string{"-", "--json"}, json: true, rest: []string{"-"}},
		{args: []string{"a", "--", "--json", "b"}, rest: []string{"a", "--json", "b"}},
		{args: []string{"--", "-x"}, rest: []string{"-x"}},
		{args: []string{"a", "--nope"}, bad: true},
		{args: []string{"a", "--lexicon"}, bad: true},
	} {
		fl := flag.NewFlagSet("test", flag.ContinueOnError)
		fl.SetOutput(io.Discard)
		asJSON := fl.Bool("json", false, "")
		lex := fl.String("lexicon", "", "")
		err := parseFlags(fl, c.args)
		if (err != nil) != c.bad {
			t.Errorf("%q: error %v, want one: %v", c.args, err, c.bad)
			continue
		}
		if c.bad {
			continue
		}
		if *asJSON != c.json || *lex != c.lex || !slices.Equal(fl.Args(), c.rest) {
			t.Errorf("%q: json %v, lexicon %q, arguments %q; want %v, %q, %q", c.args, *asJSON, *lex, fl.Args(), c.json, c.lex, c.rest)
		}
	}
}

// TestPlayUsage: play's usage line names every flag it takes.
func TestPlayUsage(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	if code := runPlay(context.Background(), []string{"-h"}, strings.NewReader(""), io.Discard, &out); code != 0 {
		t.Fatalf("play -h: exit %d\n%s", code, out.String())
	}
	usage, _, _ := strings.Cut(out.String(), "\n")
	for _, f := range []string{"--server URL", "--name NAME", "--data DIR", "--join LINK"} {
		if !strings.Contains(usage, f) {
			t.Errorf("the usage line %q leaves out %s", usage, f)
		}
	}
}
