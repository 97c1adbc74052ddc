package sqlite

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"parlour/store"
)

// maxBatch caps the writes one transaction gathers.
const maxBatch = 512

type write struct {
	fn func(ex *execer) error
	// move, when fn is nil, is a plain append that the writer inserts
	// with the other appends of its batch in one statement.
	move *appendMove
	err  chan error
	// ping marks Ping's write, which writes nothing: its fn does nothing.
	ping bool
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
//
// The checkpointer waits for a commit before it waits out the second, so
// that an idle store wakes nobody: once the log is all copied back, it
// sleeps until the next write.
func (s *Store) checkpointer() {
	t := time.NewTimer(checkpointInterval)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-s.wrote:
		}
		t.Reset(checkpointInterval)
		select {
		case <-s.done:
			return
		case <-t.C:
		}
		frames, copied := s.checkpoint()
		if copied < frames {
			s.noteWrite() // a reader held part back: again in a second
		}
		if frames*s.pageSize < s.restartLog {
			continue
		}
		select {
		case s.catchUp <- struct{}{}:
		default: // the writer has not taken the last one yet
		}
	}
}

// noteWrite tells the checkpointer that the log has frames to copy back.
func (s *Store) noteWrite() {
	select {
	case s.wrote <- struct{}{}:
	default: // it knows already
	}
}

// checkpoint copies the log back into the database and returns how many
// frames (pages) the log holds and how many of them are copied back. A
// reader still looking at an old snapshot can hold part of it back; a
// later checkpoint takes the rest.
func (s *Store) checkpoint() (frames, copied int64) {
	var busy int64
	err := s.db.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied)
	s.smu.Lock()
	s.stats.Checkpoints++
	if err != nil {
		s.stats.CheckpointErrors++
	}
	s.smu.Unlock()
	if err != nil {
		s.noteWrite() // the log waits for the next one, in a second
		return 0, 0
	}
	return frames, copied
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

