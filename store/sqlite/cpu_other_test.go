//go:build !unix

package sqlite

import "time"

// processCPU reports nothing where the system's CPU time is not read.
func processCPU() time.Duration { return 0 }
