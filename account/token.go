package account

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// TokenBytes is the size of a session or bearer token's secret: 256 bits
// from crypto/rand, far beyond guessing.
const TokenBytes = 32

// TokenLen is the length of a token NewToken makes, in characters.
const TokenLen = 43 // base64.RawURLEncoding.EncodedLen(TokenBytes)

// NewToken returns a fresh token, TokenBytes random bytes in unpadded
// base64url (safe in a cookie, a header and a URL), and the hash the store
// keeps in its place. Tokens have the shape of the server's guest tokens,
// so one lookup serves both.
func NewToken() (token string, hash [sha256.Size]byte) {
	b := make([]byte, TokenBytes)
	rand.Read(b) // crypto/rand.Read never fails; it crashes the program first
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token)
}

// HashToken returns the SHA-256 of a token: the store keeps only this, so
// a stolen copy of the database holds no token that can be replayed. A
// token carries 256 random bits, so a fast unsalted hash is enough: there
// is no dictionary to try. Looking a token up by its hash needs no
// constant-time comparison, since the hash of a guess says nothing about
// the hash of the token.
func HashToken(token string) [sha256.Size]byte {
	if len(token) == TokenLen {
		// Copied into an array on the stack: converting a string of more
		// than 32 bytes to a slice takes an allocation, on every request
		// that presents a token.
		var b [TokenLen]byte
		copy(b[:], token)
		return sha256.Sum256(b[:])
	}
	return sha256.Sum256([]byte(token))
}

// ValidTokenShape reports whether token could be one NewToken made; a
// token of another shape can be refused without a store lookup.
func ValidTokenShape(token string) bool {
	if len(token) != TokenLen {
		return false
	}
	_, err := base64.RawURLEncoding.Strict().DecodeString(token)
	return err == nil
}
