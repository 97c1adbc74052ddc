package lexicon

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// keyLen is the size in bytes of the longest packed word.
const keyLen = (5*MaxWordLen + 7) / 8

// recPad is the zero padding after a group's records, so that eight bytes can
// always be loaded at a record's start.
const recPad = 8

// A key is a packed word: its letters, 'a' as 0 to 'z' as 25, five bits each
// from the most significant bit of key[0], then zero bits. Packed words of
// one length sort as the words do, so a group's records sort with bytes.Compare
// and, in their first eight bytes, as big-endian numbers.
type key [keyLen]byte

// width returns the bytes a packed word of n letters takes.
func width(n int) int { return (5*n + 7) / 8 }

// pack packs word, which must be at most MaxWordLen bytes long, folding
// upper-case letters when fold is set. It reports false if word holds
// anything but letters.
func pack[S string | []byte](word S, fold bool) (k key, ok bool) {
	var acc uint
	bits, j := 0, 0
	for i := 0; i < len(word); i++ {
		c := word[i]
		if fold && 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c < 'a' || c > 'z' {
			return k, false
		}
		acc = acc<<5 | uint(c-'a')
		bits += 5
		if bits >= 8 {
			bits -= 8
			k[j] = byte(acc >> bits)
			j++
		}
	}
	if bits > 0 {
		k[j] = byte(acc << (8 - bits))
	}
	return k, true
}

// head returns the first eight bytes of record i as a number, with the bytes
// past the record cleared.
func (g *group) head(i int) uint64 {
	return binary.BigEndian.Uint64(g.recs[i*g.width:]) & g.mask
}

// search finds the packed word k among records lo to hi-1.
func (g *group) search(k *key, lo, hi int) (int, bool) {
	k0 := binary.BigEndian.Uint64(k[:8])
	w := g.width
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		r0 := g.head(m)
		switch {
		case r0 < k0:
			lo = m + 1
		case r0 > k0:
			hi = m
		case w <= 8:
			return m, true
		default:
			switch bytes.Compare(g.recs[m*w+8:m*w+w], k[8:w]) {
			case -1:
				lo = m + 1
			case 1:
				hi = m
			default:
				return m, true
			}
		}
	}
	return lo, false
}

// appendWord appends the letters of record i to dst.
func (g *group) appendWord(dst []byte, i int) []byte {
	rec := g.recs[i*g.width:]
	var acc uint
	bits, j := 0, 0
	for range g.n {
		if bits < 5 {
			acc = acc<<8 | uint(rec[j])
			j++
			bits += 8
		}
		bits -= 5
		dst = append(dst, 'a'+byte(acc>>bits&31))
	}
	return dst
}

// letter returns the letter at position p (from 0) of record i, 0 for 'a'.
func (g *group) letter(i, p int) byte {
	bit := i*g.width*8 + p*5
	v := uint(g.recs[bit>>3])<<8 | uint(g.recs[bit>>3+1])
	return byte(v>>(11-bit&7)) & 31
}

// appendWords appends the words of records lo to hi-1 for which keep (if not
// nil) reports true. The new strings share one allocation.
func (g *group) appendWords(dst []string, lo, hi int, keep func(i int) bool) []string {
	if lo >= hi {
		return dst
	}
	var buf []byte
	if keep == nil {
		buf = make([]byte, 0, (hi-lo)*g.n)
	}
	for i := lo; i < hi; i++ {
		if keep == nil || keep(i) {
			buf = g.appendWord(buf, i)
		}
	}
	s := string(buf)
	for len(s) > 0 {
		dst = append(dst, s[:g.n])
		s = s[g.n:]
	}
	return dst
}

// A builder fills a lexicon's groups with words given in order (by length,
// then alphabetically), into arrays sized in advance.
type builder struct {
	l *Lexicon
}

var errOrder = errors.New("words out of order")

// newBuilder makes a builder for count[n] words of each length n.
func newBuilder(name string, count *[MaxWordLen + 1]int) *builder {
	l := &Lexicon{name: name}
	for n := 1; n <= MaxWordLen; n++ {
		g := &l.groups[n]
		g.n, g.width = n, width(n)
		g.mask = ^uint64(0)
		if g.width < 8 {
			g.mask <<= 64 - 8*g.width
		}
		if count[n] > 0 {
			g.recs = make([]byte, 0, count[n]*g.width+recPad)
			g.info = make([]byte, 0, count[n])
		}
	}
	return &builder{l: l}
}

// add adds word, which must be lower-case a-z, of 1 to MaxWordLen letters,
// with size code, after every word of its length already added.
func (b *builder) add(word []byte, code byte) error {
	k, ok := pack(word, false)
	if !ok || len(word) == 0 || len(word) > MaxWordLen || int(code) >= len(sizes) {
		return errors.New("bad word")
	}
	g := &b.l.groups[len(word)]
	rec := k[:g.width]
	if g.count > 0 && bytes.Compare(g.recs[len(g.recs)-g.width:], rec) >= 0 {
		return errOrder
	}
	if len(g.info) == cap(g.info) {
		return errors.New("more words than counted")
	}
	g.recs = append(g.recs, rec...)
	g.info = append(g.info, code<<4|byte(min(run(word, false), runCap)))
	g.first[word[0]-'a'+1]++
	g.count++
	b.l.count++
	return nil
}

// finish pads the groups and indexes them by first letter.
func (b *builder) finish() *Lexicon {
	for n := 1; n <= MaxWordLen; n++ {
		g := &b.l.groups[n]
		if g.count > 0 {
			g.recs = append(g.recs, make([]byte, recPad)...)
		} else {
			g.recs = make([]byte, recPad)
		}
		for c := 1; c <= 26; c++ {
			g.first[c] += g.first[c-1]
		}
	}
	return b.l
}
