// Package sqlite is the embedded store: one SQLite database file in WAL
// mode, opened with the pure-Go modernc.org/sqlite driver, so that
// `parlour serve` needs no setup and no C compiler.
//
// Writes go through one writer goroutine that gathers the writes waiting
// at that moment into a single transaction (group commit): under load one
// fsync acknowledges many moves, and each write still returns only once it
// is durable.
package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"parlour/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options tune a Store. The zero value is the durable default.
type Options struct {
	// Synchronous is SQLite's synchronous setting: "FULL" (the default)
	// syncs the log at every commit before the commit's writes return, so
	// an acknowledged move survives a power cut; "NORMAL" survives a crash
	// of the process only.
	Synchronous string
	// CommitInterval is the least time between the starts of two of the
	// writer's transactions (0: DefaultCommitInterval; negative: none).
	// Writes that arrive meanwhile wait and share the next one. Each
	// commit costs a sync of the log (with FULL, an fsync: about 0.1 ms of
	// CPU on a virtual disk) and a fixed amount of SQLite's work, so under
	// load fewer, fuller commits leave the CPU to the moves; an idle store
	// commits a lone write at once, since its last commit is long past.
	// A client whose writes follow each other closely waits up to the
	// interval for each. (Waiting only while several writes share a
	// commit was tried and dropped: at 1,000 moves/s most commits then
	// held a single move, and the server spent half as much CPU again.)
	CommitInterval time.Duration
	// NoMigrate opens a database that lacks migrations with
	// store.ErrUnmigrated, naming them, instead of applying them: tools
	// that run beside a server leave its schema to it.
	NoMigrate bool

	// restartLog overrides restartLogBytes, for tests.
	restartLog int64
	// syncFile, when set, replaces the writer's own sync of the log
	// (logSync), for tests.
	syncFile func(f *os.File, held bool) error
}

// DefaultCommitInterval bounds the writer to a thousand commits a second:
// a write waits at most this long for the commit it shares.
const DefaultCommitInterval = time.Millisecond

// Store is a store.Store kept in one SQLite database.
type Store struct {
	migrated []string // Migrated
	newer    []string // NewerMigrations
	db       *sql.DB
	writes   chan *write
	every    time.Duration // see Options.CommitInterval
	done     chan struct{}
	catchUp  chan struct{} // the checkpointer asks the writer to finish a checkpoint
	// wrote tells the checkpointer that the log has frames to copy back
	// (a commit, or a checkpoint that left some): an idle store's
	// checkpointer sleeps until then.
	wrote chan struct{}
	// pageSize is the database's page size in bytes, restartLog the
	// size of the log at which the writer lets it start over (see
	// checkpointer).
	pageSize   int64
	restartLog int64
	mu         sync.RWMutex // guards closed against sends on writes
	closed     bool

	stats Stats
	smu   sync.Mutex

	// moves and which are runTx's buffers, kept by the writer.
	moves []*appendMove
	which []int
	// wconn is the writer's own connection, and ex what runs its
	// statements on it.
	wconn *sql.Conn
	ex    *execer
	// log is the writer's own sync of the write-ahead log, nil when
	// SQLite syncs it (see logSync); broken is the error of a sync that
	// failed, after which the store takes no more writes.
	log    *logSync
	broken error

	// stmts holds the statements prepared so far, by their text: each of
	// the store's queries is parsed once, not at every use.
	stmtMu sync.Mutex
	stmts  map[string]*sql.Stmt

	// ids remembers the identities read (identities.go).
	ids identityCache
}

// stmt returns query prepared, preparing it on first use.
func (s *Store) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	s.stmtMu.Lock()
	defer s.stmtMu.Unlock()
	if st, ok := s.stmts[query]; ok {
		return st, nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s.stmts[query] = st
	return st, nil
}

