package analysis

import (
	"testing"

	salvobot "parlour/games/salvo/bot"
)

// TestSalvoWords: a salvo's squares read as the game's reports write them
// however the move was typed, and an estimated count gives its interval
// only where its bounds differ as written.
func TestSalvoWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ move, want string }{
		{"fire h2 h3 h4", "H2 H3 H4"},
		{"FIRE A1 J10", "A1 J10"},
		{"  Fire  b7 ", "B7"},
		{"fire a-1 J-10", "A1 J10"},
		{"fire", ""},
	} {
		if got := salvoSquares(tc.move); got != tc.want {
			t.Errorf("salvoSquares(%q) = %q, want %q", tc.move, got, tc.want)
		}
	}
	for _, tc := range []struct {
		c    salvobot.Count
		want string
	}{
		{salvobot.Count{Exact: true, Fleets: 4080}, "4080"},
		{salvobot.Count{Fleets: 2.4e7, Low: 2.31e7, High: 2.46e7}, "about 2.4e7 (2.3e7-2.5e7, too many to count)"},
		{salvobot.Count{Fleets: 1.71e9, Low: 1.705e9, High: 1.72e9}, "about 1.7e9 (too many to count)"},
	} {
		if got := count(tc.c); got != tc.want {
			t.Errorf("count(%+v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}
