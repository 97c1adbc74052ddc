package account

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCommonList checks the embedded list: CommonPasswords distinct lower
// case entries, commonest first.
func TestCommonList(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(commonPasswordsGz))
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		list = append(list, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(list) != CommonPasswords || len(commonSet()) != CommonPasswords {
		t.Fatalf("%d passwords listed, %d distinct; want %d", len(list), len(commonSet()), CommonPasswords)
	}
	if list[0] != "123456" || list[1] != "password" {
		t.Errorf("the list begins %q, want the commonest first", list[:2])
	}
	for _, p := range list {
		if p == "" || p != strings.ToLower(p) {
			t.Errorf("listed %q: want non-empty lower case", p)
		}
	}
}

func TestCheckPassword(t *testing.T) {
	tests := []struct {
		name, password string
		want           string // a part of the error, or "" for none
	}{
		{"albertine", "correct horse battery staple", ""},
		{"albertine", "Tr0ub4dor&3x", ""},
		{"albertine", "8 chars!", ""},
		{"albertine", "пароль12", ""},  // 8 characters, 14 bytes
		{"albertine", "短いけど十分な長さ", ""}, // 9 characters
		{"albertine", "", "at least 8"},
		{"albertine", "7 chars", "at least 8"},
		{"albertine", "пароль1", "at least 8"},       // 13 bytes, 7 characters
		{"albertine", "cafe\u0301!!!", "at least 8"}, // 8 code points, 7 characters once composed
		{"albertine", strings.Repeat("x", MaxPasswordBytes), ""},
		{"albertine", strings.Repeat("x", MaxPasswordBytes+1), "at most 1024 bytes"},
		{"albertine", "password\xff", "UTF-8"},
		// What no sign-in form can type: a password read from a file
		// with its line break, a tab, a NUL.
		{"albertine", "correct horse battery\n", "control characters"},
		{"albertine", "correct\thorse battery", "control characters"},
		{"albertine", "correct horse\x00battery", "control characters"},
		{"albertine", "correct horse\u0085battery", "control characters"},
		{"albertine", "correct horse battery staple\u00a0", ""}, // a no-break space is typed
		{"albertine", "password", "commonest"},
		{"albertine", "PASSWORD", "commonest"},
		{"albertine", "PassWord", "commonest"},
		{"albertine", "iloveyou", "commonest"},
		{"albertine", "12345678", "commonest"},
		{"albertine", "qwertyuiop", "commonest"},
		{"albertine", "ｐａｓｓｗｏｒｄ", "commonest"}, // full-width letters fold to "password"
		{"albertine", "Albertine", "not contain your name"},
		{"Albertine99", "albertine99", "not contain your name"},
		{"albertine", "albertine99", "not contain your name"},
		{"albertine", "my ALBERTINE password", "not contain your name"},
		{"albertine", "99aLbErTiNe", "not contain your name"},
		{"albertine", "ａｌｂｅｒｔｉｎｅ!!", "not contain your name"}, // full-width letters fold to the name
		{"albertine", "albertin and more", ""},                // most of the name is not the name
		{"Bob", "a bobsleigh run", "not contain your name"},
		{"", "albertine99", ""},
	}
	for _, tc := range tests {
		err := CheckPassword(tc.name, tc.password)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckPassword(%q, %q) = %v, want nil", tc.name, tc.password, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("CheckPassword(%q, %q) = %v, want an error saying %q", tc.name, tc.password, err, tc.want)
		}
	}
}

func TestCommon(t *testing.T) {
	for pw, want := range map[string]bool{
		"123456": true, "Dragon": true, "trustno1": true, "Sunshine": true,
		"correct horse battery staple": false, "": false,
	} {
		if got := Common(pw); got != want {
			t.Errorf("Common(%q) = %v, want %v", pw, got, want)
		}
	}
}

// FuzzCheckPassword checks CheckPassword's promises for any name and
// password: what it accepts keeps the rules, and every refusal is one of
// a few fixed sentences, so none can repeat the password.
func FuzzCheckPassword(f *testing.F) {
	refusals := map[string]bool{}
	for _, pw := range []string{"\xff", strings.Repeat("x", MaxPasswordBytes+1), "x\ty", "short", "albertine", "password"} {
		refusals[CheckPassword("albertine", pw).Error()] = true
	}
	for _, s := range []string{"password", "correct horse", "пароль12", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8", "ｐａｓｓｗｏｒｄ", "12345678", "correct horse\x16"} {
		f.Add("albertine", s)
	}
	f.Fuzz(func(t *testing.T, name, password string) {
		err := CheckPassword(name, password)
		if err != nil {
			msg := err.Error()
			if !refusals[msg] {
				t.Fatalf("CheckPassword(%q) = %q, not one of the fixed refusals", password, msg)
			}
			return
		}
		if !utf8.ValidString(password) || len(password) > MaxPasswordBytes ||
			utf8.RuneCountInString(normalize(password)) < MinPasswordLen {
			t.Fatalf("CheckPassword accepted %q", password)
		}
		if Common(password) || Common(strings.ToUpper(password)) {
			t.Fatalf("CheckPassword accepted common %q", password)
		}
		if name != "" && strings.Contains(strings.ToLower(normalize(password)), strings.ToLower(normalize(name))) {
			t.Fatalf("CheckPassword accepted %q, which holds the name %q", password, name)
		}
	})
}