// queryRow runs a query that returns one row, as a statement prepared
// once.
func (s *Store) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := s.stmt(ctx, query)
	if err != nil {
		// Let the query itself report the problem through its Row.
		return s.db.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// inList returns the placeholders of an SQL "IN (...)" list for vals,
// "(?, ?, ?)", and vals as the query's arguments. vals must not be empty:
// "IN ()" is not SQL.
func inList(vals []string) (string, []any) {
	args := make([]any, len(vals))
	for i, v := range vals {
		args[i] = v
	}
	return "(?" + strings.Repeat(", ?", len(vals)-1) + ")", args
}

// Stats counts the store's group commits.
type Stats struct {
	Commits int64 // transactions committed
	Writes  int64 // writes they held
	// Checkpoints counts the log's copies back into the database, and
	// CheckpointErrors those that failed (the log then waits for the
	// next one).
	Checkpoints, CheckpointErrors int64
}

// Open opens (creating if need be) the database at path, applies the
// migrations it lacks, and starts the writer.
func Open(ctx context.Context, path string, opt Options) (*Store, error) {
	sync := strings.ToUpper(opt.Synchronous)
	if sync == "" {
		sync = "FULL"
	}
	if sync != "FULL" && sync != "NORMAL" {
		return nil, fmt.Errorf("sqlite: synchronous must be FULL or NORMAL, not %q", opt.Synchronous)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	// The database holds password hashes and token hashes: a new one is
	// made readable by its owner alone. SQLite gives its -wal and -shm
	// files the same mode as the database's.
	if f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("sqlite: creating %s: %w", path, err)
	} else if f, err := os.OpenFile(abs, os.O_RDWR, 0); err == nil {
		// Builds before that made the database readable by everyone:
		// an upgraded one stops being so, with its -wal and -shm files
		// (SQLite makes them again with the database's mode). The
		// group's access is the operator's to give. A file this user
		// may write but does not own cannot be changed: it is served
		// as before rather than refused.
		if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&0o007 != 0 {
			for _, p := range []string{abs, abs + "-wal", abs + "-shm"} {
				if fi, err := os.Stat(p); err == nil {
					os.Chmod(p, fi.Mode().Perm()&^0o007)
				}
			}
		}
		f.Close()
	} else if errors.Is(err, fs.ErrPermission) {
		// SQLite would open it read-only without a word, and the
		// server would serve with every write refused.
		return nil, fmt.Errorf("sqlite: %s is not writable by this user: run the server as the user that owns it, or let that user write it", path)
	}
	q := url.Values{}
	// temp_store(MEMORY) keeps the statement journal of a multi-row insert
	// in memory rather than in a temporary file (it is only needed to undo
	// the statement, never after a crash); cache_size(-16384) gives each
	// connection 16 MiB of page cache, so the writer finds the pages of the
	// live tables' moves in memory rather than reading them back.
	for _, p := range []string{"journal_mode(WAL)", "synchronous(" + sync + ")", "busy_timeout(10000)", "foreign_keys(1)", "wal_autocheckpoint(0)", "temp_store(MEMORY)", "cache_size(-16384)"} {
		q.Add("_pragma", p)
	}
	dsn := "file:" + (&url.URL{Path: abs}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: opening %s: %w", path, err)
	}
	// One connection is the writer's; the others serve reads.
	db.SetMaxOpenConns(5)
	db.SetMaxIdleConns(5)
	db.SetConnMaxIdleTime(0)
	migrated, err := migrate(ctx, db, migrations, !opt.NoMigrate)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: migrating %s: %w", path, err)
	}
	newer, err := newerMigrations(ctx, db, migrations)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: reading %s's migrations: %w", path, err)
	}
	s := &Store{migrated: migrated, newer: newer, db: db, writes: make(chan *write, maxBatch), every: opt.CommitInterval, done: make(chan struct{}), catchUp: make(chan struct{}, 1), wrote: make(chan struct{}, 1), stmts: map[string]*sql.Stmt{}}
	if s.every == 0 {
		s.every = DefaultCommitInterval
	}
	s.wconn, err = db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: opening the writer's connection: %w", err)
	}
	if sync == "FULL" && ownLogSync {
		if _, err := s.wconn.ExecContext(ctx, "PRAGMA synchronous(NORMAL)"); err != nil {
			db.Close()
			return nil, fmt.Errorf("sqlite: setting up the writer's connection: %w", err)
		}
		s.log = &logSync{path: abs + "-wal", sync: syncFile}
		if opt.syncFile != nil {
			s.log.sync = opt.syncFile
		}
	}
	if err := db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&s.pageSize); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: reading the page size: %w", err)
	}
	s.restartLog = cmp.Or(opt.restartLog, restartLogBytes)
	go s.writer()
	go s.checkpointer()
	return s, nil
}

