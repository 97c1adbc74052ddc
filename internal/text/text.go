// Package text checks what players write for one another to read, display
// names and chat messages alike: whatever is shown must be what its
// writer typed, and show as something. A text is refused, with the rule
// it broke in a player's words, when it is not UTF-8, or holds a control
// character, a direction control, an invisible or private-use character,
// or a mark or variation selector that belongs to no character, or is too
// long. Names and messages differ only in the Rules they are checked by.
package text

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxMarks caps the combining marks on one character: enough for any
// language's accents, too few to smear a text over its neighbours.
const MaxMarks = 4

// MaxJoined caps the emoji one sign joins (by zero width joiners, and
// skin tones): a family of four is the largest in use, and a longer
// chain counts a sign for every MaxJoined, so that it cannot carry a
// text past Rules.Max.
const MaxJoined = 4

// Rules are what differs between the kinds of text a player writes.
type Rules struct {
	// Noun is what the refusals call the text: "a name may not hold...".
	Noun string
	// Max caps the text's characters (a letter with its accents counts
	// once, and emoji joined into one sign count once).
	Max int
	// Collapse makes each run of white space one space, as a name has
	// it. Otherwise the text is only trimmed at its ends, and a line
	// break inside it is refused as a control character (the refusal
	// then names line breaks, the control character a player types).
	Collapse bool
	// Joiners keeps a zero width joiner between two characters, as emoji
	// sequences have it; otherwise it is refused as invisible.
	Joiners bool
	// Explain adds to two refusals why the rule is there: a private-use
	// character shows differently everywhere; a mark that starts a word
	// belongs to no letter.
	Explain bool
}

// Rule names a rule a text broke.
type Rule int

// The rules a text may break.
const (
	Encoding   Rule = iota + 1 // not UTF-8
	Control                    // a control character
	Direction                  // a direction control (a bidirectional formatting character)
	Selector                   // a variation selector that follows no character
	Invisible                  // an invisible character
	Unassigned                 // a private-use or unassigned character
	Mark                       // a combining mark that starts a word
	Marks                      // more than MaxMarks marks on one character
	Long                       // more than Rules.Max characters
)

// Error is a refused text: the rule it broke, and what a player reads.
type Error struct {
	Rule Rule
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Check checks s by rules and returns it in the form to keep:
// NFC-normalised, without white space at its ends (and with each run of
// it made one space, when rules.Collapse says so). A text of nothing but
// white space comes back "", without an error: whether it may be empty is
// the caller's to say. An error is an *Error.
func Check(s string, rules Rules) (string, error) {
	refuse := func(rule Rule, format string, args ...any) (string, error) {
		return "", &Error{Rule: rule, Msg: "a " + rules.Noun + " " + fmt.Sprintf(format, args...)}
	}
	if !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
		return refuse(Encoding, "must be UTF-8 text: this one holds bytes that are not")
	}
	s = norm.NFC.String(s)
	if rules.Collapse {
		s = strings.Join(strings.Fields(s), " ")
	} else {
		s = strings.TrimSpace(s)
	}
	controls, unassigned, mark := "control characters", "", ""
	if !rules.Collapse {
		controls = "control characters such as line breaks"
	}
	if rules.Explain {
		unassigned, mark = ", which show differently everywhere", ": it belongs to no letter"
	}
	chars, marks, joined := 0, 0, 0
	var prev, sign rune // the last rune, and the last that is no joiner, mark or selector
	for i, r := range s {
		switch {
		case unicode.IsControl(r), unicode.In(r, unicode.Zl, unicode.Zp):
			// The line and paragraph separators break a line as \n
			// does, and are refused as it is.
			return refuse(Control, "may not hold %s (%U)", controls, r)
		case unicode.Is(unicode.Bidi_Control, r):
			return refuse(Direction, "may not hold direction controls, which reorder the text around them (%U)", r)
		case unicode.Is(unicode.Variation_Selector, r):
			// After a joiner it selects nothing: the joiner's next
			// character is to come.
			if i == 0 || unicode.IsSpace(prev) || unicode.Is(unicode.Variation_Selector, prev) || prev == '\u200d' {
				return refuse(Selector, "may not hold a variation selector that follows no character (%U)", r)
			}
		case rules.Joiners && r == '\u200d' && joins(s, i, prev):
			// joins two characters into one sign
		case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), r == '\u2800':
			return refuse(Invisible, "may not hold invisible characters (%U)", r)
		case unicode.Is(unicode.Co, r) || !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs):
			return refuse(Unassigned, "may not hold private-use or unassigned characters (%U)%s", r, unassigned)
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc):
			if i == 0 || unicode.IsSpace(prev) {
				return refuse(Mark, "may not start a word with an accent or other combining mark (%U)%s", r, mark)
			}
			if marks++; marks > MaxMarks {
				return refuse(Marks, "may have at most %d accents or marks on one character", MaxMarks)
			}
		default:
			// An emoji joined to the emoji before it, or a skin tone
			// on it, is part of its sign, as it shows.
			if emoji(sign) && (prev == '\u200d' && emoji(r) || skinTone(r)) && joined < MaxJoined-1 {
				joined++
			} else {
				chars++
				joined = 0
			}
			marks = 0
			sign = r
		}
		prev = r
	}
	if chars > rules.Max {
		return refuse(Long, "may be at most %d characters; this one has %d", rules.Max, chars)
	}
	return s, nil
}

// joins reports whether the zero width joiner at byte i of s stands
// between two characters: it neither starts nor ends s, nor touches a
// space or another joiner. (Joiners in a row join nothing, and would
// make a text of a few characters as long as its writer liked.)
func joins(s string, i int, prev rune) bool {
	next, _ := utf8.DecodeRuneInString(s[i+len("\u200d"):])
	return i > 0 && i+len("\u200d") < len(s) && !unicode.IsSpace(prev) && !unicode.IsSpace(next) && prev != '\u200d' && next != '\u200d'
}

// emoji reports whether r is a symbol that emoji sequences join: the
// pictographs (category So), and the skin tones that colour them (Sk).
func emoji(r rune) bool { return unicode.Is(unicode.So, r) || skinTone(r) }

// skinTone reports whether r is one of the five emoji skin tone
// modifiers, which colour the emoji before them.
func skinTone(r rune) bool { return r >= 0x1F3FB && r <= 0x1F3FF }
