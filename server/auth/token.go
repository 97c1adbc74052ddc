package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"strings"

	"parlour/account"
)

// NewToken returns a fresh bearer token and the hash the store keeps in
// its place (account.NewToken, the one maker of tokens for sessions,
// guests and seats alike, so that one lookup serves them all).
func NewToken() (token string, hash []byte) {
	token, h := account.NewToken()
	return token, h[:]
}

// idAlphabet spells ids: letters and digits without the easily confused
// l, o, 0 and 1.
const idAlphabet = "abcdefghijkmnpqrstuvwxyz23456789"

// NewID returns a random identifier of 80 bits, written in 16 letters and
// digits that are hard to confuse: table ids are unguessable, so a private
// table's invite link is its only way in.
func NewID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return base32.NewEncoding(idAlphabet).WithPadding(base32.NoPadding).EncodeToString(b)
}

// IDOf returns an id of NewID's shape made from key, the same for the
// same key on every node and after a restart: an event the server's own
// calendar puts up takes the id of its entry and start, so that it is
// made once however many nodes find it due.
func IDOf(key string) string {
	h := sha256.Sum256([]byte(key))
	return base32.NewEncoding(idAlphabet).WithPadding(base32.NoPadding).EncodeToString(h[:10])
}

// ValidID reports whether id has the shape NewID gives: an id of another
// shape is refused without a store lookup.
func ValidID(id string) bool {
	if len(id) != 16 {
		return false
	}
	for _, c := range id {
		if !strings.ContainsRune(idAlphabet, c) {
			return false
		}
	}
	return true
}

// RandomSeed returns a uint64 from crypto/rand: seeds for games that must
// not be guessed, and guest names' numbers.
func RandomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}
