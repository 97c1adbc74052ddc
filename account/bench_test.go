//go:build unix

package account

import (
	"fmt"
	"syscall"
	"testing"
	"time"
)

// BenchmarkHash measures a sign-in's cost, one Verify, at the default
// parameters and at the alternatives weighed in docs/accounts.md. Besides
// wall time it reports cpu-ms/op, the processor time the process spent
// per Verify (user and system, over all threads): on a busy machine the
// wall time swells with the queue for the processors, while the CPU time
// says what the hash itself costs. Run it alone, on an idle machine:
//
//	go test -run '^$' -bench Hash ./account/
func BenchmarkHash(b *testing.B) {
	for _, p := range []Params{
		DefaultParams(),
		{Memory: 64 * 1024, Time: 3, Threads: 2, SaltLen: 16, KeyLen: 32},
		{Memory: 64 * 1024, Time: 2, Threads: 4, SaltLen: 16, KeyLen: 32},
		{Memory: 46 * 1024, Time: 1, Threads: 4, SaltLen: 16, KeyLen: 32}, // OWASP's lightest argon2id
		{Memory: 128 * 1024, Time: 3, Threads: 4, SaltLen: 16, KeyLen: 32},
	} {
		encoded, err := HashWith(p, "correct horse battery staple")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("m=%dMiB,t=%d,p=%d", p.Memory/1024, p.Time, p.Threads), func(b *testing.B) {
			b.ReportAllocs()
			before := cpuTime()
			for b.Loop() {
				if ok, err := Verify(encoded, "correct horse battery stapler"); ok || err != nil {
					b.Fatal(ok, err)
				}
			}
			b.ReportMetric(float64((cpuTime()-before).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime returns the processor time the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
