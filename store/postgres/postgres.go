// Package postgres is the clustered store: a store.Store (and every
// optional store interface: Players, Chats, Challenges, Dailies, Keys,
// Invites, and Leases, which only a shared store needs) kept in PostgreSQL through github.com/jackc/pgx/v5, so that any
// number of `parlour serve` nodes share one database. The
// embedded store/sqlite stays the default; this one holds the same things
// with the same meaning, and the tests of package store/storetest run
// against both.
//
// # Writes
//
// Every write is one PostgreSQL transaction and returns only once it is
// committed (durable, with the server's default synchronous_commit), so
// a batch (store.Batch, a move with its table's update, an account with
// its session) stands or falls whole. Once a write has started it runs to
// its end whatever its caller's context says (bounded by
// Options.WriteTimeout): a caller that gave up must not be told that a
// committed move failed.
//
// Plain appends of moves, the bulk of a busy server's writes, are gathered
// as in store/sqlite: a few appender goroutines each take the appends
// waiting at that moment and insert them with one statement,
//
//	INSERT INTO moves ... SELECT * FROM unnest($1, ...) ON CONFLICT DO NOTHING RETURNING ...
//
// one round trip and one commit for many tables' moves. A move whose
// number is already stored is absent from what the statement returns: it
// alone is refused with store.ErrConflict, and the others are stored.
// PostgreSQL itself shares one WAL flush among the commits of concurrent
// transactions, so the appenders and the other writes need no more
// grouping than that.
//
// Concurrent writes that read what they change (the ratings of a rated
// game's end) lock the rows they read (SELECT ... FOR UPDATE, in a fixed
// order), so that two games of one player ending at once both count, as
// the single writer of store/sqlite guarantees.
//
// # Fencing
//
// In a cluster each live table has one owner node, holding a lease with an
// epoch (store.Leases: table_leases, one row per table, times by the
// database's clock); a node that lost its lease must never commit a move.
// A write fenced with an epoch (store.Move.Epoch, store.TableUpdate.Epoch)
// is made only if the table's lease still has that epoch, checked under a
// share lock of the lease's row held to the write's commit: the appenders'
// statement checks each fenced row with EXISTS (... FOR SHARE), the other
// writes with fence. A takeover updates that row, so it waits for a write
// in flight and then finds the table with that write in it; a write that
// comes after the takeover finds another epoch and is refused with
// store.ErrFenced. An unfenced write (epoch 0) is made as before.
//
// # Schema
//
// Migrations are the embedded SQL files of migrations/, applied in the
// order of their numbers, each recorded by name in schema_migrations, all
// under a transaction-scoped advisory lock so that nodes starting at once
// migrate the database once. Times are timestamptz: they come back to the
// microsecond, in UTC.
package postgres

import (
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"parlour/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options tune a Store. The zero value is the default.
type Options struct {
	// MaxConns caps the pool's connections to the server (0: 16).
	MaxConns int32
	// Appenders is how many goroutines insert plain appends, each one
	// statement at a time (0: 4). More of them overlap more round trips;
	// fewer gather more moves to a statement.
	Appenders int
	// WriteTimeout bounds a write once started, whatever its caller's
	// context (0: 30 s).
	WriteTimeout time.Duration
	// Serve, unless NoServeLock, takes LockServe's lock (ServeNode's
	// shared) before the migrations, and holds it until Close: a server
	// refused because the database is served (ErrServed) changes
	// nothing in it, not even a newer build's migrations.
	Serve ServeLock
	// Log hears of the serve lock lost with its connection and taken
	// again (nil: nothing is logged).
	Log *slog.Logger
	// NoMigrate opens a database that lacks migrations with
	// store.ErrUnmigrated, naming them, instead of applying them: tools
	// that run beside a server leave its schema to it.
	NoMigrate bool
}

// maxBatch caps the moves one appender statement inserts.
const maxBatch = 512

// migrationLock is the key of the advisory lock under which a node
// migrates the database ("parlour" in ASCII).
const migrationLock = 0x7061726c6f7572

// Store is a store.Store kept in a PostgreSQL database.
type Store struct {
	lock     *serveLock // Options.Serve's lock, nil without one
	log      *slog.Logger
	migrated []string // Migrated
	newer    []string // NewerMigrations
	pool     *pgxpool.Pool
	timeout  time.Duration

	appends chan *appendReq
	wg      sync.WaitGroup // the appenders
	mu      sync.RWMutex   // guards closed against sends on appends
	closed  bool

	smu   sync.Mutex
	stats Stats
}

// Stats counts the appenders' statements.
type Stats struct {
	Commits int64 // statements (each its own transaction) the appenders ran
	Writes  int64 // moves they held
}

// poolConfig reads the connection string url: the pool holds
// opt.MaxConns connections, else as many as the string's pool_max_conns
// says (an operator sharing PostgreSQL's max_connections among nodes),
// else 16.
func poolConfig(url string, opt Options) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: the connection string: %w", err)
	}
	switch {
	case opt.MaxConns > 0:
		cfg.MaxConns = opt.MaxConns
	case !strings.Contains(url, "pool_max_conns"):
		cfg.MaxConns = 16
	}
	return cfg, nil
}

