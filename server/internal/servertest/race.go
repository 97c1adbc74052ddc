//go:build race

package servertest

// Race says the tests run under the race detector, whose instrumented
// frames are larger and slower: a bound on stacks or speed does not hold
// there.
const Race = true
