//go:build !linux

package main

import "syscall"

// nodeAttr is nil where a child cannot be tied to its parent's life.
func nodeAttr() *syscall.SysProcAttr { return nil }
