package server_test

import (
	"context"
	"path/filepath"
	"testing"

	"parlour/internal/cputime"
)

// BenchmarkSignIn measures a sign-in: the account's lookup, an argon2id
// verification at the default parameters (64 MiB, three passes, four
// lanes) and a new session stored. It must take under 250 ms, or the
// player waits on it (docs/accounts.md). It also reports the processor
// time the process spent per sign-in (cpu-ms/op, all threads): on a busy
// machine the wall time swells with the queue for the processors, while
// the CPU time says what a sign-in costs.
func BenchmarkSignIn(b *testing.B) {
	ctx := context.Background()
	s, db, _ := openService(b, filepath.Join(b.TempDir(), "p.db"))
	defer db.Close()
	defer s.Close()
	if _, err := s.SignUp(ctx, nil, "Ann", "a long secret phrase"); err != nil {
		b.Fatal(err)
	}
	b.Run("right", func(b *testing.B) {
		defer cpuPerOp(b)()
		for b.Loop() {
			if _, err := s.SignIn(ctx, "Ann", "a long secret phrase"); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A name with no account costs the same: a dummy verification.
	b.Run("no-such-name", func(b *testing.B) {
		defer cpuPerOp(b)()
		for b.Loop() {
			if _, err := s.SignIn(ctx, "Nobody", "a long secret phrase"); err == nil {
				b.Fatal("signed in as nobody")
			}
		}
	})
	b.Run("wrong-password", func(b *testing.B) {
		defer cpuPerOp(b)()
		for b.Loop() {
			if _, err := s.SignIn(ctx, "Ann", "not the secret"); err == nil {
				b.Fatal("signed in with a wrong password")
			}
		}
	})
}

// cpuPerOp starts counting the process's processor time; the function it
// returns reports it per operation as cpu-ms/op.
func cpuPerOp(b *testing.B) func() {
	before, ok := cputime.Process()
	if !ok {
		b.Skip("no CPU time to read here")
	}
	return func() {
		after, _ := cputime.Process()
		b.ReportMetric(float64((after-before).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}
