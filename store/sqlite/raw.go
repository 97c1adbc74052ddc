package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
)

// rawConn is what the writer needs of the driver's connection.
type rawConn interface {
	driver.ConnPrepareContext
}

// insertLevels is how many multi-row inserts the writer prepares:
// inserts[k] inserts 2^k moves at once.
const insertLevels = 8

// execer runs the statements of the writer's transactions on its own
// connection, through the driver. database/sql would wrap every execution
// in a statement, a connection lookup and a fresh copy of the arguments;
// the writer runs every write of a busy server, so it calls the driver
// itself, with statements prepared once and one reused argument buffer.
// Only the writer uses it, and only inside its connection's Raw.
type execer struct {
	c       rawConn
	inserts [insertLevels]driver.Stmt
	stmts   map[string]driver.Stmt // the writes' other statements, by text
	args    []driver.NamedValue
}

// exec runs query with args and returns how many rows it changed.
func (e *execer) exec(query string, args ...any) (int64, error) {
	st, ok := e.stmts[query]
	if !ok {
		var err error
		if st, err = e.c.PrepareContext(context.Background(), query); err != nil {
			return 0, fmt.Errorf("preparing %q: %w", query, err)
		}
		e.stmts[query] = st
	}
	nv := e.args[:0]
	for i, a := range args {
		v, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return 0, fmt.Errorf("argument %d of %q: %w", i+1, query, err)
		}
		nv = append(nv, driver.NamedValue{Ordinal: i + 1, Value: v})
	}
	e.args = nv
	defer clear(e.args)
	return e.run(st, nv)
}

// begin, commit and rollback run the writer's transactions with
// statements prepared once: the driver's own transactions parse "begin"
// and "commit" again each time, a cost every commit of a busy server paid.
// The transaction is deferred, as the driver's is: only the writer
// writes.
func (e *execer) begin() error {
	_, err := e.exec("BEGIN")
	return err
}

// commit commits the transaction; when it fails, the transaction is
// rolled back, so that the next begins afresh (SQLite leaves a
// transaction open after some failed commits, SQLITE_BUSY among them, and
// rolls it back itself after others).
func (e *execer) commit() error {
	_, err := e.exec("COMMIT")
	if err != nil {
		e.rollback()
	}
	return err
}

// rollback rolls the transaction back. Its error is not the caller's:
// it comes after the one that made it roll back, and SQLite may have
// rolled the transaction back already.
func (e *execer) rollback() {
	e.exec("ROLLBACK")
}

// insertMoves inserts moves, 2^k of them, with one statement.
func (e *execer) insertMoves(k int, moves []*appendMove) error {
	nv := e.args[:0]
	for _, mv := range moves {
		n := len(nv)
		nv = append(nv,
			driver.NamedValue{Ordinal: n + 1, Value: mv.table},
			driver.NamedValue{Ordinal: n + 2, Value: int64(mv.m.Seq)},
			driver.NamedValue{Ordinal: n + 3, Value: int64(mv.m.Seat)},
			driver.NamedValue{Ordinal: n + 4, Value: mv.m.Text},
			driver.NamedValue{Ordinal: n + 5, Value: nanos(mv.m.At)})
	}
	e.args = nv
	defer clear(e.args) // let the moves' values go
	_, err := e.run(e.inserts[k], nv)
	return err
}

func (e *execer) run(st driver.Stmt, args []driver.NamedValue) (int64, error) {
	x, ok := st.(driver.StmtExecContext)
	if !ok {
		return 0, fmt.Errorf("the driver's statement (%T) cannot execute with a context", st)
	}
	r, err := x.ExecContext(context.Background(), args)
	if err != nil {
		return 0, err
	}
	return r.RowsAffected()
}

// newExecer prepares the writer's inserts on c.
func newExecer(c rawConn) (*execer, error) {
	e := &execer{c: c, stmts: map[string]driver.Stmt{}}
	for k := range e.inserts {
		st, err := c.PrepareContext(context.Background(), insertMovesQuery(1<<k))
		if err != nil {
			e.close()
			return nil, fmt.Errorf("preparing the writer's inserts: %w", err)
		}
		e.inserts[k] = st
	}
	return e, nil
}

// close closes every statement e prepared.
func (e *execer) close() {
	for _, st := range e.inserts {
		if st != nil {
			st.Close()
		}
	}
	for _, st := range e.stmts {
		st.Close()
	}
}

// closeRaw closes the writer's statements. Only the writer uses them, so
// it is called once the writer has stopped.
func (s *Store) closeRaw() error {
	if s.ex == nil {
		return nil
	}
	return s.wconn.Raw(func(any) error {
		s.ex.close()
		s.ex = nil
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

// insertChunk returns k such that 2^k is the largest power of two <= n,
// capped at the largest insert prepared, 2^(insertLevels-1) rows.
func insertChunk(n int) int {
	k := 0
	for k+1 < insertLevels && 1<<(k+1) <= n {
		k++
	}
	return k
}
