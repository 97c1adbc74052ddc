package account

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// DeletedName is what a deleted account is called where it leaves a
// trace (the records of its finished games, its chat lines): Reserved
// keeps it from every player, so that the name itself says the account
// is gone.
const DeletedName = "deleted player"

// The length of an account name, in characters (all of them ASCII).
const (
	MinNameLen = 3
	MaxNameLen = 20
)

// Key returns the canonical form of an account name: names that differ
// only in case are one name, so the store keys accounts by Key(name) and
// keeps the name as its owner typed it for display. Key is meant for names
// CheckName accepts; for them it is ASCII lower case. It folds ASCII
// letters alone, so that a name CheckName refuses never keys to one it
// accepts: Unicode's lower case would key "00İ" to "00i" and the Kelvin
// sign's "Kate" to "kate", and a lookup by such a name would land on
// another player's account.
func Key(name string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, name)
}

// CheckName reports whether name may be chosen as an account name: 3 to 20
// characters, each an ASCII letter, a digit, '_' or '-', beginning with a
// letter or a digit (so that a name never reads as a command-line flag),
// and not reserved (see [Reserved]). Whether the name is already taken is
// the store's question, asked with [Key].
func CheckName(name string) error {
	if name == "" {
		return errors.New("choose a name")
	}
	for i, r := range name {
		if !nameRune(r) {
			if r == ' ' {
				return errors.New("a name may not hold spaces: use _ or - between words")
			}
			return fmt.Errorf("a name may hold only letters a to z, digits, _ and -, not %q", r)
		}
		if i == 0 && (r == '_' || r == '-') {
			return errors.New("a name must begin with a letter or a digit")
		}
	}
	// Every character is ASCII, so bytes count characters.
	if len(name) < MinNameLen {
		return fmt.Errorf("a name needs at least %d characters", MinNameLen)
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("a name may have at most %d characters", MaxNameLen)
	}
	if why := Reserved(name); why != "" {
		return fmt.Errorf("%q is reserved: %s; choose another name", name, why)
	}
	return nil
}

// CheckPrefix reports whether some name CheckName accepts could begin
// with prefix, in a player's words when none could: a search for the
// names that begin so asks nothing of the store for a prefix that cannot
// match.
func CheckPrefix(prefix string) error {
	switch {
	case prefix == "":
		return errors.New("type the start of a name to find")
	case len(prefix) > MaxNameLen:
		return fmt.Errorf("a name has at most %d characters", MaxNameLen)
	case prefix[0] == '_' || prefix[0] == '-':
		return fmt.Errorf("a name begins with a letter or a digit, not %q", prefix[:1])
	}
	for _, r := range prefix {
		if !nameRune(r) {
			return fmt.Errorf("a name holds only letters a to z, digits, _ and -, not %q", r)
		}
	}
	return nil
}

func nameRune(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-'
}

// Reserved returns why name is kept from players, or "" when it is not.
// A name is reserved when, ignoring case, accents, spaces and signs, it is
// the house's ("admin", "parlour", "system", "moderator" and the like),
// what the server calls someone ("deleted", "deleted player", "guest"
// with or without a number, "spectator", "anonymous", and "the computer"
// and "the grid", the hidden side of a game played alone), or a computer
// player's ("computer", "Computer (strong)", "Computer 3 (easy)", "bot"
// and the computer players' levels: "easy", "medium", "strong", "greedy",
// "greedy-best", "random", "hunt-target", "density", "fleet-density"); or
// when it only looks like one of those, spelt with digits or signs for
// letters ("adm1n", "C0mputer"), with letters of another script that look
// the same (a Cyrillic "а"), or in full-width letters (see [Skeleton]): a
// player choosing one could pass for the house, for a deleted account or
// for a computer player.
func Reserved(name string) string {
	f := Base(name)
	switch {
	case f == "":
		return ""
	case guestLike(f):
		return "it is what guests are called"
	case numberedComputer(f):
		return "it is a computer player's name"
	}
	if why := reservedWhy(f); why != "" {
		return why
	}
	sk := Skeleton(name)
	for _, r := range reservedNames() {
		for _, w := range r.names {
			if Skeleton(w) == sk {
				return fmt.Sprintf("%s (it reads as %q)", r.why, w)
			}
		}
	}
	return ""
}

