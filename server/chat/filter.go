package chat

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"parlour/account"
	"parlour/server/refuse"
)

// shippedWords is the list of words chat refuses unless the operator
// gives another (chatfilter.txt says what it holds and why).
//
//go:embed chatfilter.txt
var shippedWords string

// Filter finds the words a server does not allow in chat. A message
// holding one is refused as a whole, with a reason that does not repeat
// the word; masking the word instead would still show the rest of what
// was meant, and would teach the writer which spellings get through.
type Filter struct {
	words map[string]bool
}

// ShippedFilter returns the filter of the list Parlour ships.
func ShippedFilter() *Filter {
	f, err := ParseFilter(strings.NewReader(shippedWords))
	if err != nil {
		panic("chat: the shipped filter: " + err.Error()) // a build's own file
	}
	return f
}

// ParseFilter reads a list of words, one a line; blank lines and lines
// starting with # are skipped. A word is letters alone, in any case.
func ParseFilter(r io.Reader) (*Filter, error) {
	f := &Filter{words: map[string]bool{}}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		w := plain(line) // as the messages are read
		if w == "" || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			return nil, fmt.Errorf("line %d: %q is not one word of letters", n, line)
		}
		f.words[w] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the chat filter: %w", err)
	}
	return f, nil
}

// Len returns how many words f refuses.
func (f *Filter) Len() int { return len(f.words) }

// standIn maps the characters written for letters to those letters.
func standIn(r rune) rune {
	switch r {
	case '0':
		return 'o'
	case '1', '!', '|':
		return 'i'
	case '3':
		return 'e'
	case '4', '@':
		return 'a'
	case '5', '$':
		return 's'
	case '7', '+':
		return 't'
	}
	return unicode.ToLower(r)
}

// fold returns s in lower case with stand-ins read as letters.
func fold(s string) string { return strings.Map(standIn, s) }

// Match reports whether text holds one of f's words as a whole word, in
// any case, written with stand-ins, or with a plural s.
func (f *Filter) Match(text string) bool {
	if f == nil || len(f.words) == 0 {
		return false
	}
	lower := plain(text)
	// A word is read with its stand-ins as letters ("n1gger"), and also
	// without the stand-ins at its ends that are punctuation too
	// ("kike!").
	for w := range strings.FieldsFuncSeq(lower, func(r rune) bool { return !unicode.IsLetter(r) && standIn(r) == r }) {
		if f.holds(fold(w)) || f.holds(fold(strings.Trim(w, "!|+@$"))) {
			return true
		}
	}
	return false
}

// plain returns text as the filter reads it: decomposed (NFKD, so that
// full-width letters and ligatures become plain ones), in lower case,
// without accents and without the zero width joiners and variation
// selectors a message may hold (Clean keeps them for emoji), and with the
// letters of other scripts that look like Latin ones made Latin. A word
// of the list written so shows as that word, and is read as it.
func plain(text string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(text) {
		if r == '\u200d' || unicode.In(r, unicode.Mn, unicode.Me, unicode.Variation_Selector) {
			continue
		}
		b.WriteRune(account.Latin(unicode.ToLower(r)))
	}
	return b.String()
}

// holds reports whether word, folded, is one of f's words or its plural.
func (f *Filter) holds(word string) bool {
	if f.words[word] {
		return true
	}
	if s, ok := strings.CutSuffix(word, "s"); ok && f.words[s] {
		return true
	}
	s, ok := strings.CutSuffix(word, "es")
	return ok && f.words[s]
}

// Check refuses text when it holds one of f's words.
func (f *Filter) Check(text string) error {
	if f.Match(text) {
		return refuse.Bad("your message was not sent: it holds a word this server does not allow in chat")
	}
	return nil
}
