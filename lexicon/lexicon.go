// Package lexicon holds Parlour's word lists: the embedded English lexicons
// built from SCOWL, house word lists loaded from files, and the queries that
// referees and computer players ask of them.
//
// A Lexicon keeps its words grouped by length. Each group is one byte array
// of fixed-width records, a word's letters packed five bits apiece, sorted
// alphabetically, with a parallel array holding each word's commonness and
// Nymphabet run, and a compact hash table of record numbers. Membership is
// one hash probe, which allocates nothing; pattern and run queries read only
// the groups and letter ranges that can hold an answer.
package lexicon

import (
	"iter"
	"slices"
	"strings"
)

//go:generate go run ./internal/gen -out data

// MaxWordLen is the longest word a lexicon holds or a query accepts.
const MaxWordLen = 64

// sizes are SCOWL's list sizes, most common first. A word's commonness is
// stored as its index here.
var sizes = [...]int{10, 20, 35, 40, 50, 55, 60, 70, 80, 95}

// Lexicon is a read-only set of genuine words, each with a commonness. It is
// safe for concurrent use.
type Lexicon struct {
	name    string
	count   int
	groups  [MaxWordLen + 1]group
	derived derivedSet // see Derived
}

// group holds the words of one length n.
type group struct {
	n     int    // letters per word
	width int    // bytes per packed word: ceil(5n/8)
	count int    // words in the group
	mask  uint64 // clears the bytes past a record in an eight-byte load
	recs  []byte // count packed words, sorted, then 8 zero bytes of padding
	info  []byte // per word: size code<<4 | distinct<<3 | min(Run(word, false), runCap)
	// first[c] is the index of the group's first word starting with letter
	// 'a'+c; first[26] is count.
	first [27]int32
	// table is a hash table of the records (see hash.go).
	table []byte
}

// Bits of a word's info byte below its size code.
const (
	runCap       = 7 // the largest run stored; longer runs are recomputed
	infoDistinct = 8 // set when the word's letters are all different
)

// FromWords builds a lexicon named name from words, meant for tests. Words
// may be in any letter case; those that are empty, longer than MaxWordLen or
// hold anything but letters a-z are left out. Every word gets commonness 10.
func FromWords(name string, words []string) *Lexicon {
	w := make([]string, 0, len(words))
	for _, x := range words {
		x = strings.ToLower(x)
		if validWord(x) {
			w = append(w, x)
		}
	}
	return build(name, w)
}

// build makes a lexicon of house words: lower-case, valid, in any order,
// duplicates allowed.
func build(name string, words []string) *Lexicon {
	slices.SortFunc(words, compareWords)
	words = slices.Compact(words)
	var count [MaxWordLen + 1]int
	for _, w := range words {
		count[len(w)]++
	}
	b := newBuilder(name, &count)
	var tmp []byte
	for _, w := range words {
		tmp = append(tmp[:0], w...)
		b.add(tmp, 0) // size code 0 is size 10; cannot fail: the words are valid, sorted and counted
	}
	return b.finish()
}

// compareWords orders words by length, then alphabetically: the order of a
// lexicon's records.
func compareWords(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

func validWord(w string) bool {
	if w == "" || len(w) > MaxWordLen {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// Name reports the lexicon's name, as a record stores it ("en", or the
// path of a house list).
func (l *Lexicon) Name() string { return l.name }

// Len reports how many words l holds.
func (l *Lexicon) Len() int { return l.count }

// Has reports whether word, in lower case a-z, is a genuine word of l. It
// does not allocate.
func (l *Lexicon) Has(word string) bool {
	_, ok := l.find(word, false)
	return ok
}

// HasFold is Has for a word in any letter case.
func (l *Lexicon) HasFold(word string) bool {
	_, ok := l.find(word, true)
	return ok
}

// Commonness returns word's SCOWL size (10 most common ... 95 rarest) and
// whether l holds it. Words of a house list all have commonness 10.
func (l *Lexicon) Commonness(word string) (int, bool) {
	i, ok := l.find(word, false)
	if !ok {
		return 0, false
	}
	return sizes[l.groups[len(word)].info[i]>>4], true
}

// find returns the index of word in its length's group.
func (l *Lexicon) find(word string, fold bool) (int, bool) {
	n := len(word)
	if n == 0 || n > MaxWordLen {
		return 0, false
	}
	g := &l.groups[n]
	if g.count == 0 {
		return 0, false
	}
	if g.width > 8 {
		key, ok := pack(word, fold)
		if !ok {
			return 0, false
		}
		return g.lookupKey(&key)
	}
	// Words of up to 12 letters pack into one number: the fast path.
	var k uint64
	for i := 0; i < n; i++ {
		c := word[i]
		if fold && 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		c -= 'a'
		if c > 25 {
			return 0, false
		}
		k = k<<5 | uint64(c)
	}
	return g.lookupHead(k << (64 - 5*n))
}

// OfLength returns the words of n letters in alphabetical order. Each call
// builds a new slice (the lexicon keeps its words packed), so callers that
// ask often should keep the result.
func (l *Lexicon) OfLength(n int) []string {
	if n < 1 || n > MaxWordLen {
		return nil
	}
	g := &l.groups[n]
	idx := make([]int32, g.count)
	for i := range idx {
		idx[i] = int32(i)
	}
	return g.wordsAt(nil, idx)
}

// ByCommonness yields every word, most common first (SCOWL size ascending,
// then alphabetical), with its commonness. It unpacks and sorts the words of
// one size at a time, so it is meant for building lists, not for every move.
func (l *Lexicon) ByCommonness() iter.Seq2[string, int] {
	return func(yield func(string, int) bool) {
		for code := range sizes {
			var w []string
			for n := 1; n <= MaxWordLen; n++ {
				g := &l.groups[n]
				var idx []int32
				for i, b := range g.info {
					if int(b>>4) == code {
						idx = append(idx, int32(i))
					}
				}
				w = g.wordsAt(w, idx)
			}
			slices.Sort(w)
			for _, x := range w {
				if !yield(x, sizes[code]) {
					return
				}
			}
		}
	}
}

// Sizes returns how many words l holds of each commonness (SCOWL size).
func (l *Lexicon) Sizes() map[int]int {
	out := map[int]int{}
	for n := 1; n <= MaxWordLen; n++ {
		for _, b := range l.groups[n].info {
			out[sizes[b>>4]]++
		}
	}
	return out
}
