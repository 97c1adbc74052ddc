package sqlite

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/internal/cputime"
	"parlour/store"
	"parlour/store/storetest"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBadSynchronous(t *testing.T) {
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "p.db"), Options{Synchronous: "OFF"}); err == nil {
		t.Fatal("synchronous OFF accepted")
	}
}

// TestNewDatabaseIsPrivate: a new database, which holds the hashes of
// passwords and tokens, is readable by its owner alone, and so are its
// write-ahead log and shared-memory files.
func TestNewDatabaseIsPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parlour.db")
	s := open(t, path)
	defer s.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := fi.Mode().Perm(); m != 0o600 {
			t.Errorf("%s: mode %v, want -rw-------", filepath.Base(p), m)
		}
	}
}

// TestUpgradedDatabaseIsNotWorldReadable: a database an older build made
// readable by everyone, with its write-ahead log as a killed server left
// it, is readable by nobody else once opened; the group keeps what the
// operator gave it.
func TestUpgradedDatabaseIsNotWorldReadable(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "parlour.db")
	if err := open(t, path).Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+"-wal", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path+"-wal", 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	defer s.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := fi.Mode().Perm(); m != 0o640 {
			t.Errorf("%s: mode %v, want -rw-r-----", filepath.Base(p), m)
		}
	}
}

func BenchmarkAppendMove(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "p.db"), Options{Synchronous: os.Getenv("SYNC")})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	storetest.BenchAppend(b, s)
}

// BenchmarkAppendMoveLone stores moves one at a time, each in a commit of
// its own, as a quiet server does: the cost of a commit and its sync, in
// CPU (cpu-ns/op, the process's user and system time) and in wall time.
// SYNC=NORMAL measures the store without a sync at each commit.
func BenchmarkAppendMoveLone(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "p.db"), Options{Synchronous: os.Getenv("SYNC")})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, store.Table{ID: "t", Game: "g", Status: store.Playing, Meta: []byte("{}")}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu, ok := cputime.Process()
	for i := range b.N {
		if err := s.AppendMove(ctx, "t", store.Move{Seq: i + 1, Text: "72", At: time.Now()}, nil); err != nil {
			b.Fatal(err)
		}
	}
	if end, _ := cputime.Process(); ok {
		b.ReportMetric(float64(end-cpu)/float64(b.N), "cpu-ns/op")
	}
}

