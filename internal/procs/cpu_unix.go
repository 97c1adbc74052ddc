//go:build unix

package procs

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, in user and
// system mode together: a busy server's system calls (its sockets, its
// store's writes) are much of its work.
func processCPU() (time.Duration, bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
