package main

import "syscall"

// nodeAttr makes a node process the test starts die with the test's
// process, even when the test is killed before its cleanups run.
func nodeAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
