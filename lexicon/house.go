package lexicon

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode"
	"unicode/utf8"
)

// Limits on a house word list, well beyond any real one.
const (
	maxHouseBytes = 64 << 20 // the whole file
	maxHouseLine  = 4096     // one line, comment included
)

// LoadFile loads the house word list in the file at path (see Parse). The
// lexicon is named path, as given.
func LoadFile(path string) (*Lexicon, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lexicon: house word list: %w", err)
	}
	defer f.Close()
	return Parse(path, f)
}

// Parse reads a house word list from r and returns it as a lexicon named
// name. The list is plain text, one word a line, in either letter case;
// blank lines are skipped and a '#' starts a comment that runs to the end of
// its line. Every word gets commonness 10, and a word listed twice counts
// once. Anything else (a line holding more than one word or a character
// other than a letter a-z, a word longer than MaxWordLen, binary data, a
// list with no words) is an error naming name and the line.
func Parse(name string, r io.Reader) (*Lexicon, error) {
	br := bufio.NewReaderSize(r, maxHouseLine)
	var words []string
	total := 0
	for line := 1; ; line++ {
		text, err := br.ReadSlice('\n')
		total += len(text)
		switch {
		case total > maxHouseBytes:
			return nil, fmt.Errorf("lexicon: %s: longer than %d MiB; a house word list is one word a line", name, maxHouseBytes>>20)
		case errors.Is(err, bufio.ErrBufferFull):
			if looksBinary(trimPartialRune(text)) {
				return nil, fmt.Errorf("lexicon: %s:%d: binary data, not a word list", name, line)
			}
			return nil, fmt.Errorf("lexicon: %s:%d: line longer than %d bytes; a house word list is one word a line", name, line, maxHouseLine)
		case err != nil && err != io.EOF:
			return nil, fmt.Errorf("lexicon: %s: %w", name, err)
		}
		if line == 1 {
			text = bytes.TrimPrefix(text, []byte("\uFEFF"))
		}
		w, perr := parseLine(text)
		if perr != nil {
			return nil, fmt.Errorf("lexicon: %s:%d: %w", name, line, perr)
		}
		if w != "" {
			words = append(words, w)
		}
		if err == io.EOF {
			break
		}
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("lexicon: %s: no words; a house word list is one word a line", name)
	}
	return build(name, words), nil
}

// looksBinary reports whether b looks like something other than text.
func looksBinary(b []byte) bool {
	return bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b)
}

// trimPartialRune drops an incomplete character from the end of b, which
// may have been cut off in the middle of one.
func trimPartialRune(b []byte) []byte {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// parseLine returns the word on one line of a house list, in lower case, or
// "" for a blank or comment line.
func parseLine(text []byte) (string, error) {
	if looksBinary(text) {
		return "", errors.New("binary data, not a word list")
	}
	if i := bytes.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	text = bytes.TrimSpace(text)
	if len(text) == 0 {
		return "", nil
	}
	if bytes.IndexFunc(text, unicode.IsSpace) >= 0 {
		return "", fmt.Errorf("%q is more than one word; put one word a line", text)
	}
	if n := utf8.RuneCount(text); n > MaxWordLen {
		return "", fmt.Errorf("a word of %d letters is longer than the %d allowed", n, MaxWordLen)
	}
	w := make([]byte, len(text))
	for i, c := range text {
		c = lower(c)
		if c < 'a' || c > 'z' {
			r, _ := utf8.DecodeRune(text[i:]) // the first bad byte starts a rune
			return "", fmt.Errorf("%q holds %s, which is not a letter a-z", text, quoteChar(r))
		}
		w[i] = c
	}
	return string(w), nil
}

// quoteChar shows r in an error message: "x" for a printable character, its
// code point (U+0000) for any other.
func quoteChar(r rune) string {
	if r != utf8.RuneError && unicode.IsPrint(r) {
		return `"` + string(r) + `"`
	}
	return fmt.Sprintf("%U", r)
}