// TestLogStartsOver checks that the write-ahead log is copied back and
// started over while writes never stop: a log that only grows makes every
// commit slower (see checkpointer).
func TestLogStartsOver(t *testing.T) {
	if testing.Short() {
		t.Skip("writes for three seconds")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	// Start over at every checkpoint: this test writes far less than a
	// busy server.
	s, err := Open(ctx, path, Options{Synchronous: "NORMAL", restartLog: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const tables = 64
	for i := range tables {
		if err := s.CreateTable(ctx, store.Table{ID: fmt.Sprint("t", i), Game: "quizl", Status: store.Playing, Meta: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	// Writers that follow each other closely, so that some transaction
	// is always under way, as under load.
	end := time.Now().Add(3*checkpointInterval + checkpointInterval/2)
	var wg sync.WaitGroup
	for i := range tables {
		wg.Go(func() {
			for seq := 1; time.Now().Before(end); seq++ {
				if err := s.AppendMove(ctx, fmt.Sprint("t", i), store.Move{Seq: seq, Text: "72", At: time.Now()}, nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	// The log's header counts the times it was started over (bytes
	// 12-15, big-endian: the checkpoint sequence number). About once a
	// second is expected, though a restart can slip to the next second; a
	// log that was never started over says 0.
	hdr := make([]byte, 16)
	f, err := os.Open(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.ReadFull(f, hdr); err != nil {
		t.Fatal(err)
	}
	if n := binary.BigEndian.Uint32(hdr[12:]); n < 1 {
		t.Errorf("the log was never started over in 3.5 s of writing")
	}
	if st := s.Stats(); st.CheckpointErrors != 0 {
		t.Errorf("%d checkpoints failed", st.CheckpointErrors)
	}
}

// TestIdleStoreSleeps: the log is copied back about a second after a
// write, and then the checkpointer waits for the next write rather than
// waking every second for nothing.
func TestIdleStoreSleeps(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for three seconds")
	}
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "p.db"), Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, store.Table{ID: "t", Game: "quizl", Status: store.Playing, Meta: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	checkpoints := func() int64 { return s.Stats().Checkpoints }
	deadline := time.Now().Add(10 * checkpointInterval)
	for checkpoints() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no checkpoint after a write")
		}
		time.Sleep(checkpointInterval / 10)
	}
	after := checkpoints()
	time.Sleep(3 * checkpointInterval) // no clock to move by hand: the checkpointer keeps real time
	if n := checkpoints(); n != after {
		t.Errorf("%d checkpoints in three idle seconds, want none", n-after)
	}
}

// TestConflictInBatch sends a move already stored among many good ones that
// share its transaction: the duplicate is refused with ErrConflict and every
// other move is stored. The shared suite (storetest) checks the same of
// appends made at once; this one holds the writer's commits apart, so that
// the moves surely share one and the writer's rollback and retry one by
// one is what is tested.
func TestConflictInBatch(t *testing.T) {
	ctx := context.Background()
	// A long interval gathers all the appends into one or two batches.
	s, err := Open(ctx, filepath.Join(t.TempDir(), "p.db"), Options{Synchronous: "NORMAL", CommitInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const tables = 40
	errs := make([]error, tables)
	var wg sync.WaitGroup
	for i := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.CreateTable(ctx, store.Table{ID: fmt.Sprint("t", i), Game: "g", Status: store.Playing, Meta: []byte("{}")})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, "t7", store.Move{Seq: 1, Text: "first"}, nil); err != nil {
		t.Fatal(err)
	}
	for i := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.AppendMove(ctx, fmt.Sprint("t", i), store.Move{Seq: 1, Seat: 1, Text: fmt.Sprint("m", i)}, nil)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		switch {
		case i == 7 && !errors.Is(err, store.ErrConflict):
			t.Errorf("the duplicate move of t7: got %v, want ErrConflict", err)
		case i != 7 && err != nil:
			t.Errorf("move of t%d: %v", i, err)
		}
	}
	live, err := s.LiveTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range live {
		want := "m" + tb.ID[1:]
		if tb.ID == "t7" {
			want = "first"
		}
		if len(tb.Moves) != 1 || tb.Moves[0].Text != want {
			t.Errorf("table %s holds %+v, want one move %q", tb.ID, tb.Moves, want)
		}
	}
	if len(live) != tables {
		t.Errorf("%d live tables, want %d", len(live), tables)
	}
}

type codedError int

func (e codedError) Error() string { return fmt.Sprintf("sqlite error %d", int(e)) }
func (e codedError) Code() int     { return int(e) }

func TestNoSpace(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{codedError(13), true},                               // SQLITE_FULL
		{fmt.Errorf("commit: %w", codedError(13)), true},     // wrapped
		{codedError(10 | 3<<8), true},                        // SQLITE_IOERR_WRITE
		{codedError(19), false},                              // SQLITE_CONSTRAINT
		{errors.New("database or disk is full (13)"), false}, // no code to go by
		{nil, false},
	} {
		if got := errors.Is(noSpace(tc.err), store.ErrNoSpace); got != tc.want {
			t.Errorf("noSpace(%v) is ErrNoSpace: %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestOpenReadOnlyFile: a database its user may read but not write (a
// server started as the wrong user) is refused at Open, naming the file
// and what to do, rather than served with every write refused.
func TestOpenReadOnlyFile(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root writes whatever the file's mode says")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "parlour.db")
	s := open(t, path)
	s.Close()
	if err := os.Chmod(path, 0o400); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, path, Options{Synchronous: "NORMAL"})
	if err == nil {
		s.Close()
		t.Fatal("Open served a database it may not write")
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not writable") {
		t.Errorf("Open said %q, want it to name %s and say it is not writable", err, path)
	}
}
