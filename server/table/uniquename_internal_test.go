package table

import "testing"

// TestUniqueName: a name a seat already has takes the first number free
// after it, before a closing parenthesis where it has one, so that the
// number does not read as a score after the name; names differing only
// in case count as the same.
func TestUniqueName(t *testing.T) {
	t.Parallel()
	seats := func(names ...string) []seatMeta {
		var out []seatMeta
		for _, n := range names {
			out = append(out, seatMeta{Name: n})
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		seats []seatMeta
		skip  int
		give  string
		want  string
	}{
		{"free", seats("Ann", "Ben"), 1, "Cy", "Cy"},
		{"its own seat", seats("Ann", "Ben"), 1, "Ben", "Ben"},
		{"taken", seats("Ann", "Ben"), 1, "Ann", "Ann 2"},
		{"taken in another case", seats("ann", "Ben"), 1, "Ann", "Ann 2"},
		{"taken twice", seats("Ann", "Ann 2", ""), 2, "Ann", "Ann 3"},
		{"a computer", seats("Computer (easy)", "Ann", ""), 2, "Computer (easy)", "Computer 2 (easy)"},
		{"a third computer", seats("Computer (easy)", "Computer 2 (easy)", ""), 2, "Computer (easy)", "Computer 3 (easy)"},
		{"a parenthesis alone", seats("(x)", ""), 1, "(x)", "(x) 2"},
	} {
		if got := uniqueName(tc.seats, tc.give, tc.skip); got != tc.want {
			t.Errorf("%s: uniqueName(%q) = %q, want %q", tc.name, tc.give, got, tc.want)
		}
	}
}
