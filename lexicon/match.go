package lexicon

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// MatchOptions refine Match.
type MatchOptions struct {
	// Exclude lists letters no wildcard may take, in either case.
	Exclude string
	// Distinct asks for words whose letters are all different.
	Distinct bool
}

// Match returns, in alphabetical order, the words that fit pattern: one
// character per letter, a letter (in either case) where the letter is known
// and '?' or '.' where any letter may go. It reads only the words of the
// pattern's length (and, when the pattern's first letters are known, only
// those starting with them), comparing each packed word under a mask. Its
// error says what is wrong with a pattern or an Exclude list that holds
// anything else.
func (l *Lexicon) Match(pattern string, opt MatchOptions) ([]string, error) {
	n := len(pattern)
	if n == 0 {
		return nil, fmt.Errorf("lexicon: empty pattern")
	}
	if n > MaxWordLen {
		return nil, fmt.Errorf("lexicon: pattern of %d characters is longer than the %d a word may have", n, MaxWordLen)
	}
	var mask, val key
	var wild uint64 // bit p is set when position p is a wildcard
	for p := 0; p < n; p++ {
		c := lower(pattern[p])
		switch {
		case c == '?' || c == '.':
			wild |= 1 << p
		case 'a' <= c && c <= 'z':
			setLetter(&mask, p, 31)
			setLetter(&val, p, c-'a')
		default:
			r, _ := utf8.DecodeRuneInString(pattern[p:])
			return nil, fmt.Errorf("lexicon: pattern %q: %s at position %d is neither a letter nor a wildcard (? or .)", pattern, quoteChar(r), p+1)
		}
	}
	var exclude uint32
	for i := 0; i < len(opt.Exclude); i++ {
		c := lower(opt.Exclude[i])
		if c < 'a' || c > 'z' {
			r, _ := utf8.DecodeRuneInString(opt.Exclude[i:])
			return nil, fmt.Errorf("lexicon: letters to exclude %q: %s is not a letter", opt.Exclude, quoteChar(r))
		}
		exclude |= 1 << (c - 'a')
	}

	g := &l.groups[n]
	lo, hi := 0, g.count
	switch {
	case g.count == 0:
		return nil, nil
	case n > 1 && wild&3 == 0:
		lo, hi = g.prefixRange(int(lower(pattern[0])-'a'), int(lower(pattern[1])-'a'))
	case wild&1 == 0:
		lo, hi = g.letterRange(int(lower(pattern[0]) - 'a'))
	}
	chunks := (g.width + 7) / 8
	var m64, v64 [(keyLen + 7) / 8]uint64
	for c := range chunks {
		m64[c] = binary.BigEndian.Uint64(mask[8*c:])
		v64[c] = binary.BigEndian.Uint64(val[8*c:])
	}
	idx := make([]int32, 0, min(hi-lo, 4096)) // the matches' record numbers
	if g.width <= 8 {
		// Words of up to 12 letters: each record is one number.
		m, v := m64[0], v64[0]
		for i := lo; i < hi; i++ {
			h := binary.BigEndian.Uint64(g.recs[i*g.width:])
			if h&m == v &&
				(!opt.Distinct || g.info[i]&infoDistinct != 0) &&
				(exclude == 0 || fits(h, n, wild, exclude)) {
				idx = append(idx, int32(i))
			}
		}
		return g.wordsAt(nil, idx), nil
	}
	var letters [MaxWordLen]byte
next:
	for i := lo; i < hi; i++ {
		rec := g.recs[i*g.width:]
		for c := range chunks {
			if binary.BigEndian.Uint64(rec[8*c:])&m64[c] != v64[c] {
				continue next
			}
		}
		if opt.Distinct && g.info[i]&infoDistinct == 0 {
			continue
		}
		if exclude != 0 {
			for p, x := range g.appendWord(letters[:0], i) {
				if wild>>p&1 != 0 && exclude&(1<<(x-'a')) != 0 {
					continue next
				}
			}
		}
		idx = append(idx, int32(i))
	}
	return g.wordsAt(nil, idx), nil
}

// fits reports whether the word of n letters packed at the top of h takes no
// excluded letter at a wildcard.
func fits(h uint64, n int, wild uint64, exclude uint32) bool {
	var wilds uint32 // the letters at wildcards
	for p := 0; p < n; p++ {
		wilds |= uint32(1) << (h >> 59) & -uint32(wild>>p&1)
		h <<= 5
	}
	return wilds&exclude == 0
}

// appendHead appends the n letters packed at the top of h.
func appendHead(dst []byte, h uint64, n int) []byte {
	for range n {
		dst = append(dst, 'a'+byte(h>>59))
		h <<= 5
	}
	return dst
}

// setLetter sets the five bits of position p in k to v.
func setLetter(k *key, p int, v byte) {
	bit := p * 5
	x := uint16(v) << (11 - bit&7)
	k[bit>>3] |= byte(x >> 8)
	k[bit>>3+1] |= byte(x)
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
