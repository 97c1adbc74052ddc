//go:build unix && !linux

package pgtest

import "syscall"

// procAttr runs the server as cred.
func procAttr(cred *runAs) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred}
}
