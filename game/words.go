package game

import (
	"strconv"
	"strings"
	"time"
)

// List writes items as a sentence lists them: "a", "a and b", "a, b and
// c"; "" for none.
func List(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// Count writes n and the noun that goes with it, singular for one and
// plural otherwise: Count(1, "seat", "seats") is "1 seat", Count(0,
// "point", "points") "0 points". Every message that counts something
// says it through Count, so that none reads "1 seats".
func Count(n int, one, many string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + one
	}
	return strconv.Itoa(n) + " " + many
}

// PlayerRange writes how many players a game takes, as a game's
// Players gives them: "2 players", "1 to 8 players".
func PlayerRange(lo, hi int) string {
	if lo == hi {
		return Count(lo, "player", "players")
	}
	return strconv.Itoa(lo) + " to " + strconv.Itoa(hi) + " players"
}

// Span writes d in words, its two largest units at most, rounded down to
// the second: "10 seconds", "1 minute", "6 minutes and 1 second", "1 day".
// A player reads it; Go's "6m1s" is for programs.
func Span(d time.Duration) string {
	units := []struct {
		d         time.Duration
		one, many string
	}{{24 * time.Hour, "day", "days"}, {time.Hour, "hour", "hours"}, {time.Minute, "minute", "minutes"}, {time.Second, "second", "seconds"}}
	var parts []string
	for _, u := range units {
		if n := int(d / u.d); n > 0 && len(parts) < 2 {
			parts = append(parts, Count(n, u.one, u.many))
			d -= time.Duration(n) * u.d
		} else if len(parts) > 0 {
			break
		}
	}
	if len(parts) == 0 {
		return "0 seconds"
	}
	return strings.Join(parts, " and ")
}
