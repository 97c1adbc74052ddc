package chat

import (
	"net/http"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"parlour/server/refuse"

	"golang.org/x/text/unicode/norm"
)

// FuzzClean: a chat message is refused with a 400, or kept as UTF-8
// in NFC without spaces at its ends, of 1 to MaxLen characters and
// without controls or invisible characters (a joiner between two
// characters aside); a kept message is kept again unchanged.
func FuzzClean(f *testing.F) {
	for _, s := range []string{
		"good luck", "", "   ", "a\nb", "abc\u202edef", "a\u200bb", "👩\u200d💻", "\u200d", "a \u200d b",
		strings.Repeat("é", 200), strings.Repeat("e\u0301", 201), "\xff", "שלום", "A\u2764\uFE0F", "\uFE0F",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Clean(s)
		if err != nil {
			if refuse.Status(err) != http.StatusBadRequest || err.Error() == "" {
				t.Fatalf("Clean(%q): %v with status %d", s, err, refuse.Status(err))
			}
			return
		}
		if c == "" || c != strings.TrimSpace(c) || !utf8.ValidString(c) || !norm.NFC.IsNormalString(c) {
			t.Fatalf("Clean(%q) = %q", s, c)
		}
		chars := 0
		for _, r := range c {
			if r != '\u200d' && unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Bidi_Control, unicode.Other_Default_Ignorable_Code_Point) {
				t.Fatalf("Clean(%q) = %q, which holds %U", s, c, r)
			}
			if !unicode.In(r, unicode.M) && r != '\u200d' && !unicode.Is(unicode.Variation_Selector, r) {
				chars++
			}
		}
		if chars == 0 || chars > MaxLen {
			t.Fatalf("Clean(%q) = %q: %d characters", s, c, chars)
		}
		if again, err := Clean(c); err != nil || again != c {
			t.Fatalf("Clean(%q) = %q, but Clean(%q) = %q, %v", s, c, c, again, err)
		}
	})
}
