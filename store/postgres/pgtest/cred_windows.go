package pgtest

import "syscall"

// runAs is empty: Windows has no root to step down from, and the server
// runs as the current user.
type runAs struct{}

// credential returns nil: the server runs as the current user.
func credential() (*runAs, error) { return nil, nil }

// chown is never called: credential returns nil.
func chown(string, *runAs) error { return nil }

// procAttr returns nil: the server runs as the current user.
func procAttr(*runAs) *syscall.SysProcAttr { return nil }
