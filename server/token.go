package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"strings"
)

// tokenBytes is the size of a bearer token's secret: 256 bits from
// crypto/rand, far beyond guessing.
const tokenBytes = 32

// newToken returns a fresh bearer token and the hash the store keeps.
func newToken() (token string, hash []byte) {
	b := make([]byte, tokenBytes)
	rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	h := hashToken(token)
	return token, h[:]
}

// hashToken returns the SHA-256 of a token: the store never holds a
// usable credential. It returns an array, so that a cache lookup with it
// need not allocate.
func hashToken(token string) [sha256.Size]byte {
	return sha256.Sum256([]byte(token))
}

// validTokenShape reports whether token could be one newToken made; a
// token of another shape is refused without a store lookup.
func validTokenShape(token string) bool {
	if len(token) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(token)
	return err == nil
}

// idAlphabet spells table ids: letters and digits without the easily
// confused l, o, 0 and 1.
const idAlphabet = "abcdefghijkmnpqrstuvwxyz23456789"

// newID returns a random identifier of 80 bits, written in 16 letters and
// digits that are hard to confuse: table ids are unguessable, so a private
// table's invite link is its only way in.
func newID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return base32.NewEncoding(idAlphabet).WithPadding(base32.NoPadding).EncodeToString(b)
}

// randomSeed returns a uint64 from crypto/rand.
func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// validID reports whether id has the shape newID gives.
func validID(id string) bool {
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
