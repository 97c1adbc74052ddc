package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"parlour/store"
)

// openSynced opens a FULL store whose writer syncs the log with sync,
// and makes a table t in it.
func openSynced(t *testing.T, sync func(f *os.File, held bool) error) (*Store, string) {
	t.Helper()
	if !ownLogSync {
		t.Skip("SQLite syncs the log itself on this system")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	s, err := Open(ctx, path, Options{syncFile: sync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.CreateTable(ctx, store.Table{ID: "t", Game: "g", Status: store.Playing, Meta: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	return s, path
}

// TestLogSyncedBeforeAnswer: a FULL store's writer syncs the log itself
// (its connection leaves the sync to it), the file it syncs is the log,
// and a write returns only once that sync has.
func TestLogSyncedBeforeAnswer(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var synced atomic.Int32
	var file atomic.Pointer[os.File]
	s, path := openSynced(t, func(f *os.File, held bool) error {
		file.Store(f)
		if synced.Load() > 0 { // the table is made; hold the move's sync
			<-release
		}
		synced.Add(1)
		return syncFile(f, held)
	})
	var mode int
	if err := s.wconn.QueryRowContext(context.Background(), "PRAGMA synchronous").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != 1 {
		t.Errorf("the writer's connection has synchronous %d, want 1 (NORMAL): it leaves the sync to the writer", mode)
	}
	done := make(chan error, 1)
	go func() { done <- s.AppendMove(context.Background(), "t", store.Move{Seq: 1, Text: "a"}, nil) }()
	select {
	case err := <-done:
		t.Fatalf("the move returned (%v) before the log was synced", err)
	case <-time.After(50 * time.Millisecond):
	}
	// A writer held up by its disk is not ready; once the sync is done
	// it is again.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := s.Ping(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a ping while the writer waits for its disk: %v, want the deadline", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(context.Background()); err != nil {
		t.Errorf("a ping once the disk answered: %v", err)
	}
	if n := synced.Load(); n != 2 {
		t.Errorf("%d syncs for two writes in turn, want 2", n)
	}
	a, err := file.Load().Stat()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(a, b) {
		t.Errorf("the writer synced %s, not the log", file.Load().Name())
	}
}

// TestLogSyncFails: once a sync of the log fails, the writes it covered
// and every later one are answered with that failure, and no later write
// reaches the database.
func TestLogSyncFails(t *testing.T) {
	t.Parallel()
	var fail atomic.Bool
	var calls atomic.Int32
	s, _ := openSynced(t, func(f *os.File, held bool) error {
		calls.Add(1)
		if fail.Load() {
			return &os.PathError{Op: "sync", Path: f.Name(), Err: syscall.EIO}
		}
		return syncFile(f, held)
	})
	ctx := context.Background()
	if err := s.AppendMove(ctx, "t", store.Move{Seq: 1, Text: "a"}, nil); err != nil {
		t.Fatal(err)
	}
	fail.Store(true)
	for i, seq := range []int{2, 3} {
		err := s.AppendMove(ctx, "t", store.Move{Seq: seq, Text: "b"}, nil)
		if !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "may not be on disk") {
			t.Errorf("write %d after the failed sync: %v, want the sync's failure", i+1, err)
		}
		if errors.Is(err, store.ErrNoSpace) {
			t.Errorf("write %d: %v is marked as a refusal that changed nothing", i+1, err)
		}
	}
	if err := s.Ping(ctx); !errors.Is(err, syscall.EIO) {
		t.Errorf("a ping of the store that takes no more writes: %v, want the sync's failure", err)
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("%d syncs, want 3: none after the one that failed", n)
	}
	tb, err := s.Table(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Moves) != 2 {
		t.Errorf("the table holds %d moves, want 2: the one synced and the one whose sync failed, not the one after", len(tb.Moves))
	}
}

// TestSyncFile: both ways of syncing a file, the ordinary system call and
// the held one (which the writer makes only on one processor, so no other
// test reaches it), sync an open file and fail on a closed one.
func TestSyncFile(t *testing.T) {
	t.Parallel()
	for _, held := range []bool{false, true} {
		f, err := os.Create(filepath.Join(t.TempDir(), "log"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("frames"); err != nil {
			t.Fatal(err)
		}
		if err := syncFile(f, held); err != nil {
			t.Errorf("held %v: syncing an open file: %v", held, err)
		}
		f.Close()
		if err := syncFile(f, held); err == nil {
			t.Errorf("held %v: syncing a closed file succeeded", held)
		}
	}
}
