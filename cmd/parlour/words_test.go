package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parlour/lexicon"
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
		{[]string{"match", "C?A?E", "--exclude", "r", "--distinct"}, 0, []string{"chafe\nchape\nchase\nclade\nclave\n"}, nil},
		{[]string{"match", "qqq?"}, 1, nil, []string{"no word of en fits qqq?"}},
		{[]string{"match", "c*"}, 2, nil, []string{`"*" at position 2`}},
		{[]string{"match", "--exclude", "3", "c?a?e"}, 2, nil, []string{`"3" is not a letter`}},
		{[]string{"match"}, 2, nil, []string{"give one pattern"}},
		{[]string{"check", "--json", "crane", "psalmz"}, 1, []string{`{"word":"crane","genuine":true,"commonness":35}` + "\n" + `{"word":"psalmz","genuine":false,"commonness":null,"problem":"not a word in en"}` + "\n"}, nil},
		{[]string{"match", "--json", "--exclude", "r", "--distinct", "C?A?E"}, 0, []string{`{"word":"chafe","genuine":true,"commonness":`, `{"word":"clave","genuine":true,"commonness":`}, nil},
		{[]string{"match", "--len", "2-3", "--exclude", "bcdfghjklmnpqrstvwxyz"}, 0, []string{"ai\noi\noo\neau\noui\n"}, nil},
		{[]string{"match", "--json", "--len", "2", "--exclude", "bcdfghjklmnpqrstvwxyz"}, 0, []string{`{"word":"ai","genuine":true,"commonness":70}` + "\n"}, nil},
		{[]string{"match", "--len", "4-5", "--exclude", "bcdfghjklmnpqrstvwxyz"}, 1, nil, []string{"no word of en fits --len 4-5"}},
		{[]string{"match", "--len", "6-4"}, 2, nil, []string{"--len 6-4: the range runs backwards: write 4-6"}},
		{[]string{"match", "--len", "4-"}, 2, nil, []string{"--len 4-: want a length"}},
		{[]string{"match", "--len", "0-3"}, 2, nil, []string{"a word has 1 to 64 letters, not 0"}},
		{[]string{"match", "--len", "4-70"}, 2, nil, []string{"not 70"}},
		{[]string{"match", "--len", "a-b"}, 2, nil, []string{`"a" is not a number of letters`}},
		{[]string{"match", "--len", "4-5-6"}, 2, nil, []string{`"5-6" is not a number of letters`}},
		{[]string{"match", "--len", "4", "c?a?e"}, 2, nil, []string{"either a PATTERN or --len, not both"}},
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

// TestWordsMatchLenJSON checks that --len 4-6 lists every word of 4, 5
// and 6 letters, and that each --json line is one object with the word,
// whether it is genuine and its commonness as the lexicon gives it.
func TestWordsMatchLenJSON(t *testing.T) {
	code, out, errs := wordsRun("match", "--json", "--len", "4-6")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lex := lexicon.Default()
	want := len(lex.OfLength(4)) + len(lex.OfLength(5)) + len(lex.OfLength(6))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != want {
		t.Fatalf("%d lines, want %d words of 4 to 6 letters", len(lines), want)
	}
	for _, l := range lines {
		var w map[string]any
		if err := json.Unmarshal([]byte(l), &w); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		word, _ := w["word"].(string)
		c, ok := lex.Commonness(word)
		if len(w) != 3 || w["genuine"] != true || !ok || w["commonness"] != float64(c) || len(word) < 4 || len(word) > 6 {
			t.Fatalf("line %q: want the word, genuine true and commonness %d", l, c)
		}
	}
}

// FuzzParseLenRange: --len either is refused with a message or gives a
// range of word lengths from 1 to lexicon.MaxWordLen, low end first.
func FuzzParseLenRange(f *testing.F) {
	for _, s := range []string{"4-6", "5", "6-4", "0-3", "4-", "-5", "a-b", "4-70", "4-5-6", "+4", " 4", "64-64", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lo, hi, err := parseLenRange(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if lo < 1 || lo > hi || hi > lexicon.MaxWordLen {
			t.Fatalf("%q gave the range %d-%d", s, lo, hi)
		}
	})
}
