// Package invite makes and reads invite codes: six characters a player can
// read aloud to a friend ("K7M-4PX"), standing for one table.
//
// The alphabet leaves out characters that are easily misread or misheard
// for one another (0 and O, 1, I and L), so a code copied by hand or by
// ear still names the same table. A code is random; the store decides
// whether it is free (see store.Batch.Code).
package invite

import (
	"crypto/rand"
	"fmt"
	"strings"
	"time"
)

// Alphabet holds the characters of a code: digits and capital letters
// without 0, 1, I, L and O.
const Alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// Len is the number of characters in a code: 31^6, close to 900 million
// codes, so that a random one is almost never taken.
const Len = 6

// Reserve is how long a code stays reserved after its table ends: it no
// longer leads anywhere, but it is not given to another table, so that a
// code read out last week never lands someone at a stranger's table.
const Reserve = 30 * 24 * time.Hour

// New returns a random code from crypto/rand.
func New() (string, error) {
	var b [Len]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making an invite code: %w", err)
	}
	// 256 is not a multiple of 31; rejecting the top of the range would
	// remove the bias, and costs little.
	out := make([]byte, 0, Len)
	for len(out) < Len {
		for _, c := range b {
			if int(c) < 256/len(Alphabet)*len(Alphabet) && len(out) < Len {
				out = append(out, Alphabet[int(c)%len(Alphabet)])
			}
		}
		if _, err := rand.Read(b[:]); err != nil {
			return "", fmt.Errorf("making an invite code: %w", err)
		}
	}
	return string(out), nil
}

// Parse reads a code as a player types it: letters of either case, with
// spaces and dashes anywhere ignored ("k7m-4px"). It returns the code in
// its canonical form (capitals, no separators), or an error in a player's
// words naming the rule broken.
func Parse(s string) (string, error) {
	var b strings.Builder
	n := 0
	for _, r := range s {
		switch {
		case r == ' ' || r == '-' || r == '\t':
			continue
		case r >= 'a' && r <= 'z':
			r -= 'a' - 'A'
		}
		n++
		if n > Len {
			return "", fmt.Errorf("an invite code has %d characters; %q has more", Len, clip(s))
		}
		if !strings.ContainsRune(Alphabet, r) {
			return "", fmt.Errorf("%q is not in invite codes (2-9 and A-Z without I, L, O)", r)
		}
		b.WriteRune(r)
	}
	if n < Len {
		return "", fmt.Errorf("an invite code has %d characters; %q has %d", Len, clip(s), n)
	}
	return b.String(), nil
}

// Looks reports whether s reads as a code rather than a table id or a
// link, so that a client's join box can take either.
func Looks(s string) bool {
	_, err := Parse(s)
	return err == nil
}

// Format writes code in two halves for reading aloud: "K7M-4PX".
func Format(code string) string {
	if len(code) != Len {
		return code
	}
	return code[:Len/2] + "-" + code[Len/2:]
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}