// commit runs batch and answers each of its writes. Once a sync of the
// log has failed, it answers every write with that failure and runs none:
// what the failed sync left on disk is unknown (Linux may drop the pages
// it could not write), so the store cannot say any later write is
// durable, nor that the ones the sync covered are not.
func (s *Store) commit(batch []*write) {
	if !slices.ContainsFunc(batch, func(w *write) bool { return !w.ping }) {
		// Pings alone: the writer is here, and says whether it is broken,
		// without a transaction or a sync.
		for _, w := range batch {
			w.err <- s.broken
		}
		return
	}
	var errs []error
	var err error
	if s.broken == nil {
		errs, err = s.runBatch(batch)
		if err != nil && len(batch) > 1 {
			// One write failed (or the commit did): the transaction was
			// rolled back whole, so give each write a transaction of its
			// own and its own answer.
			for i, w := range batch {
				e, cerr := s.runBatch([]*write{w})
				errs[i] = cmp.Or(cerr, e[0])
			}
			err = nil
		}
		if s.log != nil && err == nil && slices.Contains(errs, nil) {
			if serr := s.log.syncLog(); serr != nil {
				s.broken = fmt.Errorf("sqlite: the last writes may not be on disk, and the store takes no more until the server is started again: %w", serr)
			}
		}
	}
	for i, w := range batch {
		switch {
		case s.broken != nil:
			w.err <- s.broken
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
	s.noteWrite()
}

// runBatch runs the writes in one transaction and commits it if all of
// them succeed. It returns each write's error and the error that stopped
// the transaction, if any.
func (s *Store) runBatch(batch []*write) ([]error, error) {
	errs := make([]error, len(batch))
	var stop error
	err := s.wconn.Raw(func(dc any) error {
		c, ok := dc.(rawConn)
		if !ok {
			return fmt.Errorf("sqlite: the driver's connection (%T) cannot begin or prepare", dc)
		}
		if s.ex == nil || s.ex.c != c {
			ex, err := newExecer(c)
			if err != nil {
				return fmt.Errorf("sqlite: %w", err)
			}
			s.ex = ex
		}
		i, err := s.runTx(s.ex, batch)
		if err != nil && i >= 0 {
			errs[i] = err
			if len(batch) == 1 {
				return nil
			}
		}
		stop = err
		return nil
	})
	return errs, cmp.Or(err, stop)
}

// runTx runs batch in one transaction on ex. On failure it returns the
// index of the write that failed (-1 for the transaction itself) and the
// error, and the transaction is rolled back.
func (s *Store) runTx(ex *execer, batch []*write) (int, error) {
	if err := ex.begin(); err != nil {
		return -1, fmt.Errorf("sqlite: begin: %w", err)
	}
	fail := func(i int, err error) (int, error) {
		ex.rollback()
		return i, err
	}
	// Plain appends first, many rows to a statement. A table has at most
	// one write in a batch (the server waits for each before the next), so
	// the order within the batch does not matter.
	moves, which := s.moves[:0], s.which[:0]
	defer func() {
		clear(moves) // let the moves go
		s.moves, s.which = moves[:0], which[:0]
	}()
	for i, w := range batch {
		if w.move != nil {
			moves, which = append(moves, w.move), append(which, i)
		}
	}
	for i := 0; i < len(moves); {
		k := insertChunk(len(moves) - i)
		if err := ex.insertMoves(k, moves[i:i+1<<k]); err != nil {
			if isConstraint(err) {
				err = fmt.Errorf("a move is already stored: %w", store.ErrConflict)
			} else {
				err = fmt.Errorf("sqlite: storing moves: %w", err)
			}
			return fail(which[i], err)
		}
		i += 1 << k
	}
	for i, w := range batch {
		if w.fn == nil {
			continue
		}
		if err := w.fn(ex); err != nil {
			return fail(i, err)
		}
	}
	if err := ex.commit(); err != nil {
		return -1, fmt.Errorf("sqlite: commit: %w", err)
	}
	return -1, nil
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
func (s *Store) do(ctx context.Context, fn func(ex *execer) error) error {
	return s.send(ctx, &write{fn: fn, err: make(chan error, 1)})
}

// send hands w to the writer and waits until its transaction commits.
func (s *Store) send(ctx context.Context, w *write) error {
	if err := s.hand(ctx, w); err != nil {
		return err
	}
	// Once handed over, the write happens whatever ctx says: wait for it,
	// so the caller never believes a committed write failed.
	return noSpace(<-w.err)
}

// hand gives w to the writer, waiting for room no longer than ctx.
func (s *Store) hand(ctx context.Context, w *write) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return errors.New("sqlite: store is closed")
	}
	select {
	case s.writes <- w:
	default:
		// The writer is behind: wait for room, or for ctx. (Trying first
		// without ctx spares most writes making ctx's done channel.)
		select {
		case s.writes <- w:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Ping asks the writer whether it takes writes (store.Pinger): it answers
// between two transactions, so a writer held up past ctx by a disk that
// does not answer is not ready, and neither is one that refuses every
// write since a sync of the log failed. Reads would still answer in both
// cases; moves would not. A ping writes nothing and syncs nothing.
func (s *Store) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sqlite: no time left to ask the writer: %w", err)
	}
	w := &write{fn: func(*execer) error { return nil }, err: make(chan error, 1), ping: true}
	if err := s.hand(ctx, w); err != nil {
		return fmt.Errorf("sqlite: the writer takes no writes: %w", err)
	}
	select {
	case err := <-w.err:
		return err
	case <-ctx.Done():
		// w.err has room for the answer: the writer does not wait for us.
		return fmt.Errorf("sqlite: the writer has not answered: %w", ctx.Err())
	}
}

// SQLite's primary result codes for a failing disk.
const (
	sqliteIOErr = 10 // SQLITE_IOERR: a write or sync of a file failed
	sqliteFull  = 13 // SQLITE_FULL: the disk (or the database's cap) is full
)

// noSpace marks err with store.ErrNoSpace when SQLite refused the write
// for lack of space or because the disk failed, so that the server can
// answer "try again later" rather than "something went wrong".
func noSpace(err error) error {
	var coded interface{ Code() int }
	if err == nil || !errors.As(err, &coded) {
		return err
	}
	switch coded.Code() & 0xff {
	case sqliteFull, sqliteIOErr:
		return fmt.Errorf("%w: %w", store.ErrNoSpace, err)
	}
	return err
}