// Open connects to the database at url (a postgres:// URL or a
// key=value connection string), applies the migrations it lacks, and
// starts the appenders. It fails, naming PostgreSQL and the reason, when
// the server cannot be reached.
func Open(ctx context.Context, url string, opt Options) (*Store, error) {
	cfg, err := poolConfig(url, opt)
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: cannot reach the database: %w", err)
	}
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var lock *serveLock
	unlock := func() {}
	if opt.Serve != NoServeLock {
		if lock, err = lockServe(ctx, cfg.ConnConfig, opt.Serve == ServeNode, log); err != nil {
			pool.Close()
			return nil, err
		}
		unlock = lock.release
	}
	migrated, err := migrate(ctx, pool, migrations, !opt.NoMigrate)
	if err != nil {
		unlock()
		pool.Close()
		return nil, fmt.Errorf("postgres: migrating: %w", err)
	}
	newer, err := newerMigrations(ctx, pool, migrations)
	if err != nil {
		unlock()
		pool.Close()
		return nil, fmt.Errorf("postgres: reading the migrations: %w", err)
	}
	s := &Store{
		lock:     lock,
		log:      log,
		migrated: migrated,
		newer:    newer,
		pool:     pool,
		timeout:  cmp.Or(opt.WriteTimeout, 30*time.Second),
		appends:  make(chan *appendReq, maxBatch),
	}
	for range cmp.Or(opt.Appenders, 4) {
		s.wg.Add(1)
		go s.appender()
	}
	return s, nil
}

// migrate applies, in the order of their numbers, every migration of fsys
// the database has not had, and records each by name in
// schema_migrations, all in one transaction under an advisory lock: of
// several nodes starting at once, one migrates and the others then find
// nothing left to do. It returns the names of those it applied, in order.
func migrate(ctx context.Context, pool *pgxpool.Pool, fsys fs.FS, apply bool) ([]string, error) {
	paths, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	type migration struct {
		n          int
		name, path string
	}
	var all []migration
	for _, p := range paths {
		base := path.Base(p)
		n, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("migration %s: name must start with its number", base)
		}
		all = append(all, migration{n, base, p})
	}
	sort.Slice(all, func(i, j int) bool {
		return all[i].n < all[j].n || all[i].n == all[j].n && all[i].name < all[j].name
	})
	var done []string
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrationLock)); err != nil {
			return fmt.Errorf("locking: %w", err)
		}
		if _, err := tx.Exec(ctx, "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied timestamptz NOT NULL)"); err != nil {
			return fmt.Errorf("recording migrations: %w", err)
		}
		rows, err := tx.Query(ctx, "SELECT name FROM schema_migrations")
		if err != nil {
			return err
		}
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		applied := map[string]bool{}
		for _, n := range names {
			applied[n] = true
		}
		if !apply {
			// The transaction is rolled back, schema_migrations with
			// it if it made it.
			var lack []string
			for _, m := range all {
				if !applied[m.name] {
					lack = append(lack, m.name)
				}
			}
			if len(lack) > 0 {
				return fmt.Errorf("%w: %s", store.ErrUnmigrated, strings.Join(lack, ", "))
			}
			return nil
		}
		for _, m := range all {
			if applied[m.name] {
				continue
			}
			body, err := fs.ReadFile(fsys, m.path)
			if err != nil {
				return err
			}
			// Without arguments pgx sends the file as one simple query,
			// so it may hold many statements.
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (name, applied) VALUES ($1, now())", m.name); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			done = append(done, m.name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return done, nil
}

