package game

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{0, "0 seats"},
		{1, "1 seat"},
		{2, "2 seats"},
		{-1, "-1 seat"},
		{11, "11 seats"},
	} {
		if got := Count(c.n, "seat", "seats"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
