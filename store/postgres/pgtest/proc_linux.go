package pgtest

import "syscall"

// procAttr runs the server as cred and stops it (SIGQUIT: immediate
// shutdown) if the test process dies without closing it.
func procAttr(cred *runAs) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT}
}
