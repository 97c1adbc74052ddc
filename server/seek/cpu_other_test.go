//go:build !unix

package seek

import "time"

// processCPU is not measured here.
func processCPU() time.Duration { return 0 }
