//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time the process has used, in user and system
// mode together: a server's system calls (its sockets, its store's
// writes) are much of its work. ok is false if the system would not say.
func Process() (d time.Duration, ok bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
