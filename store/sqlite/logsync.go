package sqlite

import (
	"fmt"
	"os"
	"runtime"
	"time"
)

// heldSyncLimit is how long a sync of the log may have taken for the next
// to keep its processor (see syncLog).
const heldSyncLimit = 4 * time.Millisecond

// logSync is the writer's own sync of the write-ahead log, used where
// ownLogSync is true and the store is FULL: its connection runs
// synchronous NORMAL, which writes each commit to the log without syncing
// it, and the writer syncs the log itself before it answers the commit's
// writes. A commit is then as durable as SQLite's FULL makes it, and the
// writer chooses how the sync is made. (Readers may see a commit during
// its sync, a moment before its writes are answered. Should the sync
// fail, what they saw may not be on disk; the store then takes no more
// writes, see commit.)
//
// Why it matters: Go's monitor thread takes a processor back from a thread
// it finds in the same system call at two looks in a row, and after doing
// so looks every 20 µs until it has found nothing to take for a millisecond
// or more. A quiet server runs on one processor; while the monitor looks
// that often, every commit's sync (a third of a millisecond to a
// millisecond) is taken again, so it never backs off: some 8,000 wakes a
// second, which doubled a quiet server's CPU a move for seconds at a time.
// A sync made as a raw system call keeps its processor, as SQLite's own does
// in effect whenever the monitor looks every 10 ms. Held, nothing else runs
// on that processor until the disk answers, and a collection about to stop
// the world waits for it too: so after a sync that took longer than
// heldSyncLimit (a disk busy with other work) the next is made as usual,
// and the other goroutines need not wait for a slow disk.
type logSync struct {
	path string   // the log's path
	f    *os.File // the log, open once the first commit has made it
	last time.Duration
	// sync syncs f; held says the thread may keep its processor. Tests
	// replace it.
	sync func(f *os.File, held bool) error
}

// syncLog syncs the log after a commit. It opens the log on first use:
// SQLite creates it with the first write, and removes it only when the
// last connection to the database closes, which the writer's own
// connection, open as long as the store is, prevents.
func (l *logSync) syncLog() error {
	if l.f == nil {
		f, err := os.Open(l.path)
		if err != nil {
			return fmt.Errorf("opening the write-ahead log: %w", err)
		}
		l.f = f
	}
	held := l.last < heldSyncLimit && runtime.GOMAXPROCS(0) == 1
	start := time.Now()
	err := l.sync(l.f, held)
	l.last = time.Since(start)
	if err != nil {
		return fmt.Errorf("syncing the write-ahead log: %w", err)
	}
	return nil
}

// close closes the log's file.
func (l *logSync) close() error {
	if l == nil || l.f == nil {
		return nil
	}
	return l.f.Close()
}
