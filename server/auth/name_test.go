package auth

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/store"

	"golang.org/x/text/unicode/norm"
)

func TestCleanName(t *testing.T) {
	t.Parallel()
	good := []struct{ in, want string }{
		{"Ann", "Ann"},
		{"  Ben   Smith ", "Ben Smith"},
		{"Zoë", "Zoë"},
		{"Zoe\u0308", "Zoë"}, // NFC: e and a combining diaeresis make ë
		{"Ｆｕｌｌ", "Ｆｕｌｌ"},     // NFC keeps full-width letters (NFKC would not)
		{"Nguyễn Thị", "Nguyễn Thị"},
		{"李小龍", "李小龍"},
		{"عمر", "عمر"},                     // right-to-left script is fine; controls are not
		{"A\u2764\uFE0F", "A\u2764\uFE0F"}, // a variation selector after its character
		{"Ann\tB", "Ann B"},
		{strings.Repeat("é", MaxNameLen), strings.Repeat("é", MaxNameLen)},
		{strings.Repeat("e\u0301", MaxNameLen), strings.Repeat("é", MaxNameLen)},
	}
	for _, tc := range good {
		got, err := CleanName(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("CleanName(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	bad := []struct{ in, want string }{
		{"Ann\xff", "UTF-8"},
		{"\xc3", "UTF-8"},
		{"Ann\x00", "control characters"},
		{"Ann\x1b[31m", "control characters"},
		{"Ann\u202Eevil", "direction controls"}, // right-to-left override
		{"\u2067Ann", "direction controls"},     // right-to-left isolate
		{"Ann\u200F", "direction controls"},     // right-to-left mark
		{"\u200B", "invisible"},                 // zero width space
		{"Ann\u200D", "invisible"},              // zero width joiner
		{"\uFEFFAnn", "invisible"},              // byte order mark
		{"An\u00ADn", "invisible"},              // soft hyphen
		{"\u3164", "invisible"},                 // Hangul filler
		{"\u115F\u1160", "invisible"},           // Hangul choseong and jungseong fillers
		{"\u2800", "invisible"},                 // braille blank
		{"A\u034Fb", "invisible"},               // combining grapheme joiner
		{"\uFE0F", "variation selector"},
		{"Ann \uFE0F", "variation selector"},
		{"\u0301Ann", "combining mark"},
		{"Ann \u0301", "combining mark"},
		{"e\u0301\u0302\u0303\u0304\u0305\u0306", "at most 4 accents"},
		{"\uE000", "private-use"},
		{"\U0010FFFD", "private-use"},
		{strings.Repeat("x", MaxNameLen+1), "at most 24 characters; this one has 25"},
		{"spectator", "reserved"},
		{"the computer", "reserved"},
		{"The Grid", "reserved"},
		{"SPECTATOR", "reserved"},
	}
	for _, tc := range bad {
		got, err := CleanName(tc.in)
		if err == nil || refuse.Status(err) != http.StatusBadRequest || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CleanName(%q) = %q, %v; want a 400 saying %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "   ", "\t\n"} {
		if got, err := CleanName(in); err != nil || !strings.HasPrefix(got, "Guest ") {
			t.Errorf("CleanName(%q) = %q, %v; want a guest name", in, got, err)
		}
	}
}

func FuzzCleanName(f *testing.F) {
	for _, s := range []string{
		"Ann", "", "  Ben  Smith ", "spectator", "\x00", strings.Repeat("é", 30), "Ann\u202E", "\u200B",
		"\u3164", "e\u0301", "\uFE0F", "A\u2764\uFE0F", "\xff", "عمر",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := CleanName(s)
		if err != nil {
			if refuse.Status(err) != http.StatusBadRequest || err.Error() == "" {
				t.Fatalf("CleanName(%q): %v with status %d", s, err, refuse.Status(err))
			}
			return
		}
		if n == "" || n != strings.TrimSpace(n) || strings.Contains(n, "  ") || !utf8.ValidString(n) || !norm.NFC.IsNormalString(n) {
			t.Fatalf("CleanName(%q) = %q", s, n)
		}
		chars := 0
		for _, r := range n {
			if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Bidi_Control, unicode.Other_Default_Ignorable_Code_Point) {
				t.Fatalf("CleanName(%q) = %q, which holds %U", s, n, r)
			}
			if !unicode.In(r, unicode.M) {
				chars++
			}
		}
		if chars == 0 || chars > MaxNameLen {
			t.Fatalf("CleanName(%q) = %q: %d characters", s, n, chars)
		}
		// A clean name is clean again, unchanged; but a guest name the
		// server made up may not be typed ("Guest 0427" is reserved).
		if again, err := CleanName(n); (err != nil || again != n) && strings.TrimSpace(s) != "" {
			t.Fatalf("CleanName(%q) = %q, but CleanName(%q) = %q, %v", s, n, n, again, err)
		}
	})
}

