//go:build unix

package main

import "syscall"

// openFileLimit returns the process's limit on open files (Go raises the
// soft limit to the hard one at start), or 0 when it cannot be read.
func openFileLimit() uint64 {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0
	}
	return uint64(l.Cur) // an int64 on the BSDs, whose "unlimited" is the largest
}
