package table

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// saltBytes is the size of the random salt of a setup commitment.
const saltBytes = 16

// Commitment returns the SHA-256 commitment of a secret setup: the hex
// digest of the salt's bytes followed by the setup's compact JSON. A table
// publishes each seat's commitment when play starts and reveals the salts
// at the end, so anyone can check that no setup changed; the salt keeps a
// commitment from being matched against guessed setups.
func Commitment(salt []byte, setup json.RawMessage) string {
	h := sha256.New()
	h.Write(salt)
	h.Write(compactJSON(setup))
	return hex.EncodeToString(h.Sum(nil))
}

// VerifyCommitment reports whether commitment matches the revealed salt
// (in hex) and setup.
func VerifyCommitment(commitment, saltHex string, setup json.RawMessage) bool {
	salt, err := hex.DecodeString(saltHex)
	if err != nil {
		return false
	}
	return Commitment(salt, setup) == commitment
}

func newSalt() []byte {
	b := make([]byte, saltBytes)
	rand.Read(b)
	return b
}

func compactJSON(b []byte) []byte {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return b
	}
	return out.Bytes()
}
