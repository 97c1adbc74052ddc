package chat

import (
	"net/http"
	"strings"
	"testing"

	"parlour/server/refuse"
)

// TestShippedFilter: the shipped list catches its words whole, in any
// case, with stand-ins and plurals, and lets ordinary words through,
// those that merely contain one of them included.
func TestShippedFilter(t *testing.T) {
	t.Parallel()
	f := ShippedFilter()
	if f.Len() < 5 {
		t.Fatalf("the shipped list has %d words", f.Len())
	}
	for _, c := range []struct {
		text string
		want bool
	}{
		{"good game", false},
		{"you KIKE", true},
		{"kike!", true},
		{"you K1KE!", true},
		{"k1ke, k1kes.", true},
		{"2024 was 4 good year", false},
		{"k1ke", true},
		{"F@GG0T", true},
		{"faggots all of you", true},
		{"w3tb4cks", true},
		{"so: towelhead.", true},
		{"skiked", false},   // a word that holds one is not it
		{"the gooks", true}, // plural
		{"gookie", false},   // nor a longer word
		{"spick and span", false},
		{"snigger", false},
		{"Niggardly", false},
		// What shows as a word of the list is read as it: with an
		// invisible joiner or a variation selector inside, in
		// full-width letters, with accents, in Cyrillic letters.
		{"you ki\u200dke", true},
		{"you kik\ufe0fe", true},
		{"you ＫＩＫＥ", true},
		{"you kíkè", true},
		{"you ki\u0307ke", true},
		{"you \u043aike", true},
		{"you faggøt", true},
		{"you ƙike", true},
		{"you KİKE", true},
		{"\u2066you ki\u200dke", true},
		{"café ☕\ufe0f 👩\u200d💻", false},
		{"", false},
	} {
		if got := f.Match(c.text); got != c.want {
			t.Errorf("Match(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	err := f.Check("k1ke")
	if refuse.Status(err) != http.StatusBadRequest || strings.Contains(err.Error(), "k1ke") {
		t.Errorf("Check: %v (status %d): want a 400 that does not repeat the word", err, refuse.Status(err))
	}
	if err := f.Check("well played"); err != nil {
		t.Errorf("Check of a kind message: %v", err)
	}
}

// TestParseFilter: an operator's list replaces the shipped one; comments
// and blank lines are skipped, and a line that is not one word is
// refused with its number.
func TestParseFilter(t *testing.T) {
	t.Parallel()
	f, err := ParseFilter(strings.NewReader("# house words\n\nPlonker\n  wally \nCrétin\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Len() != 3 || !f.Match("you PL0NKER") || !f.Match("Wally") || f.Match("kike") {
		t.Errorf("the operator's list: %d words, plonker %v, kike %v", f.Len(), f.Match("you PL0NKER"), f.Match("kike"))
	}
	// A word with accents is read without them, as messages are.
	for _, m := range []string{"you cretin", "CRÉTIN!", "cre\u0301tin"} {
		if !f.Match(m) {
			t.Errorf("the operator's list let %q through", m)
		}
	}
	for _, bad := range []string{"two words\n", "ok\nx-y\n", "#c\n42\n"} {
		if _, err := ParseFilter(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("ParseFilter(%q) = %v, want an error naming the line", bad, err)
		}
	}
	var none *Filter
	if none.Match("anything") {
		t.Error("a nil filter matched")
	}
}
