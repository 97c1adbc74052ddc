package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"parlour/store"
)

// maxBatch caps the writes one transaction gathers.
const maxBatch = 512

type write struct {
	fn func(tx *sql.Tx) error
	// move, when fn is nil, is a plain append that the writer inserts
	// with the other appends of its batch in one statement.
	move *appendMove
	err  chan error
}

type appendMove struct {
	table string
	m     store.Move
}

// checkpointInterval is how often the log is copied back into the
// database.
const checkpointInterval = time.Second

// restartLogBytes is how long the write-ahead log may grow before the
// writer stops to let it start over. The log file keeps its largest size
// and is written over from its beginning after each restart, so this is
// also about the most disk it takes.
const restartLogBytes = 64 << 20

// checkpointer copies the write-ahead log back into the database about
// once a second, beside the writer, and when the log has grown past
// restartLogBytes asks the writer to finish the job between two of its
// transactions, so that the transaction after starts the log over
// (automatic checkpoints are off).
//
// Both halves are needed. A checkpoint beside a writer that commits every
// millisecond never catches up with it: the log is never found wholly
// copied back when a transaction begins, so SQLite never starts it over,
// and it grows without end. Under load every commit then lengthens the
// file, and with synchronous FULL each fsync must also write the file
// system's journal (measured: a 340 MB log after 20 s at 5,000 moves/s,
// and p99 acknowledgement 29-66 ms instead of 7). The writer's own
// checkpoint copies only what was committed since the checkpointer's, but
// it stops every move while it syncs the database: 1 ms at first, 4-10 ms
// once the database has grown for a minute at 5,000 moves/s. Done every
// second, that stop alone holds up some 0.5-1% of the moves; letting the log
// reach restartLogBytes first (about 2 s of that load) makes it rarer. An
// idle store needs no help: the checkpointer then copies everything, and
// the next transaction starts the log over by itself.
func (s *Store) checkpointer() {
	t := time.NewTicker(checkpointInterval)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-t.C:
		}
		if frames := s.checkpoint(); frames*s.pageSize < s.restartLog {
			continue
		}
		select {
		case s.catchUp <- struct{}{}:
		default: // the writer has not taken the last one yet
		}
	}
}

// checkpoint copies the log back into the database and returns how many
// frames (pages) the log holds. A reader still looking at an old snapshot
// can hold part of it back; a later checkpoint takes the rest.
func (s *Store) checkpoint() int64 {
	var busy, frames, copied int64
	if err := s.db.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil {
		s.smu.Lock()
		s.stats.CheckpointErrors++
		s.smu.Unlock()
		return 0
	}
	return frames
}

// writer runs each batch of waiting writes in one transaction, starting
// one at most every s.every. When a write fails, the batch is run again
// one write at a time, so that one bad write does not spoil the others.
// Between two transactions it finishes the checkpointer's work.
func (s *Store) writer() {
	defer close(s.done)
	batch := make([]*write, 0, maxBatch)
	var last time.Time // when the last transaction began
	for {
		var w *write
		select {
		case next, ok := <-s.writes:
			if !ok {
				return // closed
			}
			w = next
		case <-s.catchUp:
			s.checkpoint()
			continue
		}
		if wait := s.every - time.Since(last); wait > 0 {
			// Under load: let the writes of the next moment gather.
			time.Sleep(wait)
		}
		last = time.Now()
		batch = append(batch[:0], w)
	more:
		for len(batch) < maxBatch {
			select {
			case w, ok := <-s.writes:
				if !ok {
					break more
				}
				batch = append(batch, w)
			default:
				break more
			}
		}
		s.commit(batch)
		select {
		case <-s.catchUp:
			s.checkpoint()
		default:
		}
	}
}

func (s *Store) commit(batch []*write) {
	errs, err := s.runBatch(batch)
	if err != nil && len(batch) > 1 {
		// One write failed (or the commit did): the transaction was rolled
		// back whole, so give each write a transaction of its own and its
		// own answer.
		for i, w := range batch {
			e, cerr := s.runBatch([]*write{w})
			errs[i] = cmp.Or(cerr, e[0])
		}
		err = nil
	}
	for i, w := range batch {
		switch {
		case err != nil:
			w.err <- err
		default:
			w.err <- errs[i]
		}
	}
	s.smu.Lock()
	s.stats.Commits++
	s.stats.Writes += int64(len(batch))
	s.smu.Unlock()
}

