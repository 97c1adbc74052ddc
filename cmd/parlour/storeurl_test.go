package main

import (
	"strings"
	"testing"
)

// TestStoreURLHidesPassword checks that a PostgreSQL password given in
// --store, in the user part or as a parameter (libpq's password= and
// sslpassword=, which PostgreSQL's URLs accept), never reaches what the
// server prints or logs about the store: its name, nor the error for a
// URL that does not parse.
func TestStoreURLHidesPassword(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url  string
		want string // what the name or the error shows
	}{
		{"postgres://parlour:s3cret@db:5432/parlour?sslmode=disable", "postgres://parlour:xxxxx@db:5432/parlour?sslmode=disable"},
		{"postgres://parlour@db/parlour?password=s3cret&sslmode=disable", "postgres://parlour@db/parlour?password=xxxxx&sslmode=disable"},
		{"postgresql://parlour@db/parlour?sslmode=verify-full&sslpassword=s3cret", "sslpassword=xxxxx"},
		{"postgres://parlour@db/parlour?Password=s3cret", "Password=xxxxx"},
		{"postgres://parlour@db/parlour?pass%77ord=s3cret", "=xxxxx"},
		{"postgres://parlour:s3cret@db/par%zzlour", "does not parse"},
		{"postgres://parlour@db/par%zzlour?password=s3cret", "does not parse"},
		{"postgres://parlour:s3cret/x@db/parlour", "escape @, :, /, ? and #"},
		{"postgres://db:port/parlour", "invalid port"},
		// A password of digits up to a / reads as the host's port, and
		// the rest, @ and all, as the path: the URL parses.
		{"postgres://parlour:1234/5678@db/parlour", "escape @, :, /, ? and #"},
		{"postgres://parlour:1234/@db/parlour", "escape @, :, /, ? and #"},
		{"postgres://parlour:1234?x@db/parlour", "escape @, :, /, ? and #"},
		{"postgres://parlour:1234#x@db/parlour", "escape @, :, /, ? and #"},
		// An @ in a parameter's value is no password's.
		{"postgres://db:5432/parlour?user=ann@example", "user=ann@example"},
		// libpq's key=value words are refused, not taken for a file
		// named after them.
		{"host=127.0.0.1 port=5432 password=s3cret", "give it as a URL"},
		{"dbname=parlour user=parlour password=s3cret", "give it as a URL"},
		{" Password = s3cret host=db", "give it as a URL"},
	} {
		w, err := parseStore(tc.url, t.TempDir())
		shown := w.String()
		if err != nil {
			shown = err.Error()
		}
		if strings.Contains(shown, "s3cret") {
			t.Errorf("--store %s shows %q: the password", tc.url, shown)
		}
		if !strings.Contains(shown, tc.want) {
			t.Errorf("--store %s shows %q, want it to hold %q", tc.url, shown, tc.want)
		}
	}
}

// FuzzStoreURLHidesPassword checks, for any password, that a --store
// URL holding it never shows it, whether the URL is taken or refused.
func FuzzStoreURLHidesPassword(f *testing.F) {
	for _, pw := range []string{"s3cret", "1234/5678", "12345", "a/b", "p@ss", "x#y", "9/", "%zz"} {
		f.Add(pw)
	}
	f.Fuzz(func(t *testing.T, pw string) {
		// The mark starts the password, so that any of its start the
		// name or the error shows is told from the rest of the text.
		pw = "Zq9" + pw
		for _, conn := range []string{
			"postgres://parlour:" + pw + "@db:5432/parlour",
			"postgres://parlour@db/parlour?password=" + pw,
		} {
			w, err := parseStore(conn, t.TempDir())
			shown := w.String()
			if err != nil {
				shown = err.Error()
			}
			if strings.Contains(shown, "Zq9") {
				t.Errorf("--store %q shows %q: the password", conn, shown)
			}
		}
	})
}