// migrate applies, in the order of their numbers, every embedded
// migration the database has not had, and records each by name in
// schema_migrations, in the same transaction as the migration itself.
// Migrations are found by name, not by a high-water mark: a database
// that had 003 applied by a build without 002 still gets 002 from a
// build that has it. A database from before schema_migrations counts
// the migrations numbered up to its user_version as applied. It returns
// the names of those it applied, in order.
func migrate(ctx context.Context, db *sql.DB, fsys fs.FS, apply bool) ([]string, error) {
	paths, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	type migration struct {
		n    int
		name string
		path string
	}
	var all []migration
	for _, p := range paths {
		base := filepath.Base(p)
		n, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("migration %s: name must start with its number", base)
		}
		all = append(all, migration{n, base, p})
	}
	sort.Slice(all, func(i, j int) bool {
		return all[i].n < all[j].n || all[i].n == all[j].n && all[i].name < all[j].name
	})
	var have int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return nil, err
	}
	var tracked int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").Scan(&tracked); err != nil {
		return nil, err
	}
	if tracked == 0 && !apply {
		var lack []string
		for _, m := range all {
			if m.n > have {
				lack = append(lack, m.name)
			}
		}
		if len(lack) == 0 {
			lack = []string{"its record of them, schema_migrations"}
		}
		return nil, unmigrated(lack)
	}
	if tracked == 0 {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied INTEGER NOT NULL)"); err != nil {
			tx.Rollback()
			return nil, fmt.Errorf("recording migrations: %w", err)
		}
		for _, m := range all {
			if m.n <= have {
				if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (name, applied) VALUES (?, ?)", m.name, nanos(time.Now())); err != nil {
					tx.Rollback()
					return nil, fmt.Errorf("recording migrations: %w", err)
				}
			}
		}
		if err := tx.Commit(); err != nil {
			return nil, fmt.Errorf("recording migrations: %w", err)
		}
	}
	applied := map[string]bool{}
	rows, err := db.QueryContext(ctx, "SELECT name FROM schema_migrations")
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return nil, err
		}
		applied[name] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !apply {
		var lack []string
		for _, m := range all {
			if !applied[m.name] {
				lack = append(lack, m.name)
			}
		}
		if len(lack) > 0 {
			return nil, unmigrated(lack)
		}
		return nil, nil
	}
	var done []string
	for _, m := range all {
		if applied[m.name] {
			continue
		}
		body, err := fs.ReadFile(fsys, m.path)
		if err != nil {
			return nil, err
		}
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return nil, err
		}
		have = max(have, m.n)
		for _, q := range []string{string(body), fmt.Sprintf("PRAGMA user_version = %d", have)} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				tx.Rollback()
				return nil, fmt.Errorf("migration %s: %w", m.name, err)
			}
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (name, applied) VALUES (?, ?)", m.name, nanos(time.Now())); err != nil {
			tx.Rollback()
			return nil, fmt.Errorf("migration %s: %w", m.name, err)
		}
		if err := tx.Commit(); err != nil {
			return nil, fmt.Errorf("migration %s: %w", m.name, err)
		}
		done = append(done, m.name)
	}
	return done, nil
}