// guestLike says whether the folded name f is, or looks like, "guest"
// alone or with a number ("Guest 0042", "Gue5t42", "GuestO42").
func guestLike(f string) bool {
	for _, rest := range after(f, "guest") {
		if rest == "" || number(rest) {
			return true
		}
	}
	return false
}

// numberedComputer says whether the folded name f is, or looks like,
// what a table calls one of several computer players of a level
// ("Computer 3 (easy)", "C0mputer3easy"), or such a name without its
// level.
func numberedComputer(f string) bool {
	for _, rest := range after(f, "computer") {
		for i := 1; i <= len(rest); i++ {
			switch level := rest[i:]; {
			case !number(rest[:i]):
			case level == "":
				return true
			default:
				if sk := Skeleton(level); sk == "easy" || sk == "medium" || sk == "strong" {
					return true
				}
			}
		}
	}
	return false
}

// after returns what follows each start of the folded name f that reads
// as word (whose Skeleton is word).
func after(f, word string) []string {
	var rests []string
	for i := range f {
		if i > 0 && Skeleton(f[:i]) == word {
			rests = append(rests, f[i:])
		}
	}
	if Skeleton(f) == word {
		rests = append(rests, "")
	}
	return rests
}

// number says whether s reads as a number: it holds a digit, and every
// letter of it passes for one (Skeleton's digits read back: "O42").
func number(s string) bool {
	digit := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case !strings.ContainsRune("oilsaetbg", r):
			return false
		}
	}
	return digit
}

// reservedWhy returns why the folded name f is reserved, or "".
func reservedWhy(f string) string {
	for _, r := range reservedNames() {
		if slices.Contains(r.names, f) {
			return r.why
		}
	}
	return ""
}

// reservedNames lists the reserved names, folded, with why each group is
// kept. The computer players' levels are game.Easy, game.Medium and
// game.Strong, and the baseline players of games/salvo/bot and
// games/wordfight/bot; a test checks that every level the bots accept is
// here. A computer player sits as "Computer (LEVEL)".
func reservedNames() []struct {
	why   string
	names []string
} {
	return []struct {
		why   string
		names []string
	}{
		{"it is kept for the house", []string{"admin", "administrator", "moderator", "mod", "parlour", "system",
			"root", "staff", "support", "server", "house", "official"}},
		{"it is what deleted accounts are called", []string{"deleted", "deletedplayer", "deleteduser", "deletedaccount"}},
		{"it is what the server calls someone", []string{"spectator", "anonymous", "thecomputer", "thegrid"}},
		{"it is a computer player's name", []string{"computer", "bot", "easy", "medium", "strong", "greedy", "greedybest",
			"random", "hunttarget", "density", "fleetdensity", "computereasy", "computermedium", "computerstrong"}},
	}
}

