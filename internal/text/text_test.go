package text

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The two kinds of text the server checks.
var (
	name    = Rules{Noun: "name", Max: 24, Collapse: true, Explain: true}
	message = Rules{Noun: "message", Max: 200, Joiners: true}
)

func TestCheck(t *testing.T) {
	t.Parallel()
	good := []struct {
		rules   Rules
		in, out string
	}{
		{name, "Ann", "Ann"},
		{name, "  Ben \t Smith\n", "Ben Smith"},
		{name, "Ben\u2028Smith", "Ben Smith"},
		{message, "  good  luck \t", "good  luck"},
		{name, "Zoe\u0308", "Zoë"},
		{message, "Zoe\u0308", "Zoë"},
		{name, "   ", ""},
		{message, " \t\n ", ""},
		{name, "A\u2764\uFE0F", "A\u2764\uFE0F"},
		{message, "👩\u200d💻", "👩\u200d💻"},
		{message, "👁\uFE0F\u200d🗨\uFE0F", "👁\uFE0F\u200d🗨\uFE0F"},
		{name, strings.Repeat("e\u0301", 24), strings.Repeat("é", 24)},
		{message, strings.Repeat("x", 200), strings.Repeat("x", 200)},
		// Emoji joined into one sign count once: a family, a
		// technologist with a skin tone.
		{message, strings.Repeat("👨\u200d👩\u200d👧", 200), strings.Repeat("👨\u200d👩\u200d👧", 200)},
		{message, strings.Repeat("👩🏽\u200d💻", 200), strings.Repeat("👩🏽\u200d💻", 200)},
		{message, strings.Repeat("👍🏻", 200), strings.Repeat("👍🏻", 200)},
		{name, "x\u0301\u0302\u0303\u0304", "x\u0301\u0302\u0303\u0304"},
	}
	for _, tc := range good {
		got, err := Check(tc.in, tc.rules)
		if err != nil || got != tc.out {
			t.Errorf("Check(%q, %s) = %q, %v; want %q", tc.in, tc.rules.Noun, got, err, tc.out)
		}
	}
	bad := []struct {
		rules Rules
		in    string
		rule  Rule
		msg   string
	}{
		{name, "Ann\xff", Encoding, "a name must be UTF-8 text: this one holds bytes that are not"},
		{message, "\xc3", Encoding, "a message must be UTF-8 text: this one holds bytes that are not"},
		{name, "Ann\x1b[31m", Control, "a name may not hold control characters (U+001B)"},
		{message, "a\nb", Control, "a message may not hold control characters such as line breaks (U+000A)"},
		{message, "a\u2028b", Control, "a message may not hold control characters such as line breaks (U+2028)"},
		{message, "a\u2029b", Control, "a message may not hold control characters such as line breaks (U+2029)"},
		{name, "Ann\u202Eevil", Direction, "a name may not hold direction controls, which reorder the text around them (U+202E)"},
		{message, "\u2067hi", Direction, "a message may not hold direction controls, which reorder the text around them (U+2067)"},
		{name, "Ann \uFE0F", Selector, "a name may not hold a variation selector that follows no character (U+FE0F)"},
		{message, "A\uFE0F\uFE0F", Selector, "a message may not hold a variation selector that follows no character (U+FE0F)"},
		{name, "👩\u200d💻", Invisible, "a name may not hold invisible characters (U+200D)"},
		{message, "\u200d", Invisible, "a message may not hold invisible characters (U+200D)"},
		{message, "a \u200d b", Invisible, "a message may not hold invisible characters (U+200D)"},
		{message, "a\u200d", Invisible, "a message may not hold invisible characters (U+200D)"},
		// One joiner joins two characters: more of them, or selectors
		// after one, join nothing and show as nothing, however many
		// there are (a message of two characters could fill a request
		// with them).
		{message, strings.Repeat("👨\u200d👩\u200d👧", 201), Long, "a message may be at most 200 characters; this one has 201"},
		// Letters a joiner joins still count one by one, and a chain
		// of emoji longer than any sign counts a sign every MaxJoined.
		{message, strings.Repeat("a\u200db", 100) + "c", Long, "a message may be at most 200 characters; this one has 201"},
		{message, strings.Repeat("🙂\u200d", 800) + "🙂", Long, "a message may be at most 200 characters; this one has 201"},
		{message, "a\u200d\u200db", Invisible, "a message may not hold invisible characters (U+200D)"},
		{message, "a" + strings.Repeat("\u200d", 10000) + "b", Invisible, "a message may not hold invisible characters (U+200D)"},
		{message, "a\u200d\uFE0Fb", Selector, "a message may not hold a variation selector that follows no character (U+FE0F)"},
		{message, strings.Repeat("a\uFE0F\u200d\uFE0F\u200d", 100) + "b", Selector, "a message may not hold a variation selector that follows no character (U+FE0F)"},
		{name, "\u2800", Invisible, "a name may not hold invisible characters (U+2800)"},
		{name, "\uE000", Unassigned, "a name may not hold private-use or unassigned characters (U+E000), which show differently everywhere"},
		{message, "\uE000", Unassigned, "a message may not hold private-use or unassigned characters (U+E000)"},
		{name, "Ann \u0301", Mark, "a name may not start a word with an accent or other combining mark (U+0301): it belongs to no letter"},
		{message, "\u0301hi", Mark, "a message may not start a word with an accent or other combining mark (U+0301)"},
		{message, "x\u0301\u0302\u0303\u0304\u0305", Marks, "a message may have at most 4 accents or marks on one character"},
		{name, strings.Repeat("x", 25), Long, "a name may be at most 24 characters; this one has 25"},
		{message, strings.Repeat("é", 201), Long, "a message may be at most 200 characters; this one has 201"},
	}
	for _, tc := range bad {
		got, err := Check(tc.in, tc.rules)
		var e *Error
		if !errors.As(err, &e) || e.Rule != tc.rule || e.Error() != tc.msg || got != "" {
			t.Errorf("Check(%q, %s) = %q, %v; want rule %d: %q", tc.in, tc.rules.Noun, got, err, tc.rule, tc.msg)
		}
	}
}

