package main

import (
	"fmt"
	"os"
	"syscall"
)

// restarts says whether this system starts parlour serve again with a
// steady monitor: measured on Linux only.
const restarts = true

// restart replaces the process with this program started again with the
// same arguments and env; it returns only when it could not.
func restart(env []string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this program: %w", err)
	}
	if err := syscall.Exec(exe, os.Args, env); err != nil {
		return fmt.Errorf("starting %s again: %w", exe, err)
	}
	return nil
}
