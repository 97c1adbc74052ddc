package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"parlour/sshdoor"
	"parlour/store/sqlite"
)

// adminRestore puts the data directory dir, which parlour admin backup
// made, in place of the server's: its database over the one at where,
// and its SSH door's files over those in data. The server must be
// stopped: restore takes its lock for the while. What it replaces moves
// aside, under a name that says when, rather than being deleted, the
// database with its -wal and -shm (left in place, the old -wal would be
// replayed over the restored database). Run as root, it gives what it
// restores the owner of the directory it restores into: the server's
// user, who must be able to open it.
func adminRestore(ctx context.Context, where storeAt, data, dir string, stdout, stderr io.Writer) int {
	if where.postgres != "" {
		fmt.Fprintln(stderr, "parlour admin restore: the store is PostgreSQL: restore it with pg_restore (see docs/deploy.md)")
		return 2
	}
	backup := filepath.Join(dir, "parlour.db")
	if fi, err := os.Stat(backup); err != nil || !fi.Mode().IsRegular() {
		fmt.Fprintf(stderr, "parlour admin restore: %s holds no parlour.db: give a directory parlour admin backup made\n", dir)
		return 1
	}
	if same, _ := sameFile(backup, where.path); same {
		fmt.Fprintf(stderr, "parlour admin restore: %s is the server's own database: give the backup's directory\n", backup)
		return 2
	}
	if err := os.MkdirAll(filepath.Dir(where.path), 0o700); err != nil {
		fmt.Fprintf(stderr, "parlour admin restore: %v\n", err)
		return 1
	}
	lock, err := lockStore(where.path)
	if err != nil {
		fmt.Fprintf(stderr, "parlour admin restore: %v\n", err)
		return 1
	}
	defer lock.Release()
	aside := ".before-restore-" + time.Now().UTC().Format("20060102T150405Z")
	_, statErr := os.Stat(where.path)
	had := statErr == nil
	if err := sqlite.Restore(ctx, backup, where.path, aside); err != nil {
		fmt.Fprintf(stderr, "parlour admin restore: %v\n", err)
		return 1
	}
	if err := ownLike(filepath.Dir(where.path), where.path, where.path+"-wal", where.path+"-shm", where.path+".lock"); err != nil {
		fmt.Fprintf(stderr, "parlour admin restore: giving the restored database its directory's owner: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Restored %s from %s.\n", where.path, backup)
	if had {
		fmt.Fprintf(stdout, "The database it replaced is at %s.\n", where.path+aside)
	}
	for _, f := range []struct{ file, what string }{
		{sshdoor.HostKeyFile, "the SSH host key"},
		{sshdoor.GuestsFile, "the SSH door's guests"},
	} {
		b, err := os.ReadFile(filepath.Join(dir, f.file))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		dest := filepath.Join(data, f.file)
		if err == nil {
			err = os.MkdirAll(data, 0o700)
		}
		if err == nil {
			err = os.Rename(dest, dest+aside)
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		}
		if err == nil {
			err = writeSynced(dest, b)
		}
		if err == nil {
			err = ownLike(data, dest)
		}
		if err != nil {
			fmt.Fprintf(stderr, "parlour admin restore: %s: %v\n", f.what, err)
			return 1
		}
		fmt.Fprintf(stdout, "Restored %s, %s.\n", f.what, f.file)
	}
	return 0
}

// sameFile reports whether a and b name one file.
func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}
