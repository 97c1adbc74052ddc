package account

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The length of a password. The minimum counts characters (after
// normalisation), not bytes, so that "пароль12" is as long as "password";
// the maximum counts bytes and exists so that nobody can make the server
// hash a megabyte.
const (
	MinPasswordLen   = 8
	MaxPasswordBytes = 1024
)

// CommonPasswords is how many of the commonest passwords CheckPassword
// refuses.
const CommonPasswords = 10000

// commonPasswordsGz holds the CommonPasswords commonest passwords, lower
// case, one a line, commonest first, gzipped; common-passwords.NOTICE says
// where they come from and account/internal/gen made the file.
//
//go:embed data/common-passwords.txt.gz
var commonPasswordsGz []byte

// commonSet is the list as a set, built on first use (about 10,000
// entries, a few milliseconds) and shared by every caller.
var commonSet = sync.OnceValue(func() map[string]struct{} {
	set := make(map[string]struct{}, CommonPasswords)
	zr, err := gzip.NewReader(bytes.NewReader(commonPasswordsGz))
	if err != nil {
		panic(fmt.Sprintf("account: embedded password list: %v", err)) // the tests read it
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		set[sc.Text()] = struct{}{}
	}
	if err := sc.Err(); err != nil {
		panic(fmt.Sprintf("account: embedded password list: %v", err))
	}
	return set
})

// Common reports whether password is among the CommonPasswords commonest
// passwords, ignoring case.
func Common(password string) bool {
	_, ok := commonSet()[strings.ToLower(normalize(password))]
	return ok
}

// normalize returns password in Unicode normalisation form NFKC, as NIST
// SP 800-63B advises: the same password typed on two keyboards that
// compose "é" differently is the same password. Hash and Verify apply it
// too.
func normalize(password string) string {
	return norm.NFKC.String(password)
}

// CheckPassword reports whether password may be chosen by the player
// called name (name may be empty when unknown): valid UTF-8 without
// control characters (a line break read with it from a file, a tab: no
// sign-in form types them, so the password would lock its owner out), at
// least MinPasswordLen characters and at most MaxPasswordBytes bytes, not
// holding the name anywhere in it and not one of the commonest passwords,
// ignoring case. A password that merely adds a few characters to the name
// ("albertine99") is the first thing anyone who knows the name tries. The
// error never repeats the password.
func CheckPassword(name, password string) error {
	if !utf8.ValidString(password) {
		return errors.New("a password must be text (UTF-8)")
	}
	if len(password) > MaxPasswordBytes {
		return fmt.Errorf("a password may be at most %d bytes long", MaxPasswordBytes)
	}
	if strings.IndexFunc(password, unicode.IsControl) >= 0 {
		return errors.New("a password may not hold control characters such as line breaks or tabs: no sign-in form can type them")
	}
	p := normalize(password)
	if utf8.RuneCountInString(p) < MinPasswordLen {
		return fmt.Errorf("a password needs at least %d characters", MinPasswordLen)
	}
	if name != "" && strings.Contains(strings.ToLower(p), strings.ToLower(normalize(name))) {
		return errors.New("a password may not contain your name")
	}
	if Common(p) {
		return errors.New("that password is one of the 10,000 commonest, the first any attacker tries: choose another")
	}
	return nil
}
