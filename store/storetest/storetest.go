// Package storetest is the behaviour every implementation of the store
// interfaces must show, as one table of tests: store/sqlite and
// store/postgres both run it (their own tests keep only what is theirs:
// migrations of old data, the log, a full disk). A new implementation
// passes Run before the server may use it.
//
// Each test gets a store on fresh data; those about durability close it
// and open the same data again, as after a restart. The optional
// interfaces (store.Players, store.Challenges, store.Moderation, ...) are tested when the
// store implements them; Run reports those it skipped.
package storetest

import (
	"testing"
	"time"

	"parlour/store"
)

// Harness is what Run needs of an implementation; every field is
// required.
type Harness struct {
	// Fresh returns where new, empty data lives (a file path, a
	// database's URL), removed when t ends.
	Fresh func(t *testing.T) string
	// Open opens a store on the data at where, failing t if it cannot.
	// Opening the same data again after Close is a restart.
	Open func(t *testing.T, where string) store.Store
	// Backdate makes table id of the data at where look last changed at
	// when, as if the store had been running for that long (an invite
	// code is freed 30 days after its table ended).
	Backdate func(t *testing.T, where, id string, when time.Time)
}

// env is one test's store and the data under it.
type env struct {
	t     *testing.T
	h     Harness
	where string
	s     store.Store
}

// reopen closes the store and opens its data again, as after a restart.
func (e *env) reopen() store.Store {
	e.t.Helper()
	if err := e.s.Close(); err != nil {
		e.t.Fatalf("closing the store: %v", err)
	}
	e.s = e.h.Open(e.t, e.where)
	return e.s
}

// A test of the table: it gets a fresh store in e.s.
type test struct {
	name string
	run  func(t *testing.T, e *env)
}

// Run runs every test of the suite against the stores h opens.
func Run(t *testing.T, h Harness) {
	var tests []test
	tests = append(tests, tableTests()...)
	tests = append(tests, playerTests()...)
	tests = append(tests, otherTests()...)
	tests = append(tests, leaseTests()...)
	tests = append(tests, moderationTests()...)
	tests = append(tests, emailTests()...)
	tests = append(tests, tournamentTests()...)
	tests = append(tests, chatRoomTests()...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{t: t, h: h, where: h.Fresh(t)}
			e.s = h.Open(t, e.where)
			defer func() { e.s.Close() }()
			tc.run(t, e)
		})
	}
}

// now is a time the suite stores: to the microsecond, in UTC, as every
// implementation keeps times (PostgreSQL's timestamptz has no finer
// grain).
func now() time.Time { return time.Now().Truncate(time.Microsecond).UTC() }

// as returns e's store as an optional interface, or skips the test when
// the store does not implement it.
func as[T any](t *testing.T, s store.Store) T {
	t.Helper()
	x, ok := s.(T)
	if !ok {
		var zero *T
		t.Skipf("the store (%T) does not implement %T", s, zero)
	}
	return x
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