// newerMigrations lists the migrations recorded in the database that fsys
// does not hold: a newer build has migrated it.
func newerMigrations(ctx context.Context, pool *pgxpool.Pool, fsys fs.FS) ([]string, error) {
	paths, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, p := range paths {
		known[path.Base(p)] = true
	}
	rows, err := pool.Query(ctx, "SELECT name FROM schema_migrations ORDER BY name")
	if err != nil {
		return nil, err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if !known[n] {
			out = append(out, n)
		}
	}
	return out, nil
}

// Migrated lists the migrations Open applied, in order: every one for a
// new database, the ones an older build's database lacked, none when
// another node or an earlier start had applied them. serve logs them,
// so that an operator who upgrades sees what changed.
func (s *Store) Migrated() []string { return s.migrated }

// NewerMigrations lists the migrations the database has had that this
// build does not know, found when it was opened: a newer build served it
// (a cluster's nodes being upgraded one at a time, or a build rolled
// back). This one works on it, but the newer one's data may be beyond
// it, so serve says so.
func (s *Store) NewerMigrations() []string { return s.newer }

// Ping makes a round trip to PostgreSQL on one of the pool's connections
// (store.Pinger).
func (s *Store) Ping(ctx context.Context) error {
	s.mu.RLock()
	closed := s.closed
	s.mu.RUnlock()
	if closed {
		return errors.New("postgres: store is closed")
	}
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

// Close waits for the pending appends, stops the appenders and closes the
// pool.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.appends)
	s.mu.Unlock()
	s.wg.Wait()
	s.pool.Close()
	if s.lock != nil {
		s.lock.release()
	}
	return nil
}

// Lost receives an error once if the lock Open took (Options.Serve) is
// lost to another server: its connection ended (PostgreSQL restarted),
// and another server took the lock before this one could take it again.
// Two servers would then run the same tables, so the server must stop.
// Without a lock it never receives.
func (s *Store) Lost() <-chan error {
	if s.lock == nil {
		return nil
	}
	return s.lock.lost
}

// Stats reports the appenders' statements and the moves they held.
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

// PostgreSQL's error codes (SQLSTATE) that the store tells apart.
const (
	classIntegrity = "23"    // a constraint refused the write
	diskFull       = "53100" // disk_full
	ioError        = "58030" // io_error
)

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// isConstraint reports whether a constraint (a key taken, a reference to
// nothing) refused the write, as store/sqlite's constraint failures.
func isConstraint(err error) bool {
	return strings.HasPrefix(pgCode(err), classIntegrity)
}

// noSpace marks err with store.ErrNoSpace when PostgreSQL refused the write
// for lack of disk or because its disk failed.
func noSpace(err error) error {
	switch pgCode(err) {
	case diskFull, ioError:
		return fmt.Errorf("%w: %w", store.ErrNoSpace, err)
	}
	return err
}

// querier is what the statements need of a pool or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// writeCtx is the context a write runs in once started: ctx's values
// without its cancellation, bounded by the write timeout.
func (s *Store) writeCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), s.timeout)
}

// tx runs fn in one transaction and commits it when fn returns nil.
func (s *Store) tx(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) error) error {
	if err := s.open(ctx); err != nil {
		return err
	}
	wctx, cancel := s.writeCtx(ctx)
	defer cancel()
	return noSpace(pgx.BeginFunc(wctx, s.pool, func(tx pgx.Tx) error { return fn(wctx, tx) }))
}

