//go:build !unix

package main

// openFileLimit returns 0: the limit is not known here.
func openFileLimit() uint64 { return 0 }
