package mail

import (
	"strings"
	"testing"
)

// TestParseSMTP reads the operator's --smtp URLs, and refuses bad ones
// with a sentence naming the problem and never the password.
func TestParseSMTP(t *testing.T) {
	t.Parallel()
	good := []struct {
		raw  string
		want SMTP
	}{
		{"smtp://user:pass@mail.example.org:587?from=parlour@example.org", SMTP{Addr: "mail.example.org:587", User: "user", Password: "pass", From: "parlour@example.org"}},
		{"smtp://mail.example.org?from=parlour@example.org", SMTP{Addr: "mail.example.org:587", From: "parlour@example.org"}},
		{"smtps://u%40x:p%3Aw@mail.example.org?from=parlour@example.org", SMTP{Addr: "mail.example.org:465", Implicit: true, User: "u@x", Password: "p:w", From: "parlour@example.org"}},
		{" smtp://[::1]:2525/?from=a@b.example ", SMTP{Addr: "[::1]:2525", From: "a@b.example"}},
		{"smtp://u@127.0.0.1:25?from=a@b.example", SMTP{Addr: "127.0.0.1:25", User: "u", From: "a@b.example"}},
	}
	for _, c := range good {
		got, err := ParseSMTP(c.raw)
		if err != nil || *got != c.want {
			t.Errorf("ParseSMTP(%q) = %+v, %v; want %+v", c.raw, got, err, c.want)
		}
	}
	bad := []struct{ raw, want string }{
		{"", "empty"},
		{"mail.example.org:587", "scheme"},
		{"http://mail.example.org?from=a@b.example", `scheme is "http"`},
		{"smtp://?from=a@b.example", "no host"},
		{"smtp:mail.example.org", "no host"},
		{"smtp://h.example:0?from=a@b.example", "not a port"},
		{"smtp://h.example:99999?from=a@b.example", "not a port"},
		{"smtp://h.example:?from=a@b.example", "port is empty"},
		{"smtp://h.example/mail?from=a@b.example", "path"},
		{"smtp://h.example?from=a@b.example#x", "fragment"},
		{"smtp://:secret@h.example?from=a@b.example", "no user name"},
		{"smtp://h.example", "no sender"},
		{"smtp://h.example?from=a@b.example&from=c@d.example", "more than once"},
		{"smtp://h.example?from=a@b.example&tls=on", `unknown setting "tls"`},
		{"smtp://h.example?from=nobody", "from"},
		{"smtp://u:s3cr%zzet@h.example?from=a@b.example", "does not parse"},
	}
	for _, c := range bad {
		_, err := ParseSMTP(c.raw)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSMTP(%q): %v, want an error saying %q", c.raw, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "s3cr") {
			t.Errorf("ParseSMTP(%q)'s error shows the password: %v", c.raw, err)
		}
	}
	s, _ := ParseSMTP("smtps://user:pass@h.example?from=a@b.example")
	if str := s.String(); strings.Contains(str, "pass") || !strings.HasPrefix(str, "smtps://user@h.example:465") {
		t.Errorf("String() = %q, want the URL without the password", str)
	}
}

// TestParseAddress takes one bare address and refuses the rest in a
// player's words.
func TestParseAddress(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ann@example.org":       "ann@example.org",
		"  ann.b+x@mail.ex.io ": "ann.b+x@mail.ex.io",
		"zoë@exämple.org":       "zoë@exämple.org",
	} {
		if got, err := ParseAddress(in); err != nil || got != want {
			t.Errorf("ParseAddress(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"":                                    "give an e-mail address",
		"ann":                                 "no @",
		"ann@localhost":                       "domain such as",
		"Ann <ann@example.org>":               "just the address",
		"ann@example.org, ben@example.org":    "just the address",
		"ann@example.org\r\nBcc: x@y.example": "one line",
		"@example.org":                        "not an e-mail address",
		"ann@-x.example":                      "not a host name",
		"ann@x..example":                      "not an e-mail address",
		"ann@x_y.example":                     "not a host name",
		strings.Repeat("a", 250) + "@x.org":   "too long",
	} {
		if got, err := ParseAddress(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseAddress(%q) = %q, %v; want an error saying %q", in, got, err, want)
		}
	}
}

// FuzzParseSMTP: whatever the operator writes, ParseSMTP answers a
// usable server or an error, never shows the password in the error, and
// what it answers reads back the same from its String.
func FuzzParseSMTP(f *testing.F) {
	for _, s := range []string{"smtp://user:pass@mail.example.org:587?from=parlour@example.org", "smtps://h.example?from=a@b.example",
		"smtp://[::1]:25?from=a@b.example", "smtp://u:@h?from=x", "smtp://%zz", "smtp://h.example?from=A <a@b.example>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		s, err := ParseSMTP(raw)
		if err != nil {
			if s != nil {
				t.Fatalf("ParseSMTP(%q) answered both %+v and %v", raw, s, err)
			}
			return
		}
		if s.Addr == "" || s.From == "" {
			t.Fatalf("ParseSMTP(%q) = %+v: no address or sender", raw, s)
		}
		if _, err := ParseAddress(s.From); err != nil {
			t.Fatalf("ParseSMTP(%q)'s sender %q is refused: %v", raw, s.From, err)
		}
		again, err := ParseSMTP(s.String())
		if err != nil || again.Addr != s.Addr || again.From != s.From || again.User != s.User || again.Implicit != s.Implicit {
			t.Fatalf("ParseSMTP(%q) = %+v, but its String %q reads back as %+v, %v", raw, s, s.String(), again, err)
		}
	})
}

// FuzzParseAddress: an address ParseAddress takes is one line, within
// SMTP's limit, parses back as itself, and is taken again unchanged.
func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"ann@example.org", "Ann <ann@example.org>", "a@b", "\"a b\"@c.example", "a@b.c\r\n", "zoë@exämple.org"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		a, err := ParseAddress(in)
		if err != nil {
			return
		}
		if strings.ContainsAny(a, "\r\n") || len(a) > maxAddress || !strings.Contains(a, "@") {
			t.Fatalf("ParseAddress(%q) = %q", in, a)
		}
		if again, err := ParseAddress(a); err != nil || again != a {
			t.Fatalf("ParseAddress(%q) = %q, but that gives %q, %v", in, a, again, err)
		}
	})
}
