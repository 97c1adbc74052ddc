package lexicon

import (
	"bytes"
	"compress/flate"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
)

// layers holds every word of en-large with its SCOWL size, as internal/gen
// writes it, in three files by size: words-35.lex (sizes up to 35),
// words-70.lex (40 to 70) and words-95.lex (80 to 95). Each is
// DEFLATE-compressed; decompressed, it is a magic line, then for each word in
// order (by length, then alphabetically) its size code, how many leading
// letters it shares with the word before (0 at each new length), and the
// rest of its letters.
//
//go:embed data/words-*.lex
var layers embed.FS

// layerMax are the largest SCOWL sizes of the layers, in order.
var layerMax = []int{35, 70, 95}

const dataMagic = "parlour-lexicon 1\n"

// DefaultName is the name of the default lexicon.
const DefaultName = "en"

// Names returns the names of the embedded lexicons, smallest first:
// en-common (SCOWL sizes up to 35, about 41,000 words), en (up to 70, about
// 118,000 words) and en-large (up to 95, about 439,000 words).
func Names() []string { return []string{"en-common", "en", "en-large"} }

// About describes a lexicon for a player choosing one: its name, a title
// in words, and how many words it holds.
type About struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Words int    `json:"words"`
}

// Embedded describes the embedded lexicons, smallest first, without
// building them (en-large takes a fifth of a second and several MB): the
// counts are those of data/summary.txt, which the tests hold to each
// lexicon's Len.
func Embedded() []About {
	return []About{
		{Name: "en-common", Title: "English, common words", Words: 40893},
		{Name: "en", Title: "English", Words: 117585},
		{Name: "en-large", Title: "English, every word", Words: 438559},
	}
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
	l, err := LoadFile(name)
	if errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(name, `/\`) {
		// A name in another case ("EN"), with no file of that name,
		// is the lexicon.
		for _, n := range Names() {
			if strings.EqualFold(n, name) {
				return Load(n)
			}
		}
		// Most likely a lexicon's name mistyped ("en-lrage", "EN"):
		// "open en-lrage: no such file" would not say what the names are.
		names := Names()
		return nil, fmt.Errorf("lexicon: no lexicon %q and no file of that name: the lexicons are %s and %s (a word list is given by its file's path)",
			name, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
	}
	return l, err
}

// decode builds the embedded lexicon of the words of SCOWL size up to
// maxSize, from the layers that hold them.
func decode(name string, maxSize int) (*Lexicon, error) {
	var data [][]byte
	for _, m := range layerMax {
		file := fmt.Sprintf("data/words-%d.lex", m)
		b, err := layers.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("lexicon: embedded data for %s: %w", name, err)
		}
		data = append(data, b)
		if m >= maxSize {
			break
		}
	}
	l, err := decodeData(name, maxSize, data...)
	if err != nil {
		return nil, fmt.Errorf("lexicon: embedded data for %s: %w", name, err)
	}
	return l, nil
}

// decodeData builds a lexicon of the words of SCOWL size up to maxSize in
// the layers. It decompresses each layer and notes where each length
// starts; then, length by length, it merges the layers' words, which are
// disjoint, into arrays sized in advance.
func decodeData(name string, maxSize int, layers ...[]byte) (*Lexicon, error) {
	maxCode := -1
	for c, s := range sizes {
		if s <= maxSize {
			maxCode = c
		}
	}
	var count [MaxWordLen + 1]int
	type layer struct {
		raw   []byte
		start [MaxWordLen + 2]int // where each length's words start in raw
	}
	ls := make([]layer, len(layers))
	for li, data := range layers {
		raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(data)))
		if err != nil {
			return nil, err
		}
		if !bytes.HasPrefix(raw, []byte(dataMagic)) {
			return nil, errors.New("bad magic")
		}
		l := &ls[li]
		l.raw = raw
		c := cursor{raw: raw, i: len(dataMagic), end: len(raw)}
		length := 0
		for {
			at := c.i
			if !c.next() {
				break
			}
			if c.n < length {
				return nil, fmt.Errorf("word %q after longer words", c.word[:c.n])
			}
			for ; length < c.n; length++ {
				l.start[length+1] = at
			}
			if int(c.code) <= maxCode {
				count[c.n]++
			}
		}
		if c.err != nil {
			return nil, c.err
		}
		for ; length <= MaxWordLen; length++ {
			l.start[length+1] = len(raw)
		}
	}

	b := newBuilder(name, &count)
	cs := make([]cursor, len(ls))
	for n := 1; n <= MaxWordLen; n++ {
		live := cs[:0]
		for _, l := range ls {
			c := cursor{raw: l.raw, i: l.start[n], end: l.start[n+1]}
			if c.next() {
				live = append(live, c)
			} else if c.err != nil {
				return nil, c.err
			}
		}
		for len(live) > 0 {
			min := 0
			for j := 1; j < len(live); j++ {
				if bytes.Compare(live[j].word[:n], live[min].word[:n]) < 0 {
					min = j
				}
			}
			c := &live[min]
			if c.n != n {
				return nil, fmt.Errorf("word %q among words of %d letters", c.word[:c.n], n)
			}
			if int(c.code) <= maxCode {
				if err := b.add(c.word[:n], c.code); err != nil {
					return nil, fmt.Errorf("word %q: %w", c.word[:n], err)
				}
			}
			if !c.next() {
				if c.err != nil {
					return nil, c.err
				}
				live = append(live[:min], live[min+1:]...)
			}
		}
	}
	return b.finish(), nil
}

// A cursor reads the front-coded words of raw[i:end].
type cursor struct {
	raw    []byte
	i, end int
	word   [MaxWordLen]byte // the current word is word[:n]
	n      int
	code   byte
	err    error
}

// next reads the next word, reporting false at the end or on corrupt data,
// which sets err.
func (c *cursor) next() bool {
	if c.i >= c.end {
		return false
	}
	if c.i+1 >= c.end {
		c.err = fmt.Errorf("corrupt record at byte %d", c.i)
		return false
	}
	code, shared := c.raw[c.i], int(c.raw[c.i+1])
	if code >= byte(len(sizes)) || shared > c.n {
		c.err = fmt.Errorf("corrupt record at byte %d", c.i)
		return false
	}
	c.i += 2
	n := shared
	for c.i < c.end && c.raw[c.i] >= 'a' {
		if c.raw[c.i] > 'z' || n == MaxWordLen {
			c.err = fmt.Errorf("corrupt word at byte %d", c.i)
			return false
		}
		c.word[n] = c.raw[c.i]
		n++
		c.i++
	}
	if n == 0 {
		c.err = fmt.Errorf("empty word at byte %d", c.i)
		return false
	}
	c.n, c.code = n, code
	return true
}
