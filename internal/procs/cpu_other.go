//go:build !unix

package procs

import "time"

// processCPU reports that the process's CPU time cannot be read here:
// the Governor leaves the processors alone.
func processCPU() (time.Duration, bool) { return 0, false }