// runBatch runs the writes in one transaction and commits it if all of
// them succeed. It returns each write's error and the error that stopped
// the transaction, if any.
func (s *Store) runBatch(batch []*write) ([]error, error) {
	if !slices.ContainsFunc(batch, func(w *write) bool { return w.move == nil }) {
		return s.appendMoves(batch)
	}
	errs := make([]error, len(batch))
	tx, err := s.wconn.BeginTx(context.Background(), nil)
	if err != nil {
		return errs, fmt.Errorf("sqlite: begin: %w", err)
	}
	fail := func(i int, err error) ([]error, error) {
		tx.Rollback()
		errs[i] = err
		if len(batch) == 1 {
			return errs, nil
		}
		return errs, err
	}
	// Plain appends first, many rows to a statement. A table has at most
	// one write in a batch (the server waits for each before the next), so
	// the order within the batch does not matter.
	// The writer alone runs batches, so it keeps these between them.
	rows, which := s.rows[:0], s.which[:0]
	defer func() { s.rows, s.which = rows[:0], which[:0] }()
	flush := func() error {
		defer func() {
			clear(rows) // let the moves' values go
			rows, which = rows[:0], which[:0]
		}()
		// Insert in chunks whose sizes are powers of two, so that a few
		// prepared statements serve every batch.
		for i := 0; i < len(which); {
			k := insertChunk(len(which) - i)
			if _, err := tx.Stmt(s.insertN[k]).Exec(rows[5*i : 5*(i+1<<k)]...); err != nil {
				if isConstraint(err) {
					return fmt.Errorf("a move is already stored: %w", store.ErrConflict)
				}
				return err
			}
			i += 1 << k
		}
		return nil
	}
	for i, w := range batch {
		if w.move == nil {
			continue
		}
		m := w.move.m
		rows = append(rows, w.move.table, m.Seq, m.Seat, m.Text, nanos(m.At))
		which = append(which, i)
		if len(which) == movesPerInsert {
			first := which[0]
			if err := flush(); err != nil {
				return fail(first, err)
			}
		}
	}
	if len(which) > 0 {
		first := which[0]
		if err := flush(); err != nil {
			return fail(first, err)
		}
	}
	for i, w := range batch {
		if w.fn == nil {
			continue
		}
		if err := w.fn(tx); err != nil {
			return fail(i, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return errs, fmt.Errorf("sqlite: commit: %w", err)
	}
	return errs, nil
}

// movesPerInsert caps the rows of one INSERT (5 parameters a row); it is
// the largest power of two that insertN holds a statement for.
const movesPerInsert = 1 << (len(Store{}.insertN) - 1)

// insertChunk returns k such that 2^k is the largest power of two <= n,
// capped at movesPerInsert.
func insertChunk(n int) int {
	k := 0
	for k+1 < len(Store{}.insertN) && 1<<(k+1) <= n {
		k++
	}
	return k
}

// Stats reports how many transactions the writer committed and how many
// writes they held.
func (s *Store) Stats() Stats {
	s.smu.Lock()
	defer s.smu.Unlock()
	return s.stats
}

// CommitStats reports the same as Stats, in the shape the server's
// metrics ask of a store that groups its writes.
func (s *Store) CommitStats() (commits, writes int64) {
	st := s.Stats()
	return st.Commits, st.Writes
}

// do hands fn to the writer and waits until its transaction commits.
func (s *Store) do(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return s.send(ctx, &write{fn: fn, err: make(chan error, 1)})
}

// send hands w to the writer and waits until its transaction commits.
func (s *Store) send(ctx context.Context, w *write) error {
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return errors.New("sqlite: store is closed")
	}
	select {
	case s.writes <- w:
	case <-ctx.Done():
		s.mu.RUnlock()
		return ctx.Err()
	}
	s.mu.RUnlock()
	// Once handed over, the write happens whatever ctx says: wait for it,
	// so the caller never believes a committed write failed.
	return <-w.err
}