// write runs fn, a write of one statement (and perhaps a read after it),
// on the pool without a transaction of its own: PostgreSQL makes each
// statement atomic by itself, and a BEGIN and a COMMIT would be two more
// round trips (the leases renewed every few seconds for each live table
// are the cluster's most frequent writes after the moves).
func (s *Store) write(ctx context.Context, fn func(ctx context.Context, q querier) error) error {
	if err := s.open(ctx); err != nil {
		return err
	}
	wctx, cancel := s.writeCtx(ctx)
	defer cancel()
	return noSpace(fn(wctx, s.pool))
}

// open fails once the store is closed, or when ctx is done before the
// write starts.
func (s *Store) open(ctx context.Context) error {
	s.mu.RLock()
	closed := s.closed
	s.mu.RUnlock()
	if closed {
		return errors.New("postgres: store is closed")
	}
	return ctx.Err()
}

// utc returns t in UTC, as store/sqlite returns times.
func utc(t time.Time) time.Time { return t.UTC() }

// CreateIdentity implements store.Store.
func (s *Store) CreateIdentity(ctx context.Context, id store.Identity, cred store.Credential) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if err := insertIdentity(ctx, tx, id); err != nil {
			return err
		}
		return insertCredential(ctx, tx, cred)
	})
}

func insertIdentity(ctx context.Context, q querier, id store.Identity) error {
	if _, err := q.Exec(ctx, "INSERT INTO identities (id, name, created) VALUES ($1, $2, $3)", id.ID, id.Name, id.Created); err != nil {
		if isConstraint(err) {
			return fmt.Errorf("identity %s: %w", id.ID, store.ErrConflict)
		}
		return fmt.Errorf("postgres: creating identity: %w", err)
	}
	return nil
}

func insertCredential(ctx context.Context, q querier, c store.Credential) error {
	if _, err := q.Exec(ctx, "INSERT INTO credentials (hash, identity, table_id, seat) VALUES ($1, $2, $3, $4)", c.Hash, c.Identity, c.Table, c.Seat); err != nil {
		if isConstraint(err) {
			return fmt.Errorf("credential: %w", store.ErrConflict)
		}
		return fmt.Errorf("postgres: storing credential: %w", err)
	}
	return nil
}

// AddCredential implements store.Store.
func (s *Store) AddCredential(ctx context.Context, c store.Credential) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error { return insertCredential(ctx, tx, c) })
}

// Credential implements store.Store.
func (s *Store) Credential(ctx context.Context, h []byte) (store.Credential, error) {
	c := store.Credential{Hash: h}
	var used *time.Time
	err := s.pool.QueryRow(ctx, "SELECT identity, table_id, seat, used FROM credentials WHERE hash = $1", h).Scan(&c.Identity, &c.Table, &c.Seat, &used)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, fmt.Errorf("credential: %w", store.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("postgres: reading credential: %w", err)
	}
	if used != nil {
		c.Used = utc(*used)
	}
	return c, nil
}

// Identity implements store.Store.
func (s *Store) Identity(ctx context.Context, id string) (store.Identity, error) {
	out := store.Identity{ID: id}
	err := s.pool.QueryRow(ctx, `SELECT i.name, i.created, a.identity IS NOT NULL FROM identities i
		LEFT JOIN accounts a ON a.identity = i.id WHERE i.id = $1`, id).Scan(&out.Name, &out.Created, &out.Account)
	if errors.Is(err, pgx.ErrNoRows) {
		return out, fmt.Errorf("identity %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return out, fmt.Errorf("postgres: reading identity: %w", err)
	}
	out.Created = utc(out.Created)
	return out, nil
}

// CreateTable implements store.Store.
func (s *Store) CreateTable(ctx context.Context, t store.Table) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error { return insertTable(ctx, tx, t) })
}