// TestGuestName: a guest's typed name is refused when it is an account's
// name or spelt to look like one, naming the account nearest to it (of
// two accounts a name could pass for, the one with fewer letters
// changed); a name no account's look-alike is kept; and when the
// accounts cannot be read, the name is refused as a passing failure,
// not taken.
func TestGuestName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := servertest.SQLite(t)
	for _, acc := range []store.Account{
		{Identity: "idr", Name: "Robin", Key: "robin"},
		{Identity: "idb", Name: "R0b1n", Key: "r0b1n"}, // the store alone does not hold look-alikes apart
	} {
		acc.Hash, acc.Created = "$argon2id$"+acc.Identity, time.Now()
		id := store.Identity{ID: acc.Identity, Name: acc.Name, Created: acc.Created}
		if _, err := st.CreateAccount(ctx, acc, store.Credential{Hash: hashOf(acc.Identity), Identity: acc.Identity}, &id); err != nil {
			t.Fatalf("account %s: %v", acc.Name, err)
		}
	}
	a := New(st, slog.New(slog.DiscardHandler), 0)
	for _, c := range []struct {
		name   string
		status int    // 0: kept
		want   string // the name kept, or a part of the refusal
	}{
		{"Robin", http.StatusConflict, `"Robin" is the name of a player with an account`},
		{"robin", http.StatusConflict, `"robin" looks like "Robin"`},
		{"R0b1n", http.StatusConflict, `"R0b1n" is the name of a player with an account`},
		{"r0b1n", http.StatusConflict, `"r0b1n" looks like "R0b1n"`},
		{"Robln", http.StatusConflict, `"Robln" looks like "Robin"`}, // one letter from Robin, two from R0b1n
		{"Robins", 0, "Robins"},
		{"Robin Hood", 0, "Robin Hood"},
		{"  Rob  ", 0, "Rob"},
	} {
		got, err := a.GuestName(ctx, c.name)
		switch {
		case c.status == 0 && (err != nil || got != c.want):
			t.Errorf("GuestName(%q) = %q, %v; want %q", c.name, got, err, c.want)
		case c.status != 0 && (refuse.Status(err) != c.status || !strings.Contains(err.Error(), c.want) || got != ""):
			t.Errorf("GuestName(%q) = %q, %v; want a %d refusal saying %s", c.name, got, err, c.status, c.want)
		}
	}
	if got, err := a.GuestName(ctx, ""); err != nil || !strings.HasPrefix(got, "Guest ") {
		t.Errorf("GuestName of no name = %q, %v; want a guest name", got, err)
	}
	st.Close()
	if got, err := a.GuestName(ctx, "Marian"); refuse.Status(err) != http.StatusServiceUnavailable || !strings.Contains(err.Error(), "could not be read") || got != "" {
		t.Errorf("GuestName with the store closed = %q, %v; want a 503 refusal", got, err)
	}
}
