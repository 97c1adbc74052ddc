package invite

import (
	"strings"
	"testing"
)

// TestNewUniqueAndUnambiguous makes many codes and checks each is Len
// characters of the alphabet and parses to itself, and that codes repeat
// no more often than random ones would.
func TestNewUniqueAndUnambiguous(t *testing.T) {
	const n = 20000
	seen := make(map[string]bool, n)
	repeats := 0
	counts := make(map[rune]int)
	for i := 0; i < n; i++ {
		c, err := New()
		if err != nil {
			t.Fatal(err)
		}
		if len(c) != Len {
			t.Fatalf("code %q has %d characters, want %d", c, len(c), Len)
		}
		for _, r := range c {
			if strings.ContainsRune("01ILO", r) || !strings.ContainsRune(Alphabet, r) {
				t.Fatalf("code %q holds %q, outside the alphabet", c, r)
			}
			counts[r]++
		}
		if got, err := Parse(strings.ToLower(Format(c))); err != nil || got != c {
			t.Fatalf("Parse(lower(Format(%q))) = %q, %v", c, got, err)
		}
		if seen[c] {
			repeats++
			t.Logf("code %q made twice in %d", c, i)
		}
		seen[c] = true
	}
	// Random codes repeat now and then: 20,000 of 31^6 hold a repeat
	// about one time in five (about 0.23 repeats expected), and more than
	// five about once in seven million. A generator with less randomness
	// than it should have, a million codes say, would repeat about 200
	// times.
	if repeats > 5 {
		t.Errorf("%d codes of %d were repeats; random codes would hardly ever repeat more than 5 times", repeats, n)
	}
	// Every character of the alphabet turns up, none far more than the
	// others (expected n*Len/31 ≈ 3871 each).
	for _, r := range Alphabet {
		if c := counts[r]; c < 3300 || c > 4450 {
			t.Errorf("%q appears %d times in %d codes; want about %d", r, c, n, n*Len/len(Alphabet))
		}
	}
}

func TestAlphabetUnambiguous(t *testing.T) {
	for _, r := range "01ILOilo" {
		if strings.ContainsRune(Alphabet, r) {
			t.Errorf("alphabet holds %q", r)
		}
	}
	if len(Alphabet) != 31 {
		t.Errorf("alphabet has %d characters", len(Alphabet))
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{"K7M4PX", "K7M4PX", ""},
		{"k7m-4px", "K7M4PX", ""},
		{" k7m 4px ", "K7M4PX", ""},
		{"K-7-M-4-P-X", "K7M4PX", ""},
		{"", "", "has 0"},
		{"K7M4P", "", "has 5"},
		{"K7M4PXA", "", "has more"},
		{"K7M0PX", "", "'0' is not in invite codes"},
		{"K7MOPX", "", "'O' is not in"},
		{"K7MIPX", "", "'I' is not in"},
		{"K7M1PX", "", "'1' is not in"},
		{"k7mlpx", "", "'L' is not in"},
		{"K7M4P!", "", "'!' is not in"},
		{"k3x9q2m7c8v4r6tw", "", "has more"},
		{"https://x/t/abc", "", "is not in"},
		{"K7M4PÉ", "", "'É' is not in"},
	} {
		got, err := Parse(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("Parse(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Parse(%q) = %q, %v; want an error with %q", tc.in, got, err, tc.err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"K7M4PX", "k7m-4px", "", "0OIL1", "k3x9q2m7c8v4r6tw", "K7M 4PÉ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			if c != "" {
				t.Fatalf("Parse(%q) returned %q with its error", s, c)
			}
			return
		}
		if len(c) != Len {
			t.Fatalf("Parse(%q) = %q, not %d characters", s, c, Len)
		}
		for _, r := range c {
			if !strings.ContainsRune(Alphabet, r) {
				t.Fatalf("Parse(%q) = %q, holding %q", s, c, r)
			}
		}
		if again, err := Parse(Format(c)); err != nil || again != c {
			t.Fatalf("Parse(Format(%q)) = %q, %v", c, again, err)
		}
	})
}
