package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
)

// Backup copies the database at path into a new file at dest: a
// consistent snapshot of every commit made before it began, taken while
// a server goes on writing (SQLite's VACUUM INTO reads one transaction,
// and the writer is not held up), compacted, and checked before Backup
// returns. dest must not exist; it is made readable by its owner alone,
// as the database is, since it holds the same password and token
// hashes. The copy opens with Open like any database, which brings an
// older copy's schema up to date. The copy, and its directory's entry for
// it, reach the disk before Backup returns: SQLite does not sync what
// VACUUM INTO writes.
func Backup(ctx context.Context, path, dest string) error {
	return backup(ctx, path, dest, (*os.File).Sync)
}

// backup is Backup, syncing the copy and its directory with sync.
func backup(ctx context.Context, path, dest string, sync func(*os.File) error) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	absDest, err := filepath.Abs(dest)
	if err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	// VACUUM INTO fills an empty file: made here first, with the mode the
	// copy must have and never over another file.
	f, err := os.OpenFile(absDest, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	f.Close()
	if err := copyInto(ctx, path, absDest); err != nil {
		os.Remove(absDest)
		return fmt.Errorf("sqlite: backing %s up: %w", path, err)
	}
	for _, p := range []string{absDest, filepath.Dir(absDest)} {
		if err := syncPath(p, sync); err != nil {
			os.Remove(absDest)
			return fmt.Errorf("sqlite: backing %s up: %w", path, err)
		}
	}
	return nil
}

// syncPath syncs the file or directory at path with sync.
func syncPath(path string, sync func(*os.File) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := sync(f); err != nil {
		return fmt.Errorf("syncing %s: %w", path, err)
	}
	return nil
}

// copyInto runs VACUUM INTO from the database at path to the empty file
// dest, then checks the copy.
func copyInto(ctx context.Context, path, dest string) error {
	src, err := openPlain(path)
	if err != nil {
		return err
	}
	defer src.Close()
	if _, err := src.ExecContext(ctx, "VACUUM INTO ?", dest); err != nil {
		return err
	}
	cp, err := openPlain(dest)
	if err != nil {
		return err
	}
	defer cp.Close()
	var ok string
	if err := cp.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&ok); err != nil {
		return fmt.Errorf("checking the copy: %w", err)
	}
	if ok != "ok" {
		return errors.New("the copy fails its check: " + ok)
	}
	return nil
}

// openPlain opens the database file at path for a task of its own, with
// none of the store's settings and no migrations: it reads, and waits its
// turn behind a server's writer rather than failing at once.
func openPlain(path string) (*sql.DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: abs}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// Restore puts a copy of the database at backup (one Backup made) in
// place of the database at path, which no server may be using: the
// caller holds the server's lock. The copy is made and checked beside
// path first, so a failed restore leaves the database as it was. The
// database it replaces moves aside whole, with its -wal and -shm, to
// path+aside, so nothing in it is lost; left in place, the old -wal
// would be replayed over the restored database at its next opening,
// and SQLite cannot tell that it belongs to another one.
func Restore(ctx context.Context, backup, path, aside string) error {
	return restore(ctx, backup, path, aside, (*os.File).Sync)
}

// restore is Restore, syncing with sync.
func restore(ctx context.Context, backup, path, aside string, sync func(*os.File) error) error {
	if _, err := os.Stat(backup); err != nil {
		return fmt.Errorf("sqlite: restore: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("sqlite: restore: %w", err)
	}
	tmp := abs + ".restoring"
	// One left by a restore cut short is no one's.
	os.Remove(tmp)
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("sqlite: restore: %w", err)
	}
	f.Close()
	if err := copyInto(ctx, backup, tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("sqlite: restoring %s: %w", backup, err)
	}
	if err := syncPath(tmp, sync); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("sqlite: restoring %s: %w", backup, err)
	}
	// The database first, so that a -wal without it is never the
	// only one left in place.
	for _, suffix := range []string{"", "-wal", "-shm"} {
		err := os.Rename(abs+suffix, abs+aside+suffix)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			os.Remove(tmp)
			return fmt.Errorf("sqlite: restore: moving the database it replaces aside: %w", err)
		}
	}
	if err := os.Rename(tmp, abs); err != nil {
		return fmt.Errorf("sqlite: restore: %w (the database it replaces is at %s)", err, abs+aside)
	}
	if err := syncPath(filepath.Dir(abs), sync); err != nil {
		return fmt.Errorf("sqlite: restore: %w", err)
	}
	return nil
}
