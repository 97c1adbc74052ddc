package account

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"parlour/game"
	salvobot "parlour/games/salvo/bot"
	wordfightbot "parlour/games/wordfight/bot"
)

func TestCheckName(t *testing.T) {
	tests := []struct {
		name string
		want string // a part of the error, or "" for none
	}{
		{"abc", ""},
		{"Albertine", ""},
		{"marcel_1871", ""},
		{"du-cote-de-chez", ""},
		{"12345678901234567890", ""},
		{"0x", "at least 3"},
		{"ab", "at least 3"},
		{"", "choose a name"},
		{"123456789012345678901", "at most 20"},
		{"a b c", "spaces"},
		{"Zoë", `not 'ë'`},
		{"tab\there", `not '\t'`},
		{"bad\x00name", `not '\x00'`},
		{"bad\xffname", "not '\ufffd'"},
		{"a.b.c", `not '.'`},
		{"name@example", `not '@'`},
		{"ab/cd", `not '/'`},
		{"ＡＢＣ", `not 'Ａ'`},
		{"_abc", "begin with a letter or a digit"},
		{"-rf", "begin with a letter or a digit"},
		{"abc_", ""},
		{"computer", "computer player"},
		{"Computer", "computer player"},
		{"COMPUTER", "computer player"},
		{"com_put-er", "computer player"},
		{"admin", "house"},
		{"Admin", "house"},
		{"Parlour", "house"},
		{"SYSTEM", "house"},
		{"moderator", "house"},
		{"deleted", "deleted accounts"},
		{"Deleted_Player", "deleted accounts"},
		{"deleted-player", "deleted accounts"},
		{"deletedplayer", "deleted accounts"},
		{"guest", "guests"},
		{"Guest1234", "guests"},
		{"guest_0042", "guests"},
		{"Guest-7", "guests"},
		{"guesthouse", ""},
		{"spectator", "server calls"},
		{"The-Computer", "server calls"},
		{"the_grid", "server calls"},
		{"easy", "computer player"},
		{"Medium", "computer player"},
		{"STRONG", "computer player"},
		{"hunt-target", "computer player"},
		{"Hunt_Target", "computer player"},
		{"strongest", ""},
		{"administrators", ""},
	}
	for _, tc := range tests {
		err := CheckName(tc.name)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckName(%q) = %v, want nil", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("CheckName(%q) = %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

// TestBotLevelsReserved checks that no player can take the name of a
// computer player's level, in any game.
func TestBotLevelsReserved(t *testing.T) {
	levels := []string{game.Easy, game.Medium, game.Strong}
	levels = append(levels, salvobot.Levels()...)
	levels = append(levels, wordfightbot.Levels()...)
	for _, l := range levels {
		for _, name := range []string{l, strings.ToUpper(l), strings.ToUpper(l[:1]) + l[1:]} {
			if Reserved(name) == "" {
				t.Errorf("level %q: Reserved(%q) is empty", l, name)
			}
		}
	}
}

func TestKey(t *testing.T) {
	for _, names := range [][]string{
		{"Albertine", "albertine", "ALBERTINE", "aLbErTiNe"},
		{"Marcel_1871", "marcel_1871"},
	} {
		for _, n := range names {
			if Key(n) != Key(names[0]) {
				t.Errorf("Key(%q) = %q, Key(%q) = %q; want equal", n, Key(n), names[0], Key(names[0]))
			}
		}
	}
	if Key("marcel-1") == Key("marcel_1") {
		t.Error("'-' and '_' make different names")
	}
	// Letters that Unicode lowers to ASCII are not folded: a name that
	// cannot be chosen never keys to one that can.
	for _, n := range []string{"00\u0130", "\u212Aate", "ALBERT\u0130NE"} {
		if k := Key(n); CheckName(k) == nil {
			t.Errorf("Key(%q) = %q, a name that can be chosen", n, k)
		}
	}
}

// FuzzCheckName checks CheckName's promises for any string: what it
// accepts keeps the rules, and its refusals are readable text.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"abc", "Albertine", "computer", "Guest1234", "a b", "Zoë", "_x_", "\xff\xfe", "deleted-player"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := CheckName(name)
		if err != nil {
			if msg := err.Error(); msg == "" || !utf8.ValidString(msg) {
				t.Fatalf("CheckName(%q): unreadable error %q", name, msg)
			}
			if CheckName(Key(name)) == nil && Reserved(name) == "" {
				t.Fatalf("CheckName(%q) = %v but its key %q is accepted", name, err, Key(name))
			}
			return
		}
		if len(name) < MinNameLen || len(name) > MaxNameLen {
			t.Fatalf("CheckName accepted %q of %d characters", name, len(name))
		}
		for _, r := range name {
			if !nameRune(r) {
				t.Fatalf("CheckName accepted %q holding %q", name, r)
			}
		}
		if Reserved(name) != "" {
			t.Fatalf("CheckName accepted reserved %q", name)
		}
		k := Key(name)
		if Key(k) != k || CheckName(k) != nil || CheckName(strings.ToUpper(name)) != nil {
			t.Fatalf("CheckName accepted %q but not its other cases", name)
		}
	})
}

