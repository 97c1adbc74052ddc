package nymphabet

import (
	"strings"
	"testing"
)

func TestMarked(t *testing.T) {
	tests := []struct{ word, deleted, want string }{
		{"aback", "A, B, C", "ABaCk"},
		{"abdicated", "A, B, C, D", "ABdiCateD"},
		{"zabaglione", "Z, A, B", "ZABaglione"},
		{"jackal", "J, K, L", "JacKaL"},
		{"zip", "Z", "Zip"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := Marked(tt.word, tt.deleted); got != tt.want {
			t.Errorf("Marked(%q, %q) = %q, want %q", tt.word, tt.deleted, got, tt.want)
		}
	}
}

func TestViewString(t *testing.T) {
	v := View{
		Mode:     Standard,
		Alphabet: make([]LetterView, 26),
		Left:     23,
		Current:  "D",
		Words:    []WordView{{By: 0, Word: "ABACK", Deleted: "A, B, C"}, {By: 1, Word: "DEFT", Deleted: "D, E, F"}},
		Players:  []PlayerView{{Name: "Ann", Letters: 3, Turns: 1}, {Name: "Computer (easy)", Letters: 3, Turns: 1}},
	}
	for i := range v.Alphabet {
		v.Alphabet[i] = LetterView{Letter: string(rune('A' + i)), Deleted: i < 3}
	}
	got := v.String()
	// The words line up after the longest name.
	for _, want := range []string{"---DEFGHIJKLMNOPQRSTUVWXYZ", "next word begins with D", "  1. Ann              ABaCk\n", "  2. Computer (easy)  DEFt\n", "Ann: 3 letters in 1 turn"} {
		if !strings.Contains(got, want) {
			t.Errorf("String() lacks %q:\n%s", want, got)
		}
	}
}
