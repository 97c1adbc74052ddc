//go:build !linux

package pgtest

import "syscall"

// procAttr runs the server as cred.
func procAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred}
}
