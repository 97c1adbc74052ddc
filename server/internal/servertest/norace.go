//go:build !race

package servertest

// Race says the tests run under the race detector (race.go).
const Race = false
