package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/store"
)

// account stores an account called name.
func account(s *Store, name string) error {
	at := time.Date(2026, 5, 6, 7, 8, 0, 0, time.UTC)
	id := "id" + name
	a := store.Account{Identity: id, Name: name, Key: strings.ToLower(name), Hash: "$argon2id$x", Created: at}
	_, err := s.CreateAccount(context.Background(), a, store.Credential{Hash: []byte(id), Identity: id}, &store.Identity{ID: id, Name: name, Created: at})
	return err
}

// TestBackup: a backup taken while the store goes on writing holds every
// commit made before it began, opens as a store, and is its owner's
// alone; the writes made meanwhile all reach the live store.
func TestBackup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "parlour.db"))
	defer s.Close()
	for _, n := range []string{"Ann", "Bob"} {
		if err := account(s, n); err != nil {
			t.Fatal(err)
		}
	}

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 50 {
			if err := account(s, fmt.Sprintf("Writer%d", i)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	dest := filepath.Join(t.TempDir(), "copy.db")
	if err := Backup(ctx, filepath.Join(dir, "parlour.db"), dest); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if fi, err := os.Stat(dest); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the copy: %v, %v; want mode 0600", fi.Mode(), err)
	}
	cp := open(t, dest)
	defer cp.Close()
	for _, key := range []string{"ann", "bob"} {
		if a, err := cp.AccountByKey(ctx, key); err != nil || a.Key != key {
			t.Errorf("the copy's account %q: %+v, %v", key, a, err)
		}
	}
	if a, err := s.AccountByKey(ctx, "writer49"); err != nil || a.Name != "Writer49" {
		t.Errorf("a write made during the backup: %+v, %v", a, err)
	}
}

// TestBackupRefusals: a backup never writes over a file, and a missing
// database is an error, not a new empty one; nothing is left behind.
func TestBackupRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "parlour.db"))
	defer s.Close()
	taken := filepath.Join(dir, "taken.db")
	if err := os.WriteFile(taken, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, dest, want string
	}{
		{"over a file", filepath.Join(dir, "parlour.db"), taken, "exists"},
		{"no database", filepath.Join(dir, "missing.db"), filepath.Join(dir, "a.db"), "no such file"},
		{"no folder for the copy", filepath.Join(dir, "parlour.db"), filepath.Join(dir, "nowhere", "b.db"), "no such file"},
		{"not a database", taken, filepath.Join(dir, "c.db"), "not a database"},
	} {
		err := Backup(ctx, c.path, c.dest)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error saying %q", c.name, err, c.want)
		}
		if c.dest != taken {
			if _, err := os.Stat(c.dest); err == nil {
				t.Errorf("%s: left %s behind", c.name, c.dest)
			}
		}
	}
	if b, _ := os.ReadFile(taken); string(b) != "keep me" {
		t.Errorf("the file in the way now holds %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); err == nil {
		t.Error("a backup of a missing database made one")
	}
}

// TestBackupReachesTheDisk: the copy, and its directory's entry for it,
// are synced before Backup returns. SQLite does not sync what VACUUM
// INTO writes: a backup said done could be lost to a power cut, and an
// operator who then retired the old disk would have none.
func TestBackupReachesTheDisk(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "parlour.db"))
	if err := account(s, "Ann"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	dest := filepath.Join(t.TempDir(), "copy.db")
	var synced []string
	sync := func(f *os.File) error {
		synced = append(synced, f.Name())
		return nil
	}
	if err := backup(ctx, filepath.Join(dir, "parlour.db"), dest, sync); err != nil {
		t.Fatal(err)
	}
	if want := []string{dest, filepath.Dir(dest)}; strings.Join(synced, " ") != strings.Join(want, " ") {
		t.Errorf("synced %q, want %q", synced, want)
	}

	// A sync that fails is a backup that failed, and leaves no copy.
	failed := filepath.Join(t.TempDir(), "copy.db")
	err := backup(ctx, filepath.Join(dir, "parlour.db"), failed, func(f *os.File) error { return fmt.Errorf("the disk is away") })
	if err == nil || !strings.Contains(err.Error(), "the disk is away") {
		t.Errorf("backup with a failing sync: %v", err)
	}
	if _, err := os.Stat(failed); err == nil {
		t.Error("a backup whose sync failed left its copy")
	}
}

// TestRestore: a backup restored over the database of a server that
// died with writes in its -wal opens as the backup was, not with the
// old -wal replayed over it; the database it replaced, moved aside with
// its -wal, still holds every write. A backup that is no database
// changes nothing.
func TestRestore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	live := filepath.Join(t.TempDir(), "parlour.db")
	s := open(t, live)
	defer s.Close()
	for _, n := range []string{"Ann", "Bob"} {
		if err := account(s, n); err != nil {
			t.Fatal(err)
		}
	}
	backup := filepath.Join(t.TempDir(), "parlour.db")
	if err := Backup(ctx, live, backup); err != nil {
		t.Fatal(err)
	}
	if err := account(s, "Cal"); err != nil {
		t.Fatal(err)
	}
	// The data directory of a server killed now: Cal only in the -wal.
	dir := t.TempDir()
	path := filepath.Join(dir, "parlour.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(live + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("the killed server's -wal: %v, %v; want writes in it", fi, err)
	}
	junk := filepath.Join(t.TempDir(), "parlour.db")
	if err := os.WriteFile(junk, []byte("not a database, but long enough to be read as one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Restore(ctx, junk, path, ".old"); err == nil {
		t.Fatal("restoring a file that is no database: no error")
	}
	if _, err := os.Stat(path + ".old"); err == nil {
		t.Error("a failed restore moved the database aside")
	}
	if err := Restore(ctx, backup, path, ".old"); err != nil {
		t.Fatal(err)
	}
	names := func(p string) []string {
		t.Helper()
		st := open(t, p)
		defer st.Close()
		var got []string
		for _, n := range []string{"Ann", "Bob", "Cal"} {
			if _, err := st.AccountByKey(ctx, strings.ToLower(n)); err == nil {
				got = append(got, n)
			}
		}
		return got
	}
	if got := strings.Join(names(path), " "); got != "Ann Bob" {
		t.Errorf("the restored database holds %s, want Ann Bob", got)
	}
	if got := strings.Join(names(path+".old"), " "); got != "Ann Bob Cal" {
		t.Errorf("the database moved aside holds %s, want Ann Bob Cal", got)
	}
}