// meta returns b, or an empty description for nil (the column holds no
// NULL).
func meta(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func insertTable(ctx context.Context, q querier, t store.Table) error {
	_, err := q.Exec(ctx, "INSERT INTO tables (id, game, status, created, updated, meta) VALUES ($1, $2, $3, $4, $5, $6)",
		t.ID, t.Game, string(t.Status), t.Created, t.Updated, meta(t.Meta))
	if isConstraint(err) {
		return fmt.Errorf("table %s: %w", t.ID, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("postgres: creating table: %w", err)
	}
	return nil
}

func updateTable(ctx context.Context, q querier, id string, status store.Status, m []byte) error {
	tag, err := q.Exec(ctx, "UPDATE tables SET status = $1, meta = $2, updated = $3 WHERE id = $4", string(status), meta(m), time.Now(), id)
	if err != nil {
		return fmt.Errorf("postgres: updating table: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("table %s: %w", id, store.ErrNotFound)
	}
	return nil
}

// UpdateTable implements store.Store.
func (s *Store) UpdateTable(ctx context.Context, id string, status store.Status, meta []byte) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error { return updateTable(ctx, tx, id, status, meta) })
}

// AppendMove implements store.Store. A plain append goes to the
// appenders, which store it with the other appends of the moment; one
// with an update is a transaction of its own.
func (s *Store) AppendMove(ctx context.Context, id string, m store.Move, u *store.Update) error {
	if u != nil {
		return s.appendWithUpdate(ctx, id, m, u)
	}
	r := &appendReq{table: id, m: m, err: make(chan error, 1)}
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return errors.New("postgres: store is closed")
	}
	select {
	case s.appends <- r:
	case <-ctx.Done():
		s.mu.RUnlock()
		return ctx.Err()
	}
	s.mu.RUnlock()
	// Once handed over, the append happens whatever ctx says: wait for
	// it, so the caller never believes a committed move failed.
	return <-r.err
}

// appendWithUpdate stores a move and its table's change (and the game's
// end) in one transaction, fenced with the move's epoch.
func (s *Store) appendWithUpdate(ctx context.Context, id string, m store.Move, u *store.Update) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if err := fence(ctx, tx, id, m.Epoch); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "INSERT INTO moves (table_id, seq, seat, move, at) VALUES ($1, $2, $3, $4, $5)", id, m.Seq, m.Seat, m.Text, m.At); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("move %d of table %s is already stored: %w", m.Seq, id, store.ErrConflict)
			}
			return fmt.Errorf("postgres: storing move: %w", err)
		}
		if err := updateTable(ctx, tx, id, u.Status, u.Meta); err != nil {
			return err
		}
		if u.End != nil {
			return endGame(ctx, tx, id, u.End)
		}
		return nil
	})
}

// Write implements store.Store: the batch is one transaction.
func (s *Store) Write(ctx context.Context, b store.Batch) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if b.Challenge != nil {
			if err := settleChallenge(ctx, tx, *b.Challenge); err != nil {
				return err
			}
		}
		for _, id := range b.Identities {
			if err := insertIdentity(ctx, tx, id); err != nil {
				return err
			}
		}
		if t := b.NewTable; t != nil {
			if err := insertTable(ctx, tx, *t); err != nil {
				return err
			}
			if b.Code != "" {
				if err := insertCode(ctx, tx, b.Code, t.ID); err != nil {
					return err
				}
			}
		}
		if u := b.Update; u != nil {
			if err := fence(ctx, tx, u.ID, u.Epoch); err != nil {
				return err
			}
			if err := updateTable(ctx, tx, u.ID, u.Status, u.Meta); err != nil {
				return err
			}
			if u.End != nil {
				if err := endGame(ctx, tx, u.ID, u.End); err != nil {
					return err
				}
			}
		}
		for _, c := range b.Credentials {
			if err := insertCredential(ctx, tx, c); err != nil {
				return err
			}
		}
		return nil
	})
}

const tableColumns = "id, game, status, created, updated, meta"