// Base returns the form of a display name that names differing only in
// case, accents, width, spaces and signs share: its letters and digits,
// decomposed (NFKD, so that full-width letters and ligatures become
// plain ones), without their accents, case-folded, with the letters of
// other scripts that look like Latin ones made Latin. For an account name
// it is the name folded as the reserved names are: lower case, without
// '_' and '-'.
func Base(name string) string {
	name = fold(name)
	var b strings.Builder
	for _, r := range name {
		if l, ok := lookalike(r); ok {
			r = l
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Skeleton returns the form that names which look alike share: Base,
// with the digits and signs that pass for letters read as those letters
// ("adm1n", "$ystem" and "p@rlour" read as "admin", "system" and
// "parlour"), the letters easily taken for one another made one ('l' and
// 'I' read as 'i'), and "rn" read as "m" and "vv" as "w". Two names with
// one skeleton may be taken for each other.
func Skeleton(name string) string {
	name = fold(name)
	var b strings.Builder
	for _, r := range name {
		if l, ok := lookalike(r); ok {
			r = l
		}
		switch r {
		case '0':
			r = 'o'
		case '1', 'l', '|', '!':
			r = 'i'
		case '3':
			r = 'e'
		case '4', '@':
			r = 'a'
		case '5', '$':
			r = 's'
		case '7', '+':
			r = 't'
		case '8':
			r = 'b'
		case '9':
			r = 'g'
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return joinPairs(b.String())
}

// fold returns name decomposed (NFKD) and case-folded. A name in ASCII,
// as most are, is its own decomposition and folds to its lower case, so
// it skips the general transforms, which cost tens of times more: every
// new name is checked against each reserved one.
func fold(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return cases.Fold().String(norm.NFKD.String(name))
		}
	}
	return strings.ToLower(name)
}

// joinPairs reads "rn" as "m" and "vv" as "w", left to right, as
// strings.Replacer would, without building one for each name.
func joinPairs(s string) string {
	if !strings.Contains(s, "rn") && !strings.Contains(s, "vv") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 'r' && i+1 < len(s) && s[i+1] == 'n':
			b = append(b, 'm')
			i++
		case s[i] == 'v' && i+1 < len(s) && s[i+1] == 'v':
			b = append(b, 'w')
			i++
		default:
			b = append(b, s[i])
		}
	}
	return string(b)
}

// Latin returns the Latin letter that r, a lower-case letter of another
// script (Cyrillic, Greek) or a Latin letter of another form, looks like,
// and r itself when it looks like none: what reads names as their
// skeletons reads other text alike (the chat's filter of words).
func Latin(r rune) rune {
	l, _ := lookalike(r)
	return l
}

// lookalike returns the Latin letter that a lower-case letter of another
// script (Cyrillic, Greek) or a Latin letter of another form looks like.
// The Latin letters with a stroke, bar or hook (ø, ł, đ, ƙ) are here
// because decomposing leaves them whole: they hold no accent to take off.
func lookalike(r rune) (rune, bool) {
	switch r {
	case 'а', 'α', 'ɑ', 'ⱥ':
		return 'a', true
	case 'в', 'β', 'ƀ', 'ɓ', 'ƃ':
		return 'b', true
	case 'с', 'ϲ', 'ƈ', 'ȼ', 'ɕ':
		return 'c', true
	case 'ԁ', 'đ', 'ɗ', 'ɖ', 'ƌ', 'ȡ':
		return 'd', true
	case 'е', 'ε', 'ё', 'ɇ':
		return 'e', true
	case 'ƒ':
		return 'f', true
	case 'ɡ', 'ǥ', 'ɠ':
		return 'g', true
	case 'һ', 'н', 'ħ', 'ɦ':
		return 'h', true
	case 'і', 'ι', 'ı', 'ї', 'ɨ':
		return 'i', true
	case 'ј', 'ɉ', 'ʝ':
		return 'j', true
	case 'к', 'κ', 'ƙ', 'ⱪ':
		return 'k', true
	case 'ӏ', 'ł', 'ƚ', 'ɫ', 'ɬ', 'ɭ', 'ȴ':
		return 'l', true
	case 'м', 'ɱ':
		return 'm', true
	case 'η', 'п', 'ɲ', 'ƞ', 'ɳ', 'ȵ':
		return 'n', true
	case 'о', 'ο', 'σ', 'ø', 'ɵ':
		return 'o', true
	case 'р', 'ρ', 'ƥ', 'ᵽ':
		return 'p', true
	case 'ԛ', 'ʠ', 'ɋ':
		return 'q', true
	case 'ɍ', 'ɽ', 'ɼ':
		return 'r', true
	case 'ѕ', 'ʂ', 'ȿ':
		return 's', true
	case 'т', 'τ', 'ŧ', 'ƭ', 'ʈ', 'ƫ', 'ȶ':
		return 't', true
	case 'υ', 'μ', 'ʉ':
		return 'u', true
	case 'ν', 'ʋ':
		return 'v', true
	case 'ԝ', 'ω', 'ⱳ':
		return 'w', true
	case 'х', 'χ':
		return 'x', true
	case 'у', 'γ', 'ɏ', 'ƴ':
		return 'y', true
	case 'ƶ', 'ȥ', 'ʐ', 'ʑ', 'ɀ':
		return 'z', true
	}
	return r, false
}
