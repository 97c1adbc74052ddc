package lexicon

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"sort"
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

// appendWord appends the letters of record i to dst.
func (g *group) appendWord(dst []byte, i int) []byte {
	if g.width <= 8 {
		return appendHead(dst, binary.BigEndian.Uint64(g.recs[i*g.width:]), g.n)
	}
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

// wordsAt appends the words of records idx to dst. The new strings share
// one allocation.
func (g *group) wordsAt(dst []string, idx []int32) []string {
	if len(idx) == 0 {
		return dst
	}
	n := g.n
	buf := make([]byte, len(idx)*n)
	if g.width <= 8 {
		for j, i := range idx {
			h := binary.BigEndian.Uint64(g.recs[int(i)*g.width:])
			w := buf[j*n : j*n+n]
			for p := range w {
				w[p] = 'a' + byte(h>>59)
				h <<= 5
			}
		}
	} else {
		for j, i := range idx {
			g.appendWord(buf[j*n:j*n], int(i))
		}
	}
	s := string(buf)
	dst = slices.Grow(dst, len(idx))
	for j := range idx {
		dst = append(dst, s[j*n:j*n+n])
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
//
// Each kind of array is one allocation that the groups share, which keeps
// the lexicon small and together in memory.
func newBuilder(name string, count *[MaxWordLen + 1]int) *builder {
	l := &Lexicon{name: name}
	nrecs, ninfo := 0, 0
	for n := 1; n <= MaxWordLen; n++ {
		nrecs += count[n]*width(n) + recPad
		ninfo += count[n]
	}
	recs, info := make([]byte, nrecs), make([]byte, ninfo)
	for n := 1; n <= MaxWordLen; n++ {
		g := &l.groups[n]
		g.n, g.width = n, width(n)
		g.mask = ^uint64(0)
		if g.width < 8 {
			g.mask <<= 64 - 8*g.width
		}
		size := count[n]*g.width + recPad
		g.recs, recs = recs[:0:size], recs[size:]
		g.info, info = info[:0:count[n]], info[count[n]:]
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
	info := code<<4 | byte(min(run(word, false), runCap))
	if distinct(word) {
		info |= infoDistinct
	}
	g.info = append(g.info, info)
	g.first[word[0]-'a'+1]++
	g.count++
	b.l.count++
	return nil
}

// finish pads the groups and indexes them.
func (b *builder) finish() *Lexicon {
	ntable := 1 // hash table indexes are read four bytes at a time
	for n := 1; n <= MaxWordLen; n++ {
		ntable += tableBytes(b.l.groups[n].count)
	}
	table := make([]byte, ntable)
	for n := 1; n <= MaxWordLen; n++ {
		g := &b.l.groups[n]
		g.recs = g.recs[:cap(g.recs)] // the padding, zero
		for c := 1; c <= 26; c++ {
			g.first[c] += g.first[c-1]
		}
		size := tableBytes(g.count)
		g.index(table[:size+1])
		table = table[size:]
	}
	return b.l
}

// letterRange returns the records that start with letter c ('a' is 0).
func (g *group) letterRange(c int) (lo, hi int) {
	return int(g.first[c]), int(g.first[c+1])
}

// prefixRange returns the records that start with letters c1, c2 ('a' is
// 0); the group's words must have two letters or more.
func (g *group) prefixRange(c1, c2 int) (lo, hi int) {
	lo, hi = g.letterRange(c1)
	second := func(i int) int { return int(g.letter(i, 1)) }
	lo += sort.Search(hi-lo, func(i int) bool { return second(lo+i) >= c2 })
	hi = lo + sort.Search(hi-lo, func(i int) bool { return second(lo+i) > c2 })
	return lo, hi
}

// distinct reports whether word's letters are all different.
func distinct(word []byte) bool {
	var seen uint32
	for _, c := range word {
		bit := uint32(1) << (c - 'a')
		if seen&bit != 0 {
			return false
		}
		seen |= bit
	}
	return true
}
