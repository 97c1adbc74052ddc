//go:build !linux

package main

import "errors"

// restarts says whether this system starts parlour serve again with a
// steady monitor: measured on Linux only.
const restarts = false

// restart is not done here.
func restart([]string) error { return errors.New("not on this system") }
