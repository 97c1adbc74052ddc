package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"parlour/store"
	"parlour/store/postgres/pgtest"
	"parlour/store/storetest"
)

// server is the throwaway PostgreSQL server of this package's tests (nil
// when PostgreSQL is missing: the tests then skip, or fail under CI).
var server *pgtest.Server

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &server)) }

// open opens a store on the database at url, closed when t ends.
func open(t *testing.T, url string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// harness runs the shared suite on a fresh database per test.
func harness() storetest.Harness {
	return storetest.Harness{
		Fresh: func(t *testing.T) string { return server.NewDatabase(t) },
		Open:  func(t *testing.T, url string) store.Store { return open(t, url) },
		Backdate: func(t *testing.T, url, id string, when time.Time) {
			ctx := context.Background()
			c, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(ctx)
			if _, err := c.Exec(ctx, "UPDATE tables SET updated = $1 WHERE id = $2", when, id); err != nil {
				t.Fatal(err)
			}
		},
	}
}

// TestStore runs the store's shared suite against PostgreSQL.
func TestStore(t *testing.T) {
	storetest.Run(t, harness())
}

// TestMigrateAtOnce opens one new database from several nodes at once:
// every Open succeeds, each migration is recorded once, and opening
// again applies nothing.
func TestMigrateAtOnce(t *testing.T) {
	url := server.NewDatabase(t)
	const nodes = 4
	errs := make([]error, nodes)
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Go(func() {
			s, err := Open(context.Background(), url, Options{})
			if err == nil {
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	s := open(t, url)
	rows, err := s.pool.Query(context.Background(), "SELECT name, count(*) FROM schema_migrations GROUP BY name ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Name  string
		Count int
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[row])
	if err != nil {
		t.Fatal(err)
	}
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	if len(got) != len(names) {
		t.Fatalf("schema_migrations holds %+v, want the %d migrations %v", got, len(names), names)
	}
	for i, r := range got {
		if r.Count != 1 || "migrations/"+r.Name != names[i] {
			t.Errorf("schema_migrations line %d: %+v, want %s once", i, r, names[i])
		}
	}
}

// TestMigrationsByName: migrations are applied by name, in number order:
// a database migrated by a build that had 001 and 003 gets 002 from a
// build that has all three; nothing is applied twice; a broken migration
// is refused whole and named.
func TestMigrationsByName(t *testing.T) {
	ctx := context.Background()
	url := server.NewDatabase(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	one := &fstest.MapFile{Data: []byte("CREATE TABLE one (x integer);")}
	two := &fstest.MapFile{Data: []byte("CREATE TABLE two (x integer); INSERT INTO one VALUES (2);")}
	three := &fstest.MapFile{Data: []byte("CREATE TABLE three (x integer);")}
	if _, err := migrate(ctx, pool, fstest.MapFS{"migrations/001_one.sql": one, "migrations/003_three.sql": three}, true); err != nil {
		t.Fatalf("001 and 003: %v", err)
	}
	all := fstest.MapFS{"migrations/001_one.sql": one, "migrations/002_two.sql": two, "migrations/003_three.sql": three}
	for range 2 { // the second time is a no-op
		if _, err := migrate(ctx, pool, all, true); err != nil {
			t.Fatalf("all three: %v", err)
		}
	}
	for _, table := range []string{"one", "two", "three"} {
		if _, err := pool.Exec(ctx, "INSERT INTO "+table+" VALUES (1)"); err != nil {
			t.Errorf("table %s: %v", table, err)
		}
	}
	var n int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM one WHERE x = 2").Scan(&n); err != nil || n != 1 {
		t.Errorf("002 ran %d times (%v), want once", n, err)
	}
	bad := &fstest.MapFile{Data: []byte("CREATE TABLE four (x integer); NOT SQL;")}
	_, err = migrate(ctx, pool, fstest.MapFS{"migrations/004_bad.sql": bad}, true)
	if err == nil || !strings.Contains(err.Error(), "004_bad.sql") {
		t.Errorf("a broken migration: %v", err)
	}
	if _, err := pool.Exec(ctx, "INSERT INTO four VALUES (1)"); err == nil {
		t.Error("a broken migration left its first statement behind")
	}
	if _, err := migrate(ctx, pool, fstest.MapFS{"migrations/x_bad.sql": one}, true); err == nil || !strings.Contains(err.Error(), "x_bad.sql") {
		t.Errorf("a migration without a number: %v", err)
	}
}

// TestNoMigrate: opened with NoMigrate, an empty database and one a
// migration short are refused with store.ErrUnmigrated naming what they
// lack, and left unmigrated; a migrated one opens.
func TestNoMigrate(t *testing.T) {
	ctx := context.Background()
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	but := fstest.MapFS{}
	for _, name := range names[:len(names)-1] {
		data, err := migrations.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		but[name] = &fstest.MapFile{Data: data}
	}
	last := path.Base(names[len(names)-1])
	for _, tc := range []struct {
		name  string
		fsys  fs.FS // migrated first; nil: nothing
		lacks string
		have  int // migrations recorded before and after
	}{
		{"empty", nil, "001_", 0},
		{"one migration short", but, last, len(names) - 1},
	} {
		url := server.NewDatabase(t)
		pool, err := pgxpool.New(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		if tc.fsys != nil {
			if _, err := migrate(ctx, pool, tc.fsys, true); err != nil {
				t.Fatal(err)
			}
		}
		s, err := Open(ctx, url, Options{NoMigrate: true})
		if err == nil {
			s.Close()
		}
		if !errors.Is(err, store.ErrUnmigrated) || !strings.Contains(err.Error(), tc.lacks) {
			t.Errorf("%s: Open without migrating: %v, want ErrUnmigrated naming %s", tc.name, err, tc.lacks)
		}
		var n int
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil && tc.have > 0 || n != tc.have {
			t.Errorf("%s: %d migrations recorded after (%v), want %d", tc.name, n, err, tc.have)
		}
	}
	url := server.NewDatabase(t)
	open(t, url)
	s, err := Open(ctx, url, Options{NoMigrate: true})
	if err != nil {
		t.Fatalf("a migrated database, opened without migrating: %v", err)
	}
	s.Close()
}

// migratedBefore returns a new database, and a pool onto it closed when
// t ends, that a build of the migrations numbered below number migrated:
// a database as an older build left it, to be upgraded.
func migratedBefore(t *testing.T, number string) (string, *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	url := server.NewDatabase(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	before := fstest.MapFS{}
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	for _, name := range names {
		if name >= "migrations/"+number {
			continue
		}
		data, err := migrations.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		before[name] = &fstest.MapFile{Data: data}
	}
	if _, err := migrate(ctx, pool, before, true); err != nil {
		t.Fatal(err)
	}
	return url, pool
}

// TestChatRoomsUpgrade: a database that a build before chat rooms
// migrated (every migration up to 008, with a table's chat in it) opens,
// gets the chat rooms' tables, and keeps its chat.
func TestChatRoomsUpgrade(t *testing.T) {
	ctx := context.Background()
	url, pool := migratedBefore(t, "009")
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if _, err := pool.Exec(ctx, "INSERT INTO chat (table_id, seq, channel, identity, name, seat, text, at) VALUES ('t1', 1, 'players', 'i1', 'Ann', 0, 'hi', $1)", at); err != nil {
		t.Fatal(err)
	}
	s := open(t, url)
	if got, err := s.Chat(ctx, "t1", 0, 10); err != nil || len(got) != 1 || got[0].Text != "hi" {
		t.Errorf("the old chat after the upgrade: %+v, %v", got, err)
	}
	if err := s.AppendRoomChat(ctx, store.RoomLine{Room: "tournament:x", Seq: 1, Identity: "i1", Name: "Ann", Text: "hello", At: at}); err != nil {
		t.Fatalf("a chat room in an upgraded database: %v", err)
	}
	if n, err := s.LastRoomChat(ctx, "tournament:x"); n != 1 || err != nil {
		t.Errorf("LastRoomChat after the upgrade = %d, %v", n, err)
	}
}

// TestRunsUpgrade: a database that a build before the runs migrated
// (every migration up to 018, with a game in play) opens with its last
// write standing for the end of the last run: the first run finds the
// gap from then, and the game's clock stands still through the upgrade
// rather than run on. A database with runs of its own gets none made up.
func TestRunsUpgrade(t *testing.T) {
	ctx := context.Background()
	url, pool := migratedBefore(t, "019")
	made, moved := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if _, err := pool.Exec(ctx, "INSERT INTO tables (id, game, status, created, updated, meta) VALUES ('t1', 'nymphabet', 'playing', $1, $1, '\\x7b7d')", made); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "INSERT INTO moves (table_id, seq, seat, move, at) VALUES ('t1', 1, 0, 'apple', $1)", moved); err != nil {
		t.Fatal(err)
	}
	s := open(t, url)
	at := moved.Add(time.Hour)
	_, gaps, err := s.StartRun(ctx, at, 10*time.Second)
	if err != nil || len(gaps) != 1 || !gaps[0].From.Equal(moved) || !gaps[0].To.Equal(at) {
		t.Fatalf("the first run's gaps after the upgrade: %+v, %v; want one from the last move to the start", gaps, err)
	}
	fresh := open(t, server.NewDatabase(t))
	if _, gaps, err := fresh.StartRun(ctx, at, 10*time.Second); err != nil || len(gaps) != 0 {
		t.Errorf("a new database's first run: gaps %+v, %v; want none", gaps, err)
	}
}

// TestUnreachable: a store whose server cannot be reached fails to open,
// saying it is PostgreSQL and why, within the connection timeout; a bad
// connection string is named as such.
func TestUnreachable(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	_, err := Open(ctx, "postgres://postgres@/x?host="+t.TempDir()+"&connect_timeout=2", Options{})
	if err == nil || !strings.Contains(err.Error(), "postgres: cannot reach the database") {
		t.Errorf("an unreachable server: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("failing took %v", d)
	}
	if _, err := Open(ctx, "postgres://%zz", Options{}); err == nil || !strings.Contains(err.Error(), "connection string") {
		t.Errorf("a bad connection string: %v", err)
	}
}

// TestAppendGroup hands one appender's statement a group with a move
// twice, a move already stored and a move PostgreSQL refuses (text with a
// NUL byte): each is answered for itself, and the good moves are stored.
func TestAppendGroup(t *testing.T) {
	ctx := context.Background()
	s := open(t, server.NewDatabase(t))
	for _, id := range []string{"a", "b", "c", "d"} {
		if err := s.CreateTable(ctx, store.Table{ID: id, Game: "g", Status: store.Playing, Meta: []byte("{}")}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AppendMove(ctx, "c", store.Move{Seq: 1, Text: "first"}, nil); err != nil {
		t.Fatal(err)
	}
	req := func(table string, seq int, text string) *appendReq {
		return &appendReq{table: table, m: store.Move{Seq: seq, Text: text, At: time.Now()}, err: make(chan error, 1)}
	}
	batch := []*appendReq{
		req("a", 1, "a1"),
		req("b", 1, "b1"),
		req("a", 1, "a1 again"),
		req("c", 1, "c1 again"),
		req("d", 1, "nul\x00byte"),
		req("c", 2, "c2"),
	}
	s.appendBatch(batch)
	for i, want := range []string{"stored", "stored", "conflict", "conflict", "refused", "stored"} {
		err := <-batch[i].err
		var got string
		switch {
		case err == nil:
			got = "stored"
		case errors.Is(err, store.ErrConflict):
			got = "conflict"
		default:
			got = "refused"
		}
		if got != want {
			t.Errorf("append %d (%s %d %q): %s (%v), want %s", i, batch[i].table, batch[i].m.Seq, batch[i].m.Text, got, err, want)
		}
	}
	for id, want := range map[string][]string{"a": {"a1"}, "b": {"b1"}, "c": {"first", "c2"}, "d": nil} {
		tb, err := s.Table(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, m := range tb.Moves {
			texts = append(texts, m.Text)
		}
		if !slices.Equal(texts, want) {
			t.Errorf("table %s holds %q, want %q", id, texts, want)
		}
	}
}

func TestNoSpace(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: "53100"}, true}, // disk_full
		{fmt.Errorf("commit: %w", &pgconn.PgError{Code: "53100"}), true},
		{&pgconn.PgError{Code: "58030"}, true},  // io_error
		{&pgconn.PgError{Code: "23505"}, false}, // unique_violation
		{errors.New("could not extend file: No space left on device"), false},
		{nil, false},
	} {
		if got := errors.Is(noSpace(tc.err), store.ErrNoSpace); got != tc.want {
			t.Errorf("noSpace(%v) is ErrNoSpace: %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestTakeoverWaitsForWriteInFlight slows every insert of a move down (a
// trigger sleeps) so that the old owner's fenced write is surely in flight
// when another node takes the table over: the takeover waits for it, and
// the new owner then reads the table with the move in it. Without the
// share lock of the lease's row the takeover would pass the write, read
// the table without the move, and the old owner would be told the move
// was stored all the same.
func TestTakeoverWaitsForWriteInFlight(t *testing.T) {
	ctx := context.Background()
	s := open(t, server.NewDatabase(t))
	if _, err := s.pool.Exec(ctx, `CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN PERFORM pg_sleep(0.3); RETURN NEW; END $$;
		CREATE TRIGGER slow BEFORE INSERT ON moves FOR EACH ROW EXECUTE FUNCTION slow()`); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		update *store.Update
	}{{"plain append", nil}, {"append with an update", &store.Update{Status: store.Playing, Meta: []byte(`{"x":1}`)}}} {
		t.Run(tc.name, func(t *testing.T) {
			id := strings.ReplaceAll(tc.name, " ", "-")
			if err := s.CreateTable(ctx, store.Table{ID: id, Game: "g", Status: store.Playing, Meta: []byte("{}")}); err != nil {
				t.Fatal(err)
			}
			old, err := s.AcquireLease(ctx, id, "node-a", 50*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				done <- s.AppendMove(ctx, id, store.Move{Seq: 1, Text: "in flight", At: time.Now(), Epoch: old.Epoch}, tc.update)
			}()
			time.Sleep(100 * time.Millisecond) // the lease has run out; the insert sleeps
			if _, err := s.AcquireLease(ctx, id, "node-b", time.Minute); err != nil {
				t.Fatal(err)
			}
			seen, err := s.Table(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			err = <-done
			if err == nil && len(seen.Moves) != 1 {
				t.Errorf("the old owner was told its move was stored, but the new owner read %d moves", len(seen.Moves))
			}
			if err != nil && !errors.Is(err, store.ErrFenced) {
				t.Errorf("the old owner's move: %v", err)
			}
		})
	}
}

// BenchmarkAppendMove appends moves from 16 goroutines to 64 tables, as
// store/sqlite's benchmark does. The package's server does not sync; with
// DURABLE set the benchmark starts its own server that does.
func BenchmarkAppendMove(b *testing.B) {
	ctx := context.Background()
	srv := server
	if os.Getenv("DURABLE") != "" {
		var err error
		if srv, err = pgtest.Start(ctx, pgtest.Options{Durable: true}); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { srv.Close() }) // after the database's own cleanup
	}
	s, err := Open(ctx, srv.NewDatabase(b), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	storetest.BenchAppend(b, s)
}

// TestServerRestart stops PostgreSQL under an open store, and crashes it:
// while it is down writes and reads fail with an error (and quickly), and
// once it is back the same store works again by itself, with every write
// acknowledged before still there.
func TestServerRestart(t *testing.T) {
	if server == nil {
		pgtest.Missing(t)
	}
	ctx := context.Background()
	srv, err := pgtest.Start(ctx, pgtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	s := open(t, srv.NewDatabase(t))
	if err := s.CreateTable(ctx, store.Table{ID: "t1", Game: "g", Status: store.Playing, Meta: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	seq := 0
	for _, down := range []struct {
		name string
		stop func()
	}{{"stopped", srv.Stop}, {"crashed", srv.Crash}} {
		seq++
		if err := s.AppendMove(ctx, "t1", store.Move{Seq: seq, Text: fmt.Sprint("before ", down.name), At: time.Now()}, nil); err != nil {
			t.Fatal(err)
		}
		down.stop()
		start := time.Now()
		if err := s.AppendMove(ctx, "t1", store.Move{Seq: seq + 1, Text: "while down", At: time.Now()}, nil); err == nil {
			t.Errorf("%s: an append succeeded while PostgreSQL was down", down.name)
		}
		if err := s.UpdateTable(ctx, "t1", store.Playing, []byte(`{"down":true}`)); err == nil {
			t.Errorf("%s: an update succeeded while PostgreSQL was down", down.name)
		}
		if _, err := s.Table(ctx, "t1"); err == nil {
			t.Errorf("%s: a read succeeded while PostgreSQL was down", down.name)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: failing took %v", down.name, d)
		}
		if err := srv.Restart(ctx); err != nil {
			t.Fatal(err)
		}
		seq++
		if err := s.AppendMove(ctx, "t1", store.Move{Seq: seq, Text: fmt.Sprint("after ", down.name), At: time.Now()}, nil); err != nil {
			t.Fatalf("%s: an append after the restart: %v", down.name, err)
		}
	}
	tb, err := s.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range tb.Moves {
		texts = append(texts, m.Text)
	}
	if want := []string{"before stopped", "after stopped", "before crashed", "after crashed"}; !slices.Equal(texts, want) || string(tb.Meta) != "{}" {
		t.Errorf("after two restarts: moves %q, meta %s; want %q and {}", texts, tb.Meta, want)
	}
}

// TestCanceledWriteCompletes cancels the caller's context while its write
// is in flight (a trigger makes each insert of a move sleep): the write
// still commits, and the caller is told so rather than that it failed.
// A context already done before the write starts stops it.
func TestCanceledWriteCompletes(t *testing.T) {
	ctx := context.Background()
	s := open(t, server.NewDatabase(t))
	if _, err := s.pool.Exec(ctx, `CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN PERFORM pg_sleep(0.3); RETURN NEW; END $$;
		CREATE TRIGGER slow BEFORE INSERT ON moves FOR EACH ROW EXECUTE FUNCTION slow()`); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, store.Table{ID: "t1", Game: "g", Status: store.Playing, Meta: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	for i, u := range []*store.Update{nil, {Status: store.Playing, Meta: []byte(`{"n":2}`)}} {
		cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		err := s.AppendMove(cctx, "t1", store.Move{Seq: i + 1, Text: fmt.Sprint("m", i+1), At: time.Now()}, u)
		cancel()
		if err != nil {
			t.Errorf("append %d, its context done in flight: %v", i+1, err)
		}
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.AppendMove(done, "t1", store.Move{Seq: 3, Text: "m3", At: time.Now()}, &store.Update{Status: store.Playing, Meta: []byte(`{}`)}); !errors.Is(err, context.Canceled) {
		t.Errorf("an append whose context was done before: %v", err)
	}
	tb, err := s.Table(ctx, "t1")
	if err != nil || len(tb.Moves) != 2 || string(tb.Meta) != `{"n":2}` {
		t.Errorf("the table: %+v, %v; want moves m1, m2 and meta {\"n\":2}", tb, err)
	}
}

// TestLockServe: a server alone keeps every other server off the
// database, alone or as a cluster's node; the nodes of a cluster share
// it with one another and keep a server alone off; each lock goes with
// its release, at once, and locks on one database leave another free.
func TestLockServe(t *testing.T) {
	t.Parallel()
	if server == nil {
		pgtest.Missing(t)
	}
	ctx := context.Background()
	url := server.NewDatabase(t)
	s, other := open(t, url), open(t, server.NewDatabase(t))
	lock := func(st *Store, shared bool, want error) func() {
		t.Helper()
		release, err := st.LockServe(ctx, shared)
		if !errors.Is(err, want) || (err == nil) != (release != nil) {
			t.Fatalf("LockServe(shared %v) = %v; want %v", shared, err, want)
		}
		return release
	}
	alone := lock(s, false, nil)
	lock(s, false, ErrServed)
	lock(s, true, ErrServed)
	lock(other, false, nil)() // another database is another lock
	alone()
	node1 := lock(s, true, nil)
	node2 := lock(s, true, nil)
	lock(s, false, ErrServed)
	node1()
	lock(s, false, ErrServed)
	node2()
	lock(s, false, nil)()
	// A lock released is free at once, not once PostgreSQL has seen its
	// connection go: a server stopped and started again finds it free.
	// Asked on a connection open already, as a server started again
	// would find it.
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for i := range 100 {
		shared := i%2 == 1
		lock(s, shared, nil)()
		var free bool
		if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", serveKey).Scan(&free); err != nil {
			t.Fatal(err)
		}
		if !free {
			t.Fatalf("a lock released (shared %v) is held yet, %d times in", shared, i+1)
		}
		if _, err := conn.Exec(ctx, "SELECT pg_advisory_unlock($1)", serveKey); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenServeLock: Open with Options.Serve takes LockServe's lock
// before it migrates and holds it until Close: a second server alone is
// refused with ErrServed, nodes share it, and a database nobody serves
// opens again.
func TestOpenServeLock(t *testing.T) {
	t.Parallel()
	if server == nil {
		pgtest.Missing(t)
	}
	ctx := context.Background()
	url := server.NewDatabase(t)
	first, err := Open(ctx, url, Options{Serve: ServeAlone})
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []ServeLock{ServeAlone, ServeNode} {
		if s, err := Open(ctx, url, Options{Serve: mode}); !errors.Is(err, ErrServed) {
			if s != nil {
				s.Close()
			}
			t.Errorf("Open(Serve %d) beside a server alone: %v, want ErrServed", mode, err)
		}
	}
	admin, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatalf("Open without a lock beside a server: %v", err)
	}
	admin.Close()
	first.Close()
	node1, err := Open(ctx, url, Options{Serve: ServeNode})
	if err != nil {
		t.Fatalf("a node once the server closed: %v", err)
	}
	defer node1.Close()
	node2, err := Open(ctx, url, Options{Serve: ServeNode})
	if err != nil {
		t.Fatalf("a second node: %v", err)
	}
	node2.Close()
	if s, err := Open(ctx, url, Options{Serve: ServeAlone}); !errors.Is(err, ErrServed) {
		if s != nil {
			s.Close()
		}
		t.Errorf("a server alone beside a node: %v, want ErrServed", err)
	}
}

// serveHolder returns the backend that holds the serve lock of the
// database admin is open on (0: none), asked on admin's connection.
func serveHolder(t *testing.T, admin *Store) int {
	t.Helper()
	var pid int
	err := admin.pool.QueryRow(context.Background(), `SELECT coalesce(min(pid), 0) FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = $2
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
		uint32(serveKey>>32), uint32(serveKey&0xffffffff)).Scan(&pid)
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// servedAlone opens a new database as a server alone does, and the same
// database as admin's tasks do: it returns the database, the server's
// store, admin's, and the backend that holds the server's lock.
func servedAlone(t *testing.T) (url string, first, admin *Store, holder int) {
	t.Helper()
	url = server.NewDatabase(t)
	first, err := Open(context.Background(), url, Options{Serve: ServeAlone})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { first.Close() })
	admin = open(t, url)
	if holder = serveHolder(t, admin); holder == 0 {
		t.Fatal("nobody holds the lock of a server open")
	}
	return url, first, admin, holder
}

// TestServeLockOutlivesItsConnection: when the connection that holds a
// server's lock ends while the server runs (PostgreSQL restarted, or its
// backend killed), the server takes the lock again on a new one, so that
// a second server is still kept off; and if another server takes it
// first, Lost says so, for the server to stop.
func TestServeLockOutlivesItsConnection(t *testing.T) {
	t.Parallel()
	if server == nil {
		pgtest.Missing(t)
	}
	ctx := context.Background()
	t.Run("taken again", func(t *testing.T) {
		t.Parallel()
		url, first, admin, old := servedAlone(t)
		if _, err := admin.pool.Exec(ctx, "SELECT pg_terminate_backend($1)", old); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(20 * time.Second)
		for now := serveHolder(t, admin); now == 0 || now == old; now = serveHolder(t, admin) {
			if time.Now().After(deadline) {
				t.Fatalf("the lock was not taken again (held by %d, the killed backend %d)", now, old)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if s, err := Open(ctx, url, Options{Serve: ServeAlone}); !errors.Is(err, ErrServed) {
			if s != nil {
				s.Close()
			}
			t.Errorf("a second server once the lock was taken again: %v, want ErrServed", err)
		}
		select {
		case err := <-first.Lost():
			t.Errorf("Lost after the lock was taken again: %v", err)
		default:
		}
	})
	t.Run("taken by another", func(t *testing.T) {
		t.Parallel()
		_, first, admin, old := servedAlone(t)
		// Another server waits for the lock, and is given it as the
		// first's backend goes.
		waiter, err := admin.pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer waiter.Release()
		took := make(chan error, 1)
		go func() {
			_, err := waiter.Exec(ctx, "SELECT pg_advisory_lock($1)", serveKey)
			took <- err
		}()
		for deadline := time.Now().Add(10 * time.Second); ; {
			var waiting bool
			if err := admin.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted)").Scan(&waiting); err != nil {
				t.Fatal(err)
			}
			if waiting {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the other server never waited for the lock")
			}
			time.Sleep(20 * time.Millisecond)
		}
		if _, err := admin.pool.Exec(ctx, "SELECT pg_terminate_backend($1)", old); err != nil {
			t.Fatal(err)
		}
		if err := <-took; err != nil {
			t.Fatalf("the other server's lock: %v", err)
		}
		select {
		case err := <-first.Lost():
			if !errors.Is(err, ErrServed) {
				t.Errorf("Lost: %v, want ErrServed", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("Lost said nothing once another server held the lock")
		}
	})
}

// TestNewerMigrations: a database a newer build migrated names the
// migrations this build lacks; one this build migrated names none.
func TestNewerMigrations(t *testing.T) {
	t.Parallel()
	if server == nil {
		pgtest.Missing(t)
	}
	ctx := context.Background()
	url := server.NewDatabase(t)
	s, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := s.NewerMigrations(); len(n) != 0 {
		t.Errorf("a fresh database: newer migrations %v", n)
	}
	if _, err := s.pool.Exec(ctx, "INSERT INTO schema_migrations (name, applied) VALUES ('999_future.sql', now())"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	again := open(t, url)
	if n := again.NewerMigrations(); strings.Join(n, ",") != "999_future.sql" {
		t.Errorf("a database a newer build migrated: newer migrations %v", n)
	}
}

// TestMigrated: Migrated names the migrations this open applied: every
// one on a new database, none on one this build migrated before.
func TestMigrated(t *testing.T) {
	t.Parallel()
	if server == nil {
		pgtest.Missing(t)
	}
	ctx := context.Background()
	url := server.NewDatabase(t)
	s, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Migrated(); len(got) != len(all) || len(got) == 0 || got[0] != path.Base(all[0]) {
		t.Errorf("a new database: migrated %v, want the %d of %v", got, len(all), all)
	}
	s.Close()
	again := open(t, url)
	if got := again.Migrated(); len(got) != 0 {
		t.Errorf("a database this build migrated: migrated %v, want none", got)
	}
}

// TestPoolSize: the pool holds 16 connections unless the connection
// string's pool_max_conns says otherwise (nodes sharing PostgreSQL's
// max_connections), and Options.MaxConns outranks both.
func TestPoolSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url  string
		opt  Options
		want int32
	}{
		{"postgres://parlour@db/parlour", Options{}, 16},
		{"postgres://parlour@db/parlour?pool_max_conns=6", Options{}, 6},
		{"postgres://parlour@db/parlour?sslmode=disable&pool_max_conns=40", Options{}, 40},
		{"host=db dbname=parlour pool_max_conns=8", Options{}, 8},
		{"postgres://parlour@db/parlour?pool_max_conns=6", Options{MaxConns: 3}, 3},
	} {
		cfg, err := poolConfig(tc.url, tc.opt)
		if err != nil {
			t.Fatalf("%s: %v", tc.url, err)
		}
		if cfg.MaxConns != tc.want {
			t.Errorf("%s, %+v: %d connections, want %d", tc.url, tc.opt, cfg.MaxConns, tc.want)
		}
	}
}
