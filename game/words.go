package game

import "strconv"

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