// unmigrated is store.ErrUnmigrated naming what the database lacks.
func unmigrated(names []string) error {
	return fmt.Errorf("%w: %s", store.ErrUnmigrated, strings.Join(names, ", "))
}

// newerMigrations lists the migrations recorded in db that fsys does not
// hold: a newer build has migrated the database.
func newerMigrations(ctx context.Context, db *sql.DB, fsys fs.FS) ([]string, error) {
	paths, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, p := range paths {
		known[filepath.Base(p)] = true
	}
	rows, err := db.QueryContext(ctx, "SELECT name FROM schema_migrations ORDER BY name")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		if !known[name] {
			out = append(out, name)
		}
	}
	return out, rows.Err()
}

// Migrated lists the migrations Open applied, in order: every one for a
// new database, the ones an older build's database lacked, none for a
// database this build migrated before. serve logs them, so that an
// operator who upgrades sees what changed.
func (s *Store) Migrated() []string { return s.migrated }

// NewerMigrations lists the migrations the database has had that this
// build does not know, found when it was opened: a newer build served it
// and was rolled back. This one works on it (builds side by side are
// meant to), but the newer one's data may be beyond it, so serve says so.
func (s *Store) NewerMigrations() []string { return s.newer }

// Close waits for the pending writes, stops the writer and closes the
// database.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.writes)
	s.mu.Unlock()
	<-s.done
	err := s.closeRaw()
	err = cmp.Or(err, s.log.close(), s.wconn.Close())
	s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	return cmp.Or(err, s.db.Close())
}

func nanos(t time.Time) int64 { return t.UnixNano() }

func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }

func isConstraint(err error) bool {
	return err != nil && strings.Contains(err.Error(), "constraint failed")
}

// CreateIdentity implements store.Store.
func (s *Store) CreateIdentity(ctx context.Context, id store.Identity, cred store.Credential) error {
	return s.do(ctx, func(ex *execer) error {
		if _, err := ex.exec("INSERT INTO identities (id, name, created) VALUES (?, ?, ?)", id.ID, id.Name, nanos(id.Created)); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("identity %s: %w", id.ID, store.ErrConflict)
			}
			return fmt.Errorf("sqlite: creating identity: %w", err)
		}
		return insertCredential(ex, cred)
	})
}

func insertCredential(ex *execer, c store.Credential) error {
	if _, err := ex.exec("INSERT INTO credentials (hash, identity, table_id, seat) VALUES (?, ?, ?, ?)", c.Hash, c.Identity, c.Table, c.Seat); err != nil {
		if isConstraint(err) {
			return fmt.Errorf("credential: %w", store.ErrConflict)
		}
		return fmt.Errorf("sqlite: storing credential: %w", err)
	}
	return nil
}

// AddCredential implements store.Store.
func (s *Store) AddCredential(ctx context.Context, c store.Credential) error {
	return s.do(ctx, func(ex *execer) error { return insertCredential(ex, c) })
}