func scanTable(row pgx.Row) (store.Table, error) {
	var t store.Table
	var status string
	err := row.Scan(&t.ID, &t.Game, &status, &t.Created, &t.Updated, &t.Meta)
	t.Status, t.Created, t.Updated = store.Status(status), utc(t.Created), utc(t.Updated)
	return t, err
}

// Table implements store.Store. The table and its moves are read in one
// snapshot.
func (s *Store) Table(ctx context.Context, id string) (store.Table, error) {
	var t store.Table
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var err error
		t, err = scanTable(tx.QueryRow(ctx, "SELECT "+tableColumns+" FROM tables WHERE id = $1", id))
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("table %s: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("postgres: reading table: %w", err)
		}
		rows, err := tx.Query(ctx, "SELECT seq, seat, move, at FROM moves WHERE table_id = $1 ORDER BY seq", id)
		if err != nil {
			return fmt.Errorf("postgres: reading moves: %w", err)
		}
		t.Moves, err = pgx.CollectRows(rows, scanMove)
		if err != nil {
			return fmt.Errorf("postgres: reading moves: %w", err)
		}
		return nil
	})
	if err != nil {
		return store.Table{ID: id}, err
	}
	return t, nil
}

func scanMove(row pgx.CollectableRow) (store.Move, error) {
	var m store.Move
	err := row.Scan(&m.Seq, &m.Seat, &m.Text, &m.At)
	m.At = utc(m.At)
	return m, err
}

// LiveTables implements store.Store. It reads the tables and their moves
// in two scans of one snapshot rather than one query per table, so that a
// start with many live tables is quick.
func (s *Store) LiveTables(ctx context.Context) ([]store.Table, error) {
	var out []store.Table
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		out = nil
		rows, err := tx.Query(ctx, "SELECT "+tableColumns+" FROM tables WHERE status NOT IN ($1, $2) ORDER BY id", string(store.Finished), string(store.Cancelled))
		if err != nil {
			return fmt.Errorf("postgres: reading live tables: %w", err)
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Table, error) { return scanTable(r) })
		if err != nil {
			return fmt.Errorf("postgres: reading live tables: %w", err)
		}
		index := make(map[string]int, len(out))
		for i, t := range out {
			index[t.ID] = i
		}
		mrows, err := tx.Query(ctx, `SELECT m.table_id, m.seq, m.seat, m.move, m.at FROM moves m
			JOIN tables t ON t.id = m.table_id WHERE t.status NOT IN ($1, $2) ORDER BY m.table_id, m.seq`, string(store.Finished), string(store.Cancelled))
		if err != nil {
			return fmt.Errorf("postgres: reading live moves: %w", err)
		}
		defer mrows.Close()
		for mrows.Next() {
			var id string
			var m store.Move
			if err := mrows.Scan(&id, &m.Seq, &m.Seat, &m.Text, &m.At); err != nil {
				return fmt.Errorf("postgres: reading live moves: %w", err)
			}
			m.At = utc(m.At)
			if i, ok := index[id]; ok {
				out[i].Moves = append(out[i].Moves, m)
			}
		}
		return mrows.Err()
	})
	return out, err
}

// Recent implements store.Store.
func (s *Store) Recent(ctx context.Context, status store.Status, limit int) ([]store.Table, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+tableColumns+" FROM tables WHERE status = $1 ORDER BY created DESC LIMIT $2", string(status), limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading tables: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Table, error) { return scanTable(r) })
	if err != nil {
		return nil, fmt.Errorf("postgres: reading tables: %w", err)
	}
	return out, nil
}

var _ store.Store = (*Store)(nil)

// Now implements store.Clock: the database server's time, one clock for
// every node.
func (s *Store) Now(ctx context.Context) (time.Time, error) {
	var now time.Time
	if err := s.pool.QueryRow(ctx, "SELECT now()").Scan(&now); err != nil {
		return time.Time{}, fmt.Errorf("postgres: reading the time: %w", err)
	}
	return now.UTC(), nil
}

var _ store.Clock = (*Store)(nil)
