//go:build unix

package main

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// ownLike gives the files paths that exist the owner and group of the
// directory dir, when this process runs as root and they differ: an
// operator who restores as root must not leave the server's own user
// files it cannot open (the server then refuses to start).
func ownLike(dir string, paths ...string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Uid == 0 && st.Gid == 0 {
		return nil
	}
	for _, p := range paths {
		if err := os.Lchown(p, int(st.Uid), int(st.Gid)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