// FuzzCheck: by either kind of rules, a text is refused with an *Error,
// or kept as UTF-8 in NFC without white space at its ends (nor runs of
// it, when collapsed), of at most Max characters and without controls or
// invisible characters (a joiner between two characters aside, where the
// rules keep one); a kept text is kept again unchanged.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"Ann", "", "  Ben  Smith ", "a\nb", "abc\u202edef", "a\u200bb", "👩\u200d💻", "\u200d", "a \u200d b",
		strings.Repeat("é", 30), strings.Repeat("e\u0301", 201), "\xff", "עמר", "A\u2764\uFE0F", "\uFE0F", "\u3164",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, isName bool) {
		rules := message
		if isName {
			rules = name
		}
		c, err := Check(s, rules)
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Rule < Encoding || e.Rule > Long || !strings.HasPrefix(e.Msg, "a "+rules.Noun+" ") {
				t.Fatalf("Check(%q, %s): %#v", s, rules.Noun, err)
			}
			return
		}
		if c != strings.TrimSpace(c) || !utf8.ValidString(c) || !norm.NFC.IsNormalString(c) || rules.Collapse && strings.Contains(c, "  ") {
			t.Fatalf("Check(%q, %s) = %q", s, rules.Noun, c)
		}
		// The characters shown, each emoji of a sign apart: at most
		// MaxJoined a sign.
		chars := 0
		for _, r := range c {
			joiner := rules.Joiners && r == '\u200d'
			if !joiner && unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Bidi_Control, unicode.Other_Default_Ignorable_Code_Point) {
				t.Fatalf("Check(%q, %s) = %q, which holds %U", s, rules.Noun, c, r)
			}
			if !unicode.In(r, unicode.M) && !joiner && !unicode.Is(unicode.Variation_Selector, r) {
				chars++
			}
		}
		if chars > rules.Max*MaxJoined || (chars == 0) != (c == "") {
			t.Fatalf("Check(%q, %s) = %q: %d characters", s, rules.Noun, c, chars)
		}
		if again, err := Check(c, rules); err != nil || again != c {
			t.Fatalf("Check(%q, %s) = %q, but Check(%q) = %q, %v", s, rules.Noun, c, c, again, err)
		}
	})
}
