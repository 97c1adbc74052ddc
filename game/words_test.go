package game

import (
	"testing"
	"time"
)

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

func TestSpan(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                                     "0 seconds",
		time.Second:                           "1 second",
		10 * time.Second:                      "10 seconds",
		time.Minute:                           "1 minute",
		6*time.Minute + time.Second:           "6 minutes and 1 second",
		5*time.Minute + 1500*time.Millisecond: "5 minutes and 1 second",
		time.Hour + 30*time.Second:            "1 hour",
		2*time.Hour + 3*time.Minute:           "2 hours and 3 minutes",
		24 * time.Hour:                        "1 day",
		49 * time.Hour:                        "2 days and 1 hour",
	} {
		if got := Span(d); got != want {
			t.Errorf("Span(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{"Ann"}, "Ann"},
		{[]string{"Ann", "Ben"}, "Ann and Ben"},
		{[]string{"Ann", "Ben", "Cat"}, "Ann, Ben and Cat"},
		{[]string{"Ann", "Ben", "Cat", "Dan"}, "Ann, Ben, Cat and Dan"},
	} {
		if got := List(c.items); got != c.want {
			t.Errorf("List(%q) = %q, want %q", c.items, got, c.want)
		}
	}
}
