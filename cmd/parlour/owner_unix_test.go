//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"parlour/sshdoor"
	"parlour/store/sqlite"
)

// TestRestoreAsRootKeepsTheOwner: a restore run as root gives what it
// restores (the database, its lock file, the SSH host key) the owner of
// the data directory, the server's user, who could not open files left
// root's: the next start failed.
func TestRestoreAsRootKeepsTheOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: restores as root and hands the files to another user")
	}
	t.Parallel()
	ctx := context.Background()
	const uid, gid = 65534, 65534 // nobody's, as a service's user
	dir := t.TempDir()
	path := filepath.Join(dir, "parlour.db")
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seedAdmin(t, st)
	st.Close()
	if err := os.WriteFile(filepath.Join(dir, sshdoor.HostKeyFile), []byte("the key"), 0o600); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(t.TempDir(), "b")
	if code, out, errs := adminRun("--data", dir, "backup", backup); code != 0 {
		t.Fatalf("backup: %d %q %q", code, out, errs)
	}
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := adminRun("--data", dir, "restore", backup); code != 0 {
		t.Fatalf("restore: %d %q %q", code, out, errs)
	}
	for _, name := range []string{"parlour.db", "parlour.db.lock", sshdoor.HostKeyFile} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if s := fi.Sys().(*syscall.Stat_t); s.Uid != uid || s.Gid != gid {
			t.Errorf("restored %s is owned by %d:%d, want the directory's %d:%d", name, s.Uid, s.Gid, uid, gid)
		}
	}
}
