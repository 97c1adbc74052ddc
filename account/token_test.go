package account

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestNewToken(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		tok, h := NewToken()
		if len(tok) != TokenLen || !ValidTokenShape(tok) {
			t.Fatalf("NewToken made %q, of the wrong shape", tok)
		}
		if strings.ContainsAny(tok, "+/=") {
			t.Fatalf("token %q is not base64url without padding", tok)
		}
		if h != sha256.Sum256([]byte(tok)) || h != HashToken(tok) {
			t.Fatalf("NewToken's hash is not the SHA-256 of %q", tok)
		}
		if seen[tok] {
			t.Fatalf("NewToken repeated %q", tok)
		}
		seen[tok] = true
	}
}

func TestHashToken(t *testing.T) {
	// SHA-256 of "abc", FIPS 180-2's first example.
	h := HashToken("abc")
	if got := hex.EncodeToString(h[:]); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("HashToken(abc) = %s", got)
	}
}

func TestValidTokenShape(t *testing.T) {
	tok, _ := NewToken()
	for s, want := range map[string]bool{
		tok:                           true,
		strings.Repeat("A", 43):       true,
		"":                            false,
		tok[:42]:                      false,
		tok + "A":                     false,
		strings.Repeat("+", 43):       false,
		strings.Repeat("A", 42) + "B": false, // padding bits set: not a NewToken
		strings.Repeat("A", 42) + "=": false,
	} {
		if got := ValidTokenShape(s); got != want {
			t.Errorf("ValidTokenShape(%q) = %v, want %v", s, got, want)
		}
	}
}