// TestReservedLookalikes: a name that only looks like a reserved one, by
// case, accents, spaces and signs, digits for letters, letters of another
// script or full-width letters, is reserved as that one is; names that
// merely contain one, or differ by a real letter, are not.
func TestReservedLookalikes(t *testing.T) {
	for _, tc := range []struct {
		name string
		want string // a part of the reason, or "" for none
	}{
		{"adm1n", `house (it reads as "admin")`},
		{"ADMlN", "house"},
		{"Parlour", "house"},
		{"P@rl0ur", "house"},
		{"ｐａｒｌｏｕｒ", "house"},
		{"Pärlöur", "house"},
		{"аdmin", "house"}, // a Cyrillic а
		{"$ystem", "house"},
		{"r00t", "house"},
		{"Computer (strong)", "computer player"},
		{"computer strong", "computer player"},
		{"C0mputer (5trong)", "computer player"},
		{"Computer (easy)", "computer player"},
		{"Computer 3 (easy)", "computer player"},
		{"computer 12", "computer player"},
		{"deleted player", "deleted accounts"},
		{"De1eted Player", "deleted accounts"},
		{"Guest 1234", "guests"},
		{"Gue5t", "guests"},
		{"Gue5t42", "guests"},
		{"GuestO42", "guests"},
		{"9uest1", "guests"},
		{"guest_0042", "guests"},
		{"C0mputer2", "computer player"},
		{"Cornputer2", "computer player"},
		{"C0mputer3easy", "computer player"},
		{"C0mputer 2 (easy)", "computer player"},
		{"Computer 2 (5trong)", "computer player"},
		{"Guesto", ""},
		{"Guest book", ""},
		{"Computer 2 fans", ""},
		{"spectat0r", "server calls"},
		{"b0t", "computer player"},
		{"Ann", ""},
		{"admiral", ""},
		{"Computer fan", ""},
		{"Computer 3 fan", ""},
		{"Strong Ann", ""},
		{"guesthouse", ""},
		{"Zoë", ""},
		{"李小龍", ""},
	} {
		got := Reserved(tc.name)
		switch {
		case tc.want == "" && got != "":
			t.Errorf("Reserved(%q) = %q, want none", tc.name, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("Reserved(%q) = %q, want a reason saying %q", tc.name, got, tc.want)
		}
	}
}

func TestSkeleton(t *testing.T) {
	for _, names := range [][]string{
		{"admin", "Adm1n", "ADMlN", "аdmin", "ａｄｍｉｎ", "Âdmîn", "a d m i n"},
		{"bob", "B0B", "b-o-b", "8ob"},
		{"modern", "rnodern", "MODERN"},
		// Letters with a stroke, bar or hook, which decomposing leaves
		// whole, upper case or lower.
		{"dan", "Đan", "ĐAN", "ɗan"},
		{"kolo", "ƙøłø", "KØŁØ"},
		{"zeta", "ƶeŧa", "ȥɇŧɑ"},
	} {
		for _, n := range names {
			if Skeleton(n) != Skeleton(names[0]) {
				t.Errorf("Skeleton(%q) = %q, Skeleton(%q) = %q; want equal", n, Skeleton(n), names[0], Skeleton(names[0]))
			}
		}
	}
	if Skeleton("ann") == Skeleton("anne") {
		t.Error("ann and anne share a skeleton")
	}
}

// BenchmarkReserved measures the check every new guest's or account's
// name goes through: a plain name and one in another script.
func BenchmarkReserved(b *testing.B) {
	for _, name := range []string{"Guest Player", "Пётр Иванов"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if why := Reserved(name); why != "" {
					b.Fatal(why)
				}
			}
		})
	}
}

// FuzzFold: the shortcuts Base and Skeleton take give what the general
// transforms give, for any input.
func FuzzFold(f *testing.F) {
	for _, s := range []string{"Admin", "rnodern", "vvvv", "rrnn", "ADMlN", "Pärlöur", "ｐａｒｌｏｕｒ", "K\u212a", "", "a\x00b\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := fold(s), cases.Fold().String(norm.NFKD.String(s)); got != want {
			t.Errorf("fold(%q) = %q, want %q", s, got, want)
		}
		if got, want := joinPairs(s), strings.NewReplacer("rn", "m", "vv", "w").Replace(s); got != want {
			t.Errorf("joinPairs(%q) = %q, want %q", s, got, want)
		}
	})
}

func TestCheckPrefix(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ prefix, want string }{
		{"a", ""},
		{"An", ""},
		{"an_d-9", ""},
		{"9", ""},
		{strings.Repeat("x", MaxNameLen), ""},
		{"", "type the start of a name"},
		{strings.Repeat("x", MaxNameLen+1), "at most 20 characters"},
		{"_a", "begins with a letter or a digit"},
		{"-", "begins with a letter or a digit"},
		{"a b", `not ' '`},
		{"añ", `not 'ñ'`},
		{"a%", `not '%'`},
	} {
		err := CheckPrefix(c.prefix)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckPrefix(%q) = %v, want %q", c.prefix, err, c.want)
		}
	}
}

// FuzzCheckPrefix: every start of a name CheckName accepts passes
// CheckPrefix, and what passes is a name's alphabet only.
func FuzzCheckPrefix(f *testing.F) {
	for _, s := range []string{"Ann", "a_b-c", "_x", "a b", "Ünal", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckName(s) == nil {
			for i := 1; i <= len(s); i++ {
				if err := CheckPrefix(s[:i]); err != nil {
					t.Fatalf("CheckPrefix(%q), the start of the name %q: %v", s[:i], s, err)
				}
			}
		}
		if CheckPrefix(s) == nil && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" {
			t.Fatalf("CheckPrefix(%q) passed a character no name holds", s)
		}
	})
}
