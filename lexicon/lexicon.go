// Package lexicon holds Parlour's word lists: the embedded English lexicons
// built from SCOWL, house word lists loaded from files, and the queries that
// referees and computer players ask of them.
package lexicon

import (
	"iter"
	"sort"
	"strings"
)

// TEMPORARY IMPLEMENTATION. The exported API below is the contract the games
// and bots program against; its naive, scanning implementation is replaced by
// the compact embedded one (issue 2). Keep every signature.

// Lexicon is a read-only set of genuine words, each with a commonness. It is
// safe for concurrent use.
type Lexicon struct {
	name   string
	words  []string // sorted
	common map[string]int
}

// MaxWordLen is the longest word a lexicon holds or a query accepts.
const MaxWordLen = 64

// FromWords builds a lexicon named name from words, which must be lower-case
// a-z; every word gets commonness 10. It is meant for tests.
func FromWords(name string, words []string) *Lexicon {
	w := append([]string(nil), words...)
	sort.Strings(w)
	w = compact(w)
	c := make(map[string]int, len(w))
	for _, x := range w {
		c[x] = 10
	}
	return &Lexicon{name: name, words: w, common: c}
}

func compact(w []string) []string {
	out := w[:0]
	for i, x := range w {
		if i == 0 || x != w[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// Name reports the lexicon's name, as a record stores it ("en", or the
// path of a house list).
func (l *Lexicon) Name() string { return l.name }

// Len reports how many words l holds.
func (l *Lexicon) Len() int { return len(l.words) }

// Has reports whether word, in lower case a-z, is a genuine word of l.
func (l *Lexicon) Has(word string) bool {
	i := sort.SearchStrings(l.words, word)
	return i < len(l.words) && l.words[i] == word
}

// HasFold is Has for a word in any letter case.
func (l *Lexicon) HasFold(word string) bool { return l.Has(strings.ToLower(word)) }

// Commonness returns word's SCOWL size (10 most common ... 95 rarest) and
// whether l holds it.
func (l *Lexicon) Commonness(word string) (int, bool) {
	c, ok := l.common[word]
	return c, ok
}

// OfLength returns the words of n letters in alphabetical order. The slice
// is shared: callers must not modify it.
func (l *Lexicon) OfLength(n int) []string {
	var out []string
	for _, w := range l.words {
		if len(w) == n {
			out = append(out, w)
		}
	}
	return out
}

// MatchOptions refine Match.
type MatchOptions struct {
	// Exclude lists letters no wildcard may take.
	Exclude string
	// Distinct asks for words whose letters are all different.
	Distinct bool
}

// Match returns, in alphabetical order, the words that fit pattern: one
// character per letter, a-z for a known letter and '?' (or '.') for any.
func (l *Lexicon) Match(pattern string, opt MatchOptions) ([]string, error) {
	pattern = strings.ToLower(pattern)
	var out []string
	for _, w := range l.OfLength(len(pattern)) {
		if matches(w, pattern, opt) {
			out = append(out, w)
		}
	}
	return out, nil
}

func matches(w, p string, opt MatchOptions) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '?' || c == '.' {
			if strings.IndexByte(opt.Exclude, w[i]) >= 0 {
				return false
			}
			continue
		}
		if w[i] != c {
			return false
		}
	}
	if opt.Distinct {
		var seen [26]bool
		for i := 0; i < len(w); i++ {
			if seen[w[i]-'a'] {
				return false
			}
			seen[w[i]-'a'] = true
		}
	}
	return true
}

// Run reports how many letters word deletes in Nymphabet: the length of the
// longest run of consecutive alphabet letters, starting at word's first
// letter, that word holds in order. With wrap, Z is followed by A. A word
// that does not start with a lower-case letter deletes 0.
func Run(word string, wrap bool) int {
	if word == "" || word[0] < 'a' || word[0] > 'z' {
		return 0
	}
	next, n := word[0], 0
	for i := 0; i < len(word) && n < 26; i++ {
		if word[i] == next {
			n++
			next++
			if next > 'z' {
				if !wrap {
					break
				}
				next = 'a'
			}
		}
	}
	return n
}

// Runs returns the words that start with letter and delete exactly n
// letters in Nymphabet (see Run).
func (l *Lexicon) Runs(letter byte, n int, wrap bool) []string {
	var out []string
	for _, w := range l.words {
		if w[0] == letter && Run(w, wrap) == n {
			out = append(out, w)
		}
	}
	return out
}

// ByCommonness yields every word, most common first (SCOWL size ascending,
// then alphabetical), with its commonness.
func (l *Lexicon) ByCommonness() iter.Seq2[string, int] {
	return func(yield func(string, int) bool) {
		w := append([]string(nil), l.words...)
		sort.SliceStable(w, func(i, j int) bool { return l.common[w[i]] < l.common[w[j]] })
		for _, x := range w {
			if !yield(x, l.common[x]) {
				return
			}
		}
	}
}
