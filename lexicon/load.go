package lexicon

import (
	"bytes"
	"compress/flate"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"sync"
)

// wordsData is every word of en-large with its SCOWL size, as
// internal/gen writes it: after a magic line, for each word in order (by
// length, then alphabetically) its size code, how many leading letters it
// shares with the word before, then the rest of its letters; all
// DEFLATE-compressed.
//
//go:embed data/words.lex
var wordsData []byte

const dataMagic = "parlour-lexicon 1\n"

// DefaultName is the name of the default lexicon.
const DefaultName = "en"

// named are the embedded lexicons and the largest SCOWL size each holds.
var named = []struct {
	name    string
	maxSize int
	about   string
}{
	{"en-common", 35, "common English words (SCOWL sizes up to 35, about 41,000 words)"},
	{"en", 70, "the default: English words a good dictionary holds (SCOWL up to 70, about 118,000 words)"},
	{"en-large", 95, "every English word SCOWL knows, many of them rare (SCOWL up to 95, about 439,000 words)"},
}

// Names returns the names of the embedded lexicons, smallest first, and for
// each a line saying what it holds.
func Names() (names, about []string) {
	for _, n := range named {
		names = append(names, n.name)
		about = append(about, n.about)
	}
	return names, about
}

// The embedded lexicons are built at most once each, on first use, and then
// shared: a Lexicon is read-only.
var (
	enCommon = sync.OnceValues(func() (*Lexicon, error) { return decode("en-common", 35) })
	en       = sync.OnceValues(func() (*Lexicon, error) { return decode("en", 70) })
	enLarge  = sync.OnceValues(func() (*Lexicon, error) { return decode("en-large", 95) })
)

// Default returns the default English lexicon, en. It is built from the
// embedded data on the first call (in a few tens of milliseconds) and
// memoised in a package-level sync.OnceValues, so every caller shares one
// value.
func Default() *Lexicon {
	l, err := en()
	if err != nil {
		// The embedded data is part of the program; the tests decode it.
		panic(err)
	}
	return l
}

// Load returns the lexicon called name: one of the embedded lexicons (en,
// en-common, en-large; see Names), shared by every caller, or else the
// house word list in the file at path name (see LoadFile). To load a file
// named like an embedded lexicon, give its path as ./en.
func Load(name string) (*Lexicon, error) {
	switch name {
	case "en":
		return en()
	case "en-common":
		return enCommon()
	case "en-large":
		return enLarge()
	}
	return LoadFile(name)
}

// decode builds the embedded lexicon of the words of SCOWL size up to
// maxSize.
func decode(name string, maxSize int) (*Lexicon, error) {
	l, err := decodeData(name, maxSize, wordsData)
	if err != nil {
		return nil, fmt.Errorf("lexicon: embedded data for %s: %w", name, err)
	}
	return l, nil
}

// decodeData decompresses data, counts the words of each length it will
// keep, then packs them into arrays of exactly that size.
func decodeData(name string, maxSize int, data []byte) (*Lexicon, error) {
	z := flate.NewReader(bytes.NewReader(data))
	raw, err := io.ReadAll(z)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(raw, []byte(dataMagic)) {
		return nil, errors.New("bad magic")
	}
	raw = raw[len(dataMagic):]
	maxCode := byte(0)
	for c, s := range sizes {
		if s <= maxSize {
			maxCode = byte(c)
		}
	}
	var count [MaxWordLen + 1]int
	if err := scan(raw, func(word []byte, code byte) error {
		if code <= maxCode {
			count[len(word)]++
		}
		return nil
	}); err != nil {
		return nil, err
	}
	b := newBuilder(name, &count)
	if err := scan(raw, func(word []byte, code byte) error {
		if code <= maxCode {
			return b.add(word, code)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return b.finish(), nil
}

// scan calls f for each front-coded word of raw. The word's bytes are reused
// from call to call.
func scan(raw []byte, f func(word []byte, code byte) error) error {
	var word [MaxWordLen]byte
	n := 0
	for i := 0; i < len(raw); {
		code, shared := raw[i], 0
		if i+1 < len(raw) {
			shared = int(raw[i+1])
		}
		if code >= byte(len(sizes)) || i+1 >= len(raw) || shared > n {
			return fmt.Errorf("corrupt record at byte %d", i)
		}
		i += 2
		n = shared
		for i < len(raw) && raw[i] >= 'a' {
			if raw[i] > 'z' || n == MaxWordLen {
				return fmt.Errorf("corrupt word at byte %d", i)
			}
			word[n] = raw[i]
			n++
			i++
		}
		if n == 0 {
			return fmt.Errorf("empty word at byte %d", i)
		}
		if err := f(word[:n], code); err != nil {
			return fmt.Errorf("word %q: %w", word[:n], err)
		}
	}
	return nil
}
