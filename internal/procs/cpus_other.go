//go:build !linux

package procs

import "time"

// cpus holds a process's threads to one CPU; only Linux lets a process
// do it here.
type cpus struct{}

func newCPUs() *cpus { return nil }

func (c *cpus) hold(one bool) error { return nil }

func waited() (time.Duration, bool) { return 0, false }
