package account

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's cost parameters and sizes. They are written into
// every hash, so that they can be raised later and old hashes still verify
// (see NeedsRehash).
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes over the memory
	Threads uint8  // lanes
	SaltLen uint32 // bytes of random salt
	KeyLen  uint32 // bytes of hash
}

// The parameters Hash uses: RFC 9106's second recommendation (64 MiB,
// three passes, four lanes, 16-byte salt, 32-byte tag). One Verify at
// these costs about 145 ms and 141 ms of processor time on Parlour's
// two-core machine, under the 250 ms a sign-in may take (docs/accounts.md
// gives the benchmark).
const (
	DefaultMemory  = 64 * 1024
	DefaultTime    = 3
	DefaultThreads = 4
	DefaultSaltLen = 16
	DefaultKeyLen  = 32
)

// DefaultParams returns the parameters Hash uses.
func DefaultParams() Params {
	return Params{Memory: DefaultMemory, Time: DefaultTime, Threads: DefaultThreads, SaltLen: DefaultSaltLen, KeyLen: DefaultKeyLen}
}

// Bounds a stored hash's parameters must keep within: a hash outside them
// is refused as malformed rather than allowed to make the server allocate
// gigabytes or loop for minutes.
const (
	maxMemory  = 1 << 20 // 1 GiB
	maxTime    = 100
	minSaltLen = 8
	minKeyLen  = 16
	maxLen     = 1024
)

// Hash returns password hashed with argon2id at the default parameters and
// a fresh random salt, encoded in the PHC string format:
//
//	$argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>
//
// with salt and hash in unpadded standard base64. The password is
// normalised to NFKC first. Hash does not check the password's rules:
// call CheckPassword first.
func Hash(password string) string {
	h, err := HashWith(DefaultParams(), password)
	if err != nil {
		panic(err) // the tests hash with the defaults
	}
	return h
}

// HashWith is Hash with parameters p, which must be within the bounds
// Verify accepts.
func HashWith(p Params, password string) (string, error) {
	if err := p.check(); err != nil {
		return "", err
	}
	salt := make([]byte, p.SaltLen)
	rand.Read(salt) // crypto/rand.Read never fails; it crashes the program first
	key := argon2.IDKey([]byte(normalize(password)), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return encode(p, salt, key), nil
}

// check reports whether p is within the bounds Verify accepts.
func (p Params) check() error {
	switch {
	case p.Threads < 1:
		return fmt.Errorf("argon2id parameters: %d lanes, want at least 1", p.Threads)
	case p.Time < 1 || p.Time > maxTime:
		return fmt.Errorf("argon2id parameters: %d passes, want 1 to %d", p.Time, maxTime)
	case p.Memory < 8*uint32(p.Threads) || p.Memory > maxMemory:
		return fmt.Errorf("argon2id parameters: %d KiB, want %d to %d", p.Memory, 8*uint32(p.Threads), maxMemory)
	case p.SaltLen < minSaltLen || p.SaltLen > maxLen:
		return fmt.Errorf("argon2id parameters: %d-byte salt, want %d to %d", p.SaltLen, minSaltLen, maxLen)
	case p.KeyLen < minKeyLen || p.KeyLen > maxLen:
		return fmt.Errorf("argon2id parameters: %d-byte hash, want %d to %d", p.KeyLen, minKeyLen, maxLen)
	}
	return nil
}

func encode(p Params, salt, key []byte) string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// errMalformed is wrapped by every error about a stored hash's form.
var errMalformed = errors.New("malformed password hash")

// decode parses a hash Hash made, with any parameters within bounds.
func decode(encoded string) (p Params, salt, key []byte, err error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" {
		return p, nil, nil, fmt.Errorf("%w: want 5 fields after $", errMalformed)
	}
	if parts[1] != "argon2id" {
		return p, nil, nil, fmt.Errorf("%w: algorithm %q, want argon2id", errMalformed, parts[1])
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || parts[2] != fmt.Sprintf("v=%d", version) {
		return p, nil, nil, fmt.Errorf("%w: version field %q", errMalformed, parts[2])
	}
	if version != argon2.Version {
		return p, nil, nil, fmt.Errorf("%w: version %d, want %d", errMalformed, version, argon2.Version)
	}
	var threads uint32
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &threads); err != nil ||
		parts[3] != fmt.Sprintf("m=%d,t=%d,p=%d", p.Memory, p.Time, threads) {
		return p, nil, nil, fmt.Errorf("%w: parameters %q", errMalformed, parts[3])
	}
	if threads > 255 {
		return p, nil, nil, fmt.Errorf("%w: parameters %q", errMalformed, parts[3])
	}
	p.Threads = uint8(threads)
	b64 := base64.RawStdEncoding.Strict()
	if salt, err = b64.DecodeString(parts[4]); err != nil {
		return p, nil, nil, fmt.Errorf("%w: salt: %v", errMalformed, err)
	}
	if key, err = b64.DecodeString(parts[5]); err != nil {
		return p, nil, nil, fmt.Errorf("%w: hash: %v", errMalformed, err)
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	if err := p.check(); err != nil {
		return p, nil, nil, fmt.Errorf("%w: %v", errMalformed, err)
	}
	return p, salt, key, nil
}

// Verify reports whether password matches encoded, a hash Hash made with
// any parameters, comparing in constant time. It returns an error only
// when encoded is malformed, which means the store is damaged. A password
// longer than MaxPasswordBytes never matches: no such password can have
// been chosen.
func Verify(encoded, password string) (bool, error) {
	p, salt, key, err := decode(encoded)
	if err != nil {
		return false, err
	}
	if len(password) > MaxPasswordBytes {
		return false, nil
	}
	got := argon2.IDKey([]byte(normalize(password)), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// dummyHash is a hash at the default parameters of a password nobody
// knows (two crypto/rand.Text strings, thrown away). A test keeps its
// parameters equal to the defaults.
const dummyHash = "$argon2id$v=19$m=65536,t=3,p=4$lFe0R+ODsQBK39VpuxTm6A$3HVEJkhPEcoDh7CmLGx5pEMDicF0eFKTMDoE5TOceWs"

// VerifyDummy does the work of Verify against a hash of a password nobody
// knows. The server calls it when a sign-in names no account, so that a
// wrong name costs the same time as a wrong password and the answer's
// timing does not tell which names exist.
func VerifyDummy(password string) {
	Verify(dummyHash, password)
}

// NeedsRehash reports whether encoded was made with parameters other than
// the defaults (or cannot be read): after a successful sign-in the server
// hashes the password again with Hash and stores the new hash, so that
// raising the parameters reaches every active account.
func NeedsRehash(encoded string) bool {
	p, _, _, err := decode(encoded)
	return err != nil || p != DefaultParams()
}
