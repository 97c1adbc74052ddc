package reference

// The reference server's durable log: SQLite in WAL mode, through the
// same pure-Go driver and with the same durability settings as
// Parlour's store, one writer goroutine gathering the writes that wait at
// each moment into one transaction (group commit).

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver, Parlour's store's
)

// schema holds the tables and the moves. The moves are keyed as
// Parlour's store keys them, so that a commit writes the same B-tree
// pages.
const schema = `
CREATE TABLE IF NOT EXISTS tables (
	id      TEXT PRIMARY KEY,
	game    TEXT NOT NULL,
	players TEXT NOT NULL,
	setups  TEXT NOT NULL,
	created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
	table_id TEXT NOT NULL,
	seq      INTEGER NOT NULL,
	seat     INTEGER NOT NULL,
	move     TEXT NOT NULL,
	at       INTEGER NOT NULL,
	PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
`

// maxBatch caps the writes one transaction gathers, as Parlour's store
// does.
const maxBatch = 512

// maxRows caps the rows of one multi-row INSERT of moves.
const maxRows = 64

// move is one row of the moves table.
type move struct {
	table string
	seq   int
	seat  int
	text  string
	at    time.Time
}

// write is one durable write: a move, or any other statement.
type write struct {
	mv    *move
	query string
	args  []any
	err   chan error
}

// store is the durable log.
type store struct {
	db     *sql.DB
	conn   *sql.Conn // the writer's own connection
	every  time.Duration
	writes chan *write
	done   chan struct{}

	mu     sync.RWMutex // guards closed against sends on writes
	closed bool

	inserts map[int]string       // multi-row inserts' text, by their rows
	stmts   map[string]*sql.Stmt // the writer's statements, prepared on conn
	batch   []*write
	movesIn []*move
	args    []any

	commits, written atomic.Int64

	// failCommit, if set, is asked before each commit whether it fails
	// (tests).
	failCommit atomic.Pointer[func() error]
}

// checkpointInterval is how often the writer copies the log back into
// the database, as often as Parlour's store's checkpointer does.
const checkpointInterval = time.Second

// openStore opens (creating if need be) the database at path with
// Parlour's store's settings: WAL, synchronous FULL (the log fsynced at
// every commit), automatic checkpoints off, the statement journal in
// memory and a 16 MiB page cache. The writer copies the log back once a
// second itself, between two transactions: simpler than Parlour's
// checkpointer beside the writer, and as often.
func openStore(ctx context.Context, path string, every time.Duration) (*store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "synchronous(FULL)", "busy_timeout(10000)", "wal_autocheckpoint(0)", "temp_store(MEMORY)", "cache_size(-16384)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: abs}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("making the schema in %s: %w", path, err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("opening the writer's connection: %w", err)
	}
	s := &store{db: db, conn: conn, every: every, writes: make(chan *write, maxBatch), done: make(chan struct{}), inserts: map[int]string{}, stmts: map[string]*sql.Stmt{}}
	go s.writer()
	return s, nil
}

// close stops the writer once it has committed what it was given, and
// closes the database.
func (s *store) close() error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.writes)
	}
	s.mu.Unlock()
	<-s.done
	s.conn.Close()
	return s.db.Close()
}

// appendMove stores mv and returns once it is committed.
func (s *store) appendMove(mv *move) error {
	return s.send(&write{mv: mv, err: make(chan error, 1)})
}

// exec runs query with args in the writer's next transaction and returns
// once it is committed.
func (s *store) exec(query string, args ...any) error {
	return s.send(&write{query: query, args: args, err: make(chan error, 1)})
}

// send hands w to the writer and waits for its commit.
func (s *store) send(w *write) error {
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return errors.New("the store is closed")
	}
	s.writes <- w
	s.mu.RUnlock()
	return <-w.err
}

// writer runs each batch of waiting writes in one transaction, starting
// one at most every s.every, as Parlour's store's writer does: under load
// the writes of the next moment gather and share one commit and one
// fsync, and an idle store commits a lone write at once.
func (s *store) writer() {
	defer close(s.done)
	var last, copied time.Time
	for w := range s.writes {
		if time.Since(copied) >= checkpointInterval {
			// Nothing else writes meanwhile, so the checkpoint copies the
			// whole log, and the next transaction starts it over.
			s.conn.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
			copied = time.Now()
		}
		if wait := s.every - time.Since(last); wait > 0 {
			time.Sleep(wait)
		}
		last = time.Now()
		s.batch = append(s.batch[:0], w)
	more:
		for len(s.batch) < maxBatch {
			select {
			case w, ok := <-s.writes:
				if !ok {
					break more
				}
				s.batch = append(s.batch, w)
			default:
				break more
			}
		}
		err := s.commit(s.batch)
		for _, w := range s.batch {
			w.err <- err
		}
		clear(s.batch)
		s.commits.Add(1)
		s.written.Add(int64(len(s.batch)))
	}
}

