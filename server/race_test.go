//go:build race

package server_test

// raceEnabled says the tests run under the race detector, whose
// instrumented frames are larger: a stack bound does not hold there.
const raceEnabled = true
