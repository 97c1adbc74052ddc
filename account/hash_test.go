package account

import (
	"errors"
	"strings"
	"testing"
)

// cheap are parameters that make the tests fast; the defaults are tested
// once each where it matters.
var cheap = Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

func mustHash(t *testing.T, p Params, password string) string {
	t.Helper()
	h, err := HashWith(p, password)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHashWithBadParams(t *testing.T) {
	for _, p := range []Params{
		{},
		{Memory: 64, Time: 1, Threads: 0, SaltLen: 16, KeyLen: 32},
		{Memory: 64, Time: 0, Threads: 1, SaltLen: 16, KeyLen: 32},
		{Memory: 64, Time: 101, Threads: 1, SaltLen: 16, KeyLen: 32},
		{Memory: 7, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32},
		{Memory: 2 << 20, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32},
		{Memory: 64, Time: 1, Threads: 1, SaltLen: 4, KeyLen: 32},
		{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 8},
		{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 2000},
	} {
		if h, err := HashWith(p, "any password"); err == nil {
			t.Errorf("HashWith(%+v) = %q, want an error", p, h)
		}
	}
}

// TestReferenceHash verifies a hash from the test vectors of the reference
// argon2 implementation (github.com/P-H-C/phc-winner-argon2, src/test.c):
// Hash's format is the one other argon2 tools read and write.
func TestReferenceHash(t *testing.T) {
	const ref = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
	for pw, want := range map[string]bool{"password": true, "Password": false, "password ": false} {
		ok, err := Verify(ref, pw)
		if err != nil || ok != want {
			t.Errorf("Verify(reference, %q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
}

func TestHashVerify(t *testing.T) {
	h := Hash("a long and unusual passphrase")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=65536,t=3,p=4$") {
		t.Errorf("Hash = %q, want the default parameters in PHC form", h)
	}
	if ok, err := Verify(h, "a long and unusual passphrase"); !ok || err != nil {
		t.Errorf("Verify(right password) = %v, %v", ok, err)
	}
	if ok, err := Verify(h, "a long and unusual passphrasE"); ok || err != nil {
		t.Errorf("Verify(wrong password) = %v, %v", ok, err)
	}
	if NeedsRehash(h) {
		t.Error("NeedsRehash(a hash at the default parameters) = true")
	}
}

func TestHashWith(t *testing.T) {
	a, errA := HashWith(cheap, "same password")
	b, errB := HashWith(cheap, "same password")
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if a == b {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
	for _, h := range []string{a, b} {
		if ok, err := Verify(h, "same password"); !ok || err != nil {
			t.Errorf("Verify(%q) = %v, %v", h, ok, err)
		}
		// Hashes made with older parameters still verify, and ask to be
		// remade.
		if !NeedsRehash(h) {
			t.Errorf("NeedsRehash(%q) = false, want true", h)
		}
	}
	p, salt, key, err := decode(a)
	if err != nil || p != cheap || len(salt) != 16 || len(key) != 32 {
		t.Errorf("decode(%q) = %+v, %d-byte salt, %d-byte key, %v", a, p, len(salt), len(key), err)
	}
}

// TestNormalised checks that a password typed with a composed "é" matches
// the same password typed with "e" and a combining accent.
func TestNormalised(t *testing.T) {
	h := mustHash(t, cheap, "caf\u00e9 cr\u00e8me br\u00fbl\u00e9e")
	if ok, err := Verify(h, "cafe\u0301 cre\u0300me bru\u0302le\u0301e"); !ok || err != nil {
		t.Errorf("Verify(decomposed) = %v, %v; want a match", ok, err)
	}
}

func TestVerifyTooLong(t *testing.T) {
	long := strings.Repeat("x", MaxPasswordBytes+1)
	h := mustHash(t, cheap, long)
	if ok, err := Verify(h, long); ok || err != nil {
		t.Errorf("Verify(%d-byte password) = %v, %v; want no match", len(long), ok, err)
	}
}

func TestVerifyMalformed(t *testing.T) {
	good := mustHash(t, cheap, "password one")
	fields := strings.Split(good, "$")
	with := func(i int, s string) string {
		f := append([]string(nil), fields...)
		f[i] = s
		return strings.Join(f, "$")
	}
	for _, bad := range []string{
		"",
		"password one",
		"$argon2id$v=19$m=64,t=1,p=1$salt",
		good + "$",
		"x" + good,
		with(1, "argon2i"),
		with(1, "bcrypt"),
		with(2, "v=16"),
		with(2, "v=019"),
		with(2, "19"),
		with(3, "m=64,t=1"),
		with(3, "m=64,t=1,p=1,x=2"),
		with(3, "m=064,t=1,p=1"),
		with(3, "m=64,t=0,p=1"),
		with(3, "m=64,t=1,p=0"),
		with(3, "m=64,t=1,p=256"),
		with(3, "m=4,t=1,p=1"),
		with(3, "m=99999999,t=1,p=1"),
		with(3, "m=64,t=101,p=1"),
		with(3, "m=-64,t=1,p=1"),
		with(4, ""),
		with(4, "c2FsdA"), // 4 bytes: too short
		with(4, fields[4]+"="),
		with(4, "!!!!"),
		with(5, ""),
		with(5, "c2hvcnQ"), // 5 bytes: too short
		with(5, fields[5]+"=="),
		with(5, strings.Repeat("A", 2000)),
	} {
		ok, err := Verify(bad, "password one")
		if ok || !errors.Is(err, errMalformed) {
			t.Errorf("Verify(%q) = %v, %v; want a malformed-hash error", bad, ok, err)
		}
		if !NeedsRehash(bad) {
			t.Errorf("NeedsRehash(%q) = false", bad)
		}
	}
}

// TestDummy checks that the dummy hash costs what a real one does: it is
// well formed, at the default parameters, and matches no likely password.
func TestDummy(t *testing.T) {
	p, _, _, err := decode(dummyHash)
	if err != nil {
		t.Fatal(err)
	}
	if p != DefaultParams() {
		t.Errorf("dummy hash parameters %+v, want the defaults %+v: make a new one with Hash", p, DefaultParams())
	}
	for _, pw := range []string{"", "password", "correct horse battery staple"} {
		if ok, _ := Verify(dummyHash, pw); ok {
			t.Errorf("the dummy hash matches %q", pw)
		}
	}
	VerifyDummy("password")
}