// commit runs batch in one transaction: the moves in multi-row inserts,
// then the other writes. One failure rolls the whole batch back. The
// transaction is begun and ended by statements prepared once on the
// writer's connection, as its inserts are: database/sql's Tx would
// prepare each insert again in every transaction.
func (s *store) commit(batch []*write) error {
	ctx := context.Background()
	if _, err := s.prepared(ctx, "BEGIN").ExecContext(ctx); err != nil {
		return fmt.Errorf("beginning a transaction: %w", err)
	}
	fail := func(what string, err error) error {
		s.conn.ExecContext(ctx, "ROLLBACK")
		return fmt.Errorf("%s: %w", what, err)
	}
	s.movesIn = s.movesIn[:0]
	for _, w := range batch {
		if w.mv != nil {
			s.movesIn = append(s.movesIn, w.mv)
		}
	}
	for i := 0; i < len(s.movesIn); {
		n := min(len(s.movesIn)-i, maxRows)
		if err := s.insert(ctx, s.movesIn[i:i+n]); err != nil {
			return fail("storing moves", err)
		}
		i += n
	}
	clear(s.movesIn)
	for _, w := range batch {
		if w.mv == nil {
			if _, err := s.conn.ExecContext(ctx, w.query, w.args...); err != nil {
				return fail("storing", err)
			}
		}
	}
	if hook := s.failCommit.Load(); hook != nil {
		if err := (*hook)(); err != nil {
			return fail("committing", err)
		}
	}
	if _, err := s.prepared(ctx, "COMMIT").ExecContext(ctx); err != nil {
		return fail("committing", err)
	}
	return nil
}

// prepared returns query prepared on the writer's connection, preparing
// it on first use; a statement that cannot be prepared fails when run.
func (s *store) prepared(ctx context.Context, query string) preparedStmt {
	if st, ok := s.stmts[query]; ok {
		return st
	}
	st, err := s.conn.PrepareContext(ctx, query)
	if err != nil {
		return failedStmt{err}
	}
	s.stmts[query] = st
	return st
}

// preparedStmt is a statement of the writer's, or the error preparing
// it gave.
type preparedStmt interface {
	ExecContext(ctx context.Context, args ...any) (sql.Result, error)
}

type failedStmt struct{ err error }

func (f failedStmt) ExecContext(context.Context, ...any) (sql.Result, error) { return nil, f.err }

// insert inserts moves with one statement, prepared once for its number
// of rows.
func (s *store) insert(ctx context.Context, moves []*move) error {
	q, ok := s.inserts[len(moves)]
	if !ok {
		q = "INSERT INTO moves (table_id, seq, seat, move, at) VALUES " + strings.Repeat("(?, ?, ?, ?, ?), ", len(moves)-1) + "(?, ?, ?, ?, ?)"
		s.inserts[len(moves)] = q
	}
	args := s.args[:0]
	for _, m := range moves {
		args = append(args, m.table, m.seq, m.seat, m.text, m.at.UnixNano())
	}
	s.args = args
	defer clear(s.args)
	_, err := s.prepared(ctx, q).ExecContext(ctx, args...)
	return err
}

// record is a table's record as the store holds it: its players and its
// moves in order.
type record struct {
	Game    string       `json:"game"`
	Players []string     `json:"players"`
	Moves   []recordMove `json:"moves"`
}

// recordMove is one move of a record.
type recordMove struct {
	By   string `json:"by"`
	Move string `json:"move"`
}

// errNoTable is returned for a table the store does not hold.
var errNoTable = errors.New("no such table")

// readRecord reads table id's record from the database (not from
// memory): what it holds is what was committed.
func (s *store) readRecord(ctx context.Context, id string) (*record, error) {
	var rec record
	var players string
	err := s.db.QueryRowContext(ctx, "SELECT game, players FROM tables WHERE id = ?", id).Scan(&rec.Game, &players)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoTable
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(players), &rec.Players); err != nil {
		return nil, fmt.Errorf("table %s's players: %w", id, err)
	}
	rows, err := s.db.QueryContext(ctx, "SELECT seat, move FROM moves WHERE table_id = ? ORDER BY seq", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	rec.Moves = []recordMove{}
	for rows.Next() {
		var seat int
		var m string
		if err := rows.Scan(&seat, &m); err != nil {
			return nil, err
		}
		by := ""
		if seat >= 0 && seat < len(rec.Players) {
			by = rec.Players[seat]
		}
		rec.Moves = append(rec.Moves, recordMove{By: by, Move: m})
	}
	return &rec, rows.Err()
}