// Credential implements store.Store.
func (s *Store) Credential(ctx context.Context, h []byte) (store.Credential, error) {
	c := store.Credential{Hash: h}
	var used int64
	err := s.queryRow(ctx, "SELECT identity, table_id, seat, used FROM credentials WHERE hash = ?", h).Scan(&c.Identity, &c.Table, &c.Seat, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("credential: %w", store.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("sqlite: reading credential: %w", err)
	}
	if used != 0 {
		c.Used = fromNanos(used)
	}
	return c, nil
}

// Identity implements store.Store.
func (s *Store) Identity(ctx context.Context, id string) (store.Identity, error) {
	if i, ok := s.ids.get(id); ok {
		return i, nil
	}
	gen := s.ids.begin()
	out := store.Identity{ID: id}
	var created int64
	err := s.queryRow(ctx, `SELECT i.name, i.created, a.identity IS NOT NULL FROM identities i
		LEFT JOIN accounts a ON a.identity = i.id WHERE i.id = ?`, id).Scan(&out.Name, &created, &out.Account)
	if errors.Is(err, sql.ErrNoRows) {
		return out, fmt.Errorf("identity %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return out, fmt.Errorf("sqlite: reading identity: %w", err)
	}
	out.Created = fromNanos(created)
	s.ids.put(out, gen)
	return out, nil
}

// CreateTable implements store.Store.
func (s *Store) CreateTable(ctx context.Context, t store.Table) error {
	return s.do(ctx, func(ex *execer) error { return insertTable(ex, t) })
}

func insertTable(ex *execer, t store.Table) error {
	_, err := ex.exec("INSERT INTO tables (id, game, status, created, updated, meta) VALUES (?, ?, ?, ?, ?, ?)",
		t.ID, t.Game, string(t.Status), nanos(t.Created), nanos(t.Updated), t.Meta)
	if isConstraint(err) {
		return fmt.Errorf("table %s: %w", t.ID, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("sqlite: creating table: %w", err)
	}
	return nil
}

func updateTable(ex *execer, id string, status store.Status, meta []byte) error {
	n, err := ex.exec("UPDATE tables SET status = ?, meta = ?, updated = ? WHERE id = ?", string(status), meta, nanos(time.Now()), id)
	if err != nil {
		return fmt.Errorf("sqlite: updating table: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("table %s: %w", id, store.ErrNotFound)
	}
	return nil
}

// UpdateTable implements store.Store.
func (s *Store) UpdateTable(ctx context.Context, id string, status store.Status, meta []byte) error {
	return s.do(ctx, func(ex *execer) error { return updateTable(ex, id, status, meta) })
}

// AppendMove implements store.Store. A move's sequence number is the
// table's key with it, so a move stored twice is refused; the server, which
// holds a table while its move is written, keeps the numbers consecutive.
func (s *Store) AppendMove(ctx context.Context, id string, m store.Move, u *store.Update) error {
	if u == nil {
		// One allocation holds the write and its move.
		wm := &struct {
			w write
			m appendMove
		}{m: appendMove{table: id, m: m}}
		wm.w = write{move: &wm.m, err: make(chan error, 1)}
		return s.send(ctx, &wm.w)
	}
	return s.do(ctx, func(ex *execer) error {
		if err := ex.insertMoves(0, []*appendMove{{table: id, m: m}}); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("move %d of table %s is already stored: %w", m.Seq, id, store.ErrConflict)
			}
			return fmt.Errorf("sqlite: storing move: %w", err)
		}
		if err := updateTable(ex, id, u.Status, u.Meta); err != nil {
			return err
		}
		if u.End != nil {
			return endGame(ex, id, u.End)
		}
		return nil
	})
}

// Write implements store.Store: the batch is one write of the writer's,
// so it shares a transaction with others but succeeds or fails whole.
func (s *Store) Write(ctx context.Context, b store.Batch) error {
	return s.do(ctx, func(ex *execer) error {
		if b.Challenge != nil {
			if err := settleChallenge(ex, *b.Challenge); err != nil {
				return err
			}
		}
		for _, id := range b.Identities {
			if _, err := ex.exec("INSERT INTO identities (id, name, created) VALUES (?, ?, ?)", id.ID, id.Name, nanos(id.Created)); err != nil {
				if isConstraint(err) {
					return fmt.Errorf("identity %s: %w", id.ID, store.ErrConflict)
				}
				return fmt.Errorf("sqlite: creating identity: %w", err)
			}
		}
		if t := b.NewTable; t != nil {
			if err := insertTable(ex, *t); err != nil {
				return err
			}
			if b.Code != "" {
				if err := insertCode(ex, b.Code, t.ID); err != nil {
					return err
				}
			}
		}
		if u := b.Update; u != nil {
			if err := updateTable(ex, u.ID, u.Status, u.Meta); err != nil {
				return err
			}
			if u.End != nil {
				if err := endGame(ex, u.ID, u.End); err != nil {
					return err
				}
			}
		}
		for _, c := range b.Credentials {
			if err := insertCredential(ex, c); err != nil {
				return err
			}
		}
		return nil
	})
}

// Table implements store.Store.
func (s *Store) Table(ctx context.Context, id string) (store.Table, error) {
	t := store.Table{ID: id}
	var status string
	var created, updated int64
	err := s.queryRow(ctx, "SELECT game, status, created, updated, meta FROM tables WHERE id = ?", id).
		Scan(&t.Game, &status, &created, &updated, &t.Meta)
	if errors.Is(err, sql.ErrNoRows) {
		return t, fmt.Errorf("table %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return t, fmt.Errorf("sqlite: reading table: %w", err)
	}
	t.Status, t.Created, t.Updated = store.Status(status), fromNanos(created), fromNanos(updated)
	rows, err := s.db.QueryContext(ctx, "SELECT seq, seat, move, at FROM moves WHERE table_id = ? ORDER BY seq", id)
	if err != nil {
		return t, fmt.Errorf("sqlite: reading moves: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m store.Move
		var at int64
		if err := rows.Scan(&m.Seq, &m.Seat, &m.Text, &at); err != nil {
			return t, fmt.Errorf("sqlite: reading moves: %w", err)
		}
		m.At = fromNanos(at)
		t.Moves = append(t.Moves, m)
	}
	return t, rows.Err()
}

// LiveTables implements store.Store. It reads the tables and their moves
// in two scans rather than one query per table, so that a restart with
// many live tables is quick.
func (s *Store) LiveTables(ctx context.Context) ([]store.Table, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, game, status, created, updated, meta FROM tables WHERE status NOT IN (?, ?) ORDER BY id", string(store.Finished), string(store.Cancelled))
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading live tables: %w", err)
	}
	var out []store.Table
	index := map[string]int{}
	for rows.Next() {
		var t store.Table
		var status string
		var created, updated int64
		if err := rows.Scan(&t.ID, &t.Game, &status, &created, &updated, &t.Meta); err != nil {
			rows.Close()
			return nil, fmt.Errorf("sqlite: reading live tables: %w", err)
		}
		t.Status, t.Created, t.Updated = store.Status(status), fromNanos(created), fromNanos(updated)
		index[t.ID] = len(out)
		out = append(out, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: reading live tables: %w", err)
	}
	mrows, err := s.db.QueryContext(ctx, `SELECT m.table_id, m.seq, m.seat, m.move, m.at FROM moves m
		JOIN tables t ON t.id = m.table_id WHERE t.status NOT IN (?, ?) ORDER BY m.table_id, m.seq`, string(store.Finished), string(store.Cancelled))
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading live moves: %w", err)
	}
	defer mrows.Close()
	for mrows.Next() {
		var id string
		var m store.Move
		var at int64
		if err := mrows.Scan(&id, &m.Seq, &m.Seat, &m.Text, &at); err != nil {
			return nil, fmt.Errorf("sqlite: reading live moves: %w", err)
		}
		m.At = fromNanos(at)
		if i, ok := index[id]; ok {
			out[i].Moves = append(out[i].Moves, m)
		}
	}
	return out, mrows.Err()
}

// Recent implements store.Store.
func (s *Store) Recent(ctx context.Context, status store.Status, limit int) ([]store.Table, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, game, status, created, updated, meta FROM tables WHERE status = ? ORDER BY created DESC LIMIT ?", string(status), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading tables: %w", err)
	}
	defer rows.Close()
	var out []store.Table
	for rows.Next() {
		var t store.Table
		var st string
		var created, updated int64
		if err := rows.Scan(&t.ID, &t.Game, &st, &created, &updated, &t.Meta); err != nil {
			return nil, fmt.Errorf("sqlite: reading tables: %w", err)
		}
		t.Status, t.Created, t.Updated = store.Status(st), fromNanos(created), fromNanos(updated)
		out = append(out, t)
	}
	return out, rows.Err()
}

var _ store.Store = (*Store)(nil)
