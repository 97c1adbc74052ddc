package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func wordsRun(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"words"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestWords(t *testing.T) {
	house := filepath.Join(t.TempDir(), "house.txt")
	if err := os.WriteFile(house, []byte("# ours\nQuizl\nsalvo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args     []string
		code     int
		out, err []string // each must appear
	}{
		{[]string{"check", "psalm", "CRANE"}, 0, []string{"PSALM  genuine word, commonness 35", "CRANE  genuine word"}, nil},
		{[]string{"check", "psalm", "psalmz"}, 1, []string{"PSALMZ  not a word in en"}, nil},
		{[]string{"check", "don't", ""}, 1, []string{`"don't"  not a word: it holds "'"`, `""       not a word: it is empty`}, nil},
		{[]string{"check", strings.Repeat("a", 70)}, 1, []string{"longer than the 64 letters"}, nil},
		{[]string{"check", "--lexicon", "en-common", "promontory", "ziggurat"}, 1, []string{"PROMONTORY  genuine", "ZIGGURAT    not a word in en-common"}, nil},
		{[]string{"check", "--lexicon", "en-large", "ziggurat"}, 0, []string{"ZIGGURAT  genuine word"}, nil},
		{[]string{"check", "--lexicon", house, "quizl", "crane"}, 1, []string{"QUIZL  genuine word, commonness 10", "CRANE  not a word in " + house}, nil},
		{[]string{"check"}, 2, nil, []string{"give one or more words"}},
		{[]string{"check", "--lexicon", "/no/such/list", "crane"}, 2, nil, []string{"/no/such/list: no such file"}},
		{[]string{"match", "--exclude", "r", "--distinct", "C?A?E"}, 0, []string{"chafe\nchape\nchase\nclade\nclave\n"}, nil},
		{[]string{"match", "qqq?"}, 1, nil, []string{"no word of en fits qqq?"}},
		{[]string{"match", "c*"}, 2, nil, []string{`"*" at position 2`}},
		{[]string{"match", "--exclude", "3", "c?a?e"}, 2, nil, []string{`"3" is not a letter`}},
		{[]string{"match"}, 2, nil, []string{"give one pattern"}},
		{[]string{"stats"}, 0, []string{"lexicon en: 117585 words", "      5   6675", "        10   4"}, nil},
		{[]string{"stats", "--lexicon", house}, 0, []string{": 2 words", "5      2", "10      2"}, nil},
		{[]string{"stats", "extra"}, 2, nil, []string{`unexpected argument "extra"`}},
		{[]string{"stats", "--bogus"}, 2, nil, []string{"flag provided but not defined"}},
		{[]string{"frobnicate"}, 2, nil, []string{`unknown command "frobnicate"`}},
		{nil, 2, nil, []string{"parlour words check"}},
		{[]string{"help"}, 0, []string{"parlour words match"}, nil},
	} {
		code, out, errs := wordsRun(c.args...)
		if code != c.code {
			t.Errorf("words %q: exit %d, want %d\nstdout: %s\nstderr: %s", c.args, code, c.code, out, errs)
			continue
		}
		for _, want := range c.out {
			if !strings.Contains(out, want) {
				t.Errorf("words %q: stdout lacks %q:\n%s", c.args, want, out)
			}
		}
		for _, want := range c.err {
			if !strings.Contains(errs, want) {
				t.Errorf("words %q: stderr lacks %q:\n%s", c.args, want, errs)
			}
		}
	}
}
