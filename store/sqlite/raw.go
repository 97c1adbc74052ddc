package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"

	"parlour/store"
)

// rawConn is what the writer needs of the driver's connection.
type rawConn interface {
	driver.ConnBeginTx
	driver.ConnPrepareContext
}

// rawInserts holds the writer's statements prepared on its own connection
// (inserts[k] inserts 2^k moves) and its argument buffer. database/sql
// would wrap every execution of them in a statement, a connection lookup
// and a fresh copy of the arguments; for the plain appends that are most
// of a busy server's writes, the writer calls the driver itself.
type rawInserts struct {
	inserts [len(Store{}.insertN)]driver.Stmt
	args    []driver.NamedValue
}

// appendMoves inserts a batch of plain appends in one transaction on the
// writer's connection, through the driver. It answers as runBatch does.
func (s *Store) appendMoves(batch []*write) ([]error, error) {
	errs := make([]error, len(batch))
	err := s.wconn.Raw(func(dc any) error {
		c, ok := dc.(rawConn)
		if !ok {
			return fmt.Errorf("sqlite: the driver's connection (%T) cannot begin or prepare", dc)
		}
		return s.rawAppend(c, batch)
	})
	if err == nil {
		return errs, nil
	}
	if len(batch) == 1 {
		errs[0] = err
		return errs, nil
	}
	return errs, err
}

func (s *Store) rawAppend(c rawConn, batch []*write) (err error) {
	ctx := context.Background()
	r := s.raw
	if r == nil {
		r = &rawInserts{}
		for k := range r.inserts {
			st, err := c.PrepareContext(ctx, insertMovesQuery(1<<k))
			if err != nil {
				for _, p := range r.inserts[:k] {
					p.Close()
				}
				return fmt.Errorf("sqlite: preparing the writer's inserts: %w", err)
			}
			r.inserts[k] = st
		}
		s.raw = r
	}
	tx, err := c.BeginTx(ctx, driver.TxOptions{})
	if err != nil {
		return fmt.Errorf("sqlite: begin: %w", err)
	}
	defer func() {
		clear(r.args) // let the moves' values go
		r.args = r.args[:0]
		if err != nil {
			tx.Rollback()
		}
	}()
	for i := 0; i < len(batch); {
		k := insertChunk(len(batch) - i)
		args := r.args[:0]
		for _, w := range batch[i : i+1<<k] {
			m := w.move.m
			n := len(args)
			args = append(args,
				driver.NamedValue{Ordinal: n + 1, Value: w.move.table},
				driver.NamedValue{Ordinal: n + 2, Value: int64(m.Seq)},
				driver.NamedValue{Ordinal: n + 3, Value: int64(m.Seat)},
				driver.NamedValue{Ordinal: n + 4, Value: m.Text},
				driver.NamedValue{Ordinal: n + 5, Value: nanos(m.At)})
		}
		r.args = args
		st, ok := r.inserts[k].(driver.StmtExecContext)
		if !ok {
			return fmt.Errorf("sqlite: the driver's statement (%T) cannot execute with a context", r.inserts[k])
		}
		if _, err := st.ExecContext(ctx, args); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("a move is already stored: %w", store.ErrConflict)
			}
			return fmt.Errorf("sqlite: storing moves: %w", err)
		}
		i += 1 << k
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: commit: %w", err)
	}
	return nil
}

// closeRaw closes the writer's driver statements. Only the writer uses
// them, so it is called once the writer has stopped.
func (s *Store) closeRaw() error {
	if s.raw == nil {
		return nil
	}
	return s.wconn.Raw(func(any) error {
		for _, st := range s.raw.inserts {
			st.Close()
		}
		s.raw = nil
		return nil
	})
}

// insertMovesQuery returns an INSERT of n moves.
func insertMovesQuery(n int) string {
	q := "INSERT INTO moves (table_id, seq, seat, move, at) VALUES (?, ?, ?, ?, ?)"
	for range n - 1 {
		q += ", (?, ?, ?, ?, ?)"
	}
	return q
}
