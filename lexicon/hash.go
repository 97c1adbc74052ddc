package lexicon

import (
	"encoding/binary"
	"math/bits"
)

// Each group has a hash table of its records, for Has and Commonness, laid
// out like Go's own maps: slots in groups of eight, each slot a control byte
// (0x80 when empty, else seven bits of the record's hash) and three bytes
// holding the record's index. A table group is 32 bytes, the eight control
// bytes then the eight indexes, so one cache line holds both. A probe
// compares the eight control bytes with the hash's seven bits at once and
// reads a record only where they agree; it goes on to the next table group
// only while the ones it has seen are full. The table is filled to at most
// 70%, at four bytes a slot: under six bytes a word.
//
// Three bytes index 16,777,216 records, more than any group can hold: a house
// word list is at most 64 MiB, and there are fewer distinct words of five
// letters or less than that.

// hashChunks is how many eight-byte chunks of a record its hash reads.
func (g *group) hashChunks() int { return (g.width + 7) / 8 }

// mix hashes a packed word's first eight bytes by Fibonacci hashing: only
// the product's high bits are well mixed, and a word's letters sit at the
// top of x, so the table uses bits 25 to 63 of the result: the top seven for
// the control byte, the 32 below them to place the word.
func mix(x uint64) uint64 { return x * 0x9e3779b97f4a7c15 }

// hashKey hashes the first chunks eight-byte chunks of k.
func hashKey(k *key, chunks int) uint64 {
	h := binary.BigEndian.Uint64(k[:8])
	for c := 1; c < chunks; c++ {
		h = mix(h) ^ h>>29 ^ binary.BigEndian.Uint64(k[8*c:])
	}
	return mix(h)
}

// hashRecord hashes record i as hashKey hashes its packed word.
func (g *group) hashRecord(i int) uint64 {
	var k key
	copy(k[:g.width], g.recs[i*g.width:])
	return hashKey(&k, g.hashChunks())
}

// tableGroup is how many slots a probe compares at once.
const tableGroup = 8

const (
	ctrlEmpty = 0x80
	lsbs      = 0x0101010101010101
	msbs      = 0x8080808080808080
)

// tableGroupBytes is the size of a table group: control bytes, then indexes.
const tableGroupBytes = tableGroup * 4

// tableBytes returns the size of the hash table for count records, filled
// to at most 70%.
func tableBytes(count int) int {
	if count == 0 {
		return 0
	}
	return (count*10/7/tableGroup + 1) * tableGroupBytes
}

// index builds g's hash table in table, which is one byte longer than
// tableBytes(g.count), for reading four bytes at a time.
func (g *group) index(table []byte) {
	if g.count == 0 {
		return
	}
	g.table = table
	for t := 0; t < len(g.table)-1; t += tableGroupBytes {
		copy(g.table[t:t+tableGroup], "\x80\x80\x80\x80\x80\x80\x80\x80")
	}
	for i := range g.count {
		h := g.hashRecord(i)
		t, j := g.home(h), 0
		for g.table[t+j] != ctrlEmpty {
			if j++; j == tableGroup {
				t, j = g.next(t), 0
			}
		}
		g.table[t+j] = byte(h >> 57)
		x := t + tableGroup + 3*j
		g.table[x], g.table[x+1], g.table[x+2] = byte(i), byte(i>>8), byte(i>>16)
	}
}

// home returns the offset of the table group where a search for hash h
// starts.
func (g *group) home(h uint64) int {
	return int((h>>25&0xffffffff)*uint64(len(g.table)/tableGroupBytes)>>32) * tableGroupBytes
}

// next returns the offset of the table group after the one at t.
func (g *group) next(t int) int {
	if t += tableGroupBytes; t+tableGroupBytes > len(g.table) {
		t = 0
	}
	return t
}

// probe returns the first record with hash h for which same reports true.
func (g *group) probe(h uint64, same func(i int) bool) (int, bool) {
	want := lsbs * (h >> 57)
	for t := g.home(h); ; t = g.next(t) {
		ctrl := binary.LittleEndian.Uint64(g.table[t:])
		x := ctrl ^ want
		// The bytes of x that are zero mark slots whose control byte is the
		// hash's. The test can also mark a slot just after a true one; the
		// record comparison rules such slots out.
		for m := (x - lsbs) &^ x & msbs; m != 0; m &= m - 1 {
			s := t + tableGroup + 3*(bits.TrailingZeros64(m)>>3)
			if i := int(binary.LittleEndian.Uint32(g.table[s:]) & 0xffffff); same(i) {
				return i, true
			}
		}
		if ctrl&msbs != 0 {
			return 0, false // a group with an empty slot ends the search
		}
	}
}

// lookupHead finds the record whose first eight bytes are k, in a group of
// words of at most 12 letters. It is probe, written out for speed.
func (g *group) lookupHead(k uint64) (int, bool) {
	h := mix(k)
	want := lsbs * (h >> 57)
	for t := g.home(h); ; t = g.next(t) {
		ctrl := binary.LittleEndian.Uint64(g.table[t:])
		x := ctrl ^ want
		for m := (x - lsbs) &^ x & msbs; m != 0; m &= m - 1 {
			s := t + tableGroup + 3*(bits.TrailingZeros64(m)>>3)
			i := int(binary.LittleEndian.Uint32(g.table[s:]) & 0xffffff)
			if g.head(i) == k {
				return i, true
			}
		}
		if ctrl&msbs != 0 {
			return 0, false
		}
	}
}

// lookupKey finds the record holding packed word k.
func (g *group) lookupKey(k *key) (int, bool) {
	w := g.width
	return g.probe(hashKey(k, g.hashChunks()), func(i int) bool {
		return string(g.recs[i*w:i*w+w]) == string(k[:w])
	})
}
