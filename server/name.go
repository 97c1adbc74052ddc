package server

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxNameLen caps a display name, in characters (letters, digits, signs
// and spaces: a letter with its accents counts once).
const MaxNameLen = 24

// maxMarks caps the combining marks on one character: enough for any
// language's accents, too few to smear a name over its neighbours.
const maxMarks = 4

// cleanName checks a display name and returns it in the form the server
// keeps: NFC-normalised, with runs of spaces made one and none at the
// ends. An empty name (or one of spaces) makes a guest name. A name is
// refused, with the rule it broke, when it is not UTF-8, holds a control
// character, a direction control, an invisible or private-use character,
// or a mark or variation selector that belongs to no character, or has
// more than MaxNameLen characters: whatever name is shown to the
// other players must be what its owner typed, and show as something.
func cleanName(name string) (string, error) {
	if !utf8.ValidString(name) || strings.ContainsRune(name, utf8.RuneError) {
		return "", badRequest("a name must be UTF-8 text: this one holds bytes that are not")
	}
	name = strings.Join(strings.Fields(norm.NFC.String(name)), " ")
	if name == "" {
		return fmt.Sprintf("Guest %04d", randomSeed()%10000), nil
	}
	chars, marks := 0, 0
	var prev rune
	for i, r := range name {
		switch {
		case unicode.IsControl(r):
			return "", badRequest("a name may not hold control characters (%U)", r)
		case unicode.Is(unicode.Bidi_Control, r):
			return "", badRequest("a name may not hold direction controls, which reorder the text around them (%U)", r)
		case unicode.Is(unicode.Variation_Selector, r):
			if i == 0 || prev == ' ' || unicode.Is(unicode.Variation_Selector, prev) {
				return "", badRequest("a name may not hold a variation selector that follows no character (%U)", r)
			}
		case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), r == '\u2800':
			return "", badRequest("a name may not hold invisible characters (%U)", r)
		case unicode.Is(unicode.Co, r) || !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs):
			return "", badRequest("a name may not hold private-use or unassigned characters (%U), which show differently everywhere", r)
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc):
			if i == 0 || prev == ' ' {
				return "", badRequest("a name may not start a word with an accent or other combining mark (%U): it belongs to no letter", r)
			}
			if marks++; marks > maxMarks {
				return "", badRequest("a name may have at most %d accents or marks on one character", maxMarks)
			}
		default:
			chars++
			marks = 0
		}
		prev = r
	}
	if chars > MaxNameLen {
		return "", badRequest("a name may be at most %d characters; this one has %d", MaxNameLen, chars)
	}
	if strings.EqualFold(name, "spectator") {
		return "", badRequest("%q is reserved", name)
	}
	return name, nil
}
