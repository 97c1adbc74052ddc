//go:build unix

package pgtest

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// runAs is the user the server runs as when the tests run as root.
type runAs = syscall.Credential

// credential returns the user to run the server as: nil for the current
// user, User's when the current user is root.
func credential() (*runAs, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup(User)
	if err != nil {
		return nil, fmt.Errorf("pgtest: running as root, PostgreSQL needs an unprivileged user %q: %w", User, err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("pgtest: user %s: %w", User, err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// chown gives path to cred's user.
func chown(path string, cred *runAs) error { return os.Chown(path, int(cred.Uid), int(cred.Gid)) }
