//go:build !unix

package main

// ownLike does nothing here: files take their owner from the directory's
// rights on this system.
func ownLike(dir string, paths ...string) error { return nil }
