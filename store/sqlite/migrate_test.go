package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"parlour/store"
)

// TestMigrationsByName: migrations are applied by name, in number order,
// whatever the database's high-water mark says: a database migrated by a
// build that had 001 and 003 gets 002 from a build that has all three,
// and a database from before migrations were recorded by name is not
// migrated twice.
func TestMigrationsByName(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The database as the first builds left it: 001 applied, user_version 1.
	if _, err := db.ExecContext(ctx, "CREATE TABLE one (x INTEGER); PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}
	one := &fstest.MapFile{Data: []byte("CREATE TABLE one (x INTEGER);")}
	two := &fstest.MapFile{Data: []byte("CREATE TABLE two (x INTEGER);")}
	three := &fstest.MapFile{Data: []byte("CREATE TABLE three (x INTEGER);")}
	if _, err := migrate(ctx, db, fstest.MapFS{"migrations/001_one.sql": one, "migrations/003_three.sql": three}, true); err != nil {
		t.Fatalf("001 and 003: %v", err)
	}
	if _, err := migrate(ctx, db, fstest.MapFS{"migrations/001_one.sql": one, "migrations/002_two.sql": two, "migrations/003_three.sql": three}, true); err != nil {
		t.Fatalf("then all three: %v", err)
	}
	for _, table := range []string{"one", "two", "three"} {
		if _, err := db.ExecContext(ctx, "INSERT INTO "+table+" VALUES (1)"); err != nil {
			t.Errorf("table %s: %v", table, err)
		}
	}
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil || v != 3 {
		t.Errorf("user_version = %d, %v; want 3", v, err)
	}
	// Nothing is applied twice: a third run is a no-op.
	if _, err := migrate(ctx, db, fstest.MapFS{"migrations/001_one.sql": one, "migrations/002_two.sql": two, "migrations/003_three.sql": three}, true); err != nil {
		t.Fatalf("again: %v", err)
	}
	// A broken migration is refused whole and named.
	bad := &fstest.MapFile{Data: []byte("CREATE TABLE four (x INTEGER); NOT SQL;")}
	_, err = migrate(ctx, db, fstest.MapFS{"migrations/004_bad.sql": bad}, true)
	if err == nil || !strings.Contains(err.Error(), "004_bad.sql") {
		t.Errorf("a broken migration: %v", err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO four VALUES (1)"); err == nil {
		t.Error("a broken migration left its first statement behind")
	}
}

// TestOldDataFolderUpgrades: a database made before chat (001 applied,
// recorded only in user_version, with a table in it) opens, gets the
// chat tables and the chat rooms', and keeps its table.
func TestOldDataFolderUpgrades(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	init, err := migrations.ReadFile("migrations/001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, string(init)+"; INSERT INTO tables VALUES ('t1', 'quizl', 'open', 1, 1, x'7b7d'); PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := open(t, path)
	defer s.Close()
	if tb, err := s.Table(ctx, "t1"); err != nil || tb.Game != "quizl" {
		t.Fatalf("the old table: %+v, %v", tb, err)
	}
	if err := s.AddChat(ctx, store.ChatMessage{Table: "t1", Seq: 1, Channel: "players", Text: "hi", At: time.Now()}); err != nil {
		t.Fatalf("chat in an upgraded database: %v", err)
	}
	if err := s.AppendRoomChat(ctx, store.RoomLine{Room: "tournament:x", Seq: 1, Identity: "i1", Name: "Ann", Text: "hi", At: time.Now()}); err != nil {
		t.Fatalf("a chat room in an upgraded database: %v", err)
	}
}

// TestNoMigrate: opened with NoMigrate, a database that lacks
// migrations, recorded or not, is refused with store.ErrUnmigrated
// naming them and is left as it was; one this build migrated opens.
func TestNoMigrate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	paths, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	// but is every migration but the last.
	but := fstest.MapFS{}
	for _, p := range paths[:len(paths)-1] {
		b, err := migrations.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		but[p] = &fstest.MapFile{Data: b}
	}
	last := path.Base(paths[len(paths)-1])
	for _, tc := range []struct {
		name  string
		make  func(db *sql.DB) error
		lacks string
	}{
		{"before schema_migrations", func(db *sql.DB) error {
			_, err := db.ExecContext(ctx, string(but["migrations/001_init.sql"].Data)+"; PRAGMA user_version = 1")
			return err
		}, "002_"},
		{"one migration short", func(db *sql.DB) error {
			_, err := migrate(ctx, db, but, true)
			return err
		}, last},
	} {
		file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".db")
		db, err := sql.Open("sqlite", "file:"+file)
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.make(db); err != nil {
			t.Fatal(err)
		}
		before := schema(t, db)
		s, err := Open(ctx, file, Options{NoMigrate: true})
		if err == nil {
			s.Close()
		}
		if !errors.Is(err, store.ErrUnmigrated) || !strings.Contains(err.Error(), tc.lacks) {
			t.Errorf("%s: Open without migrating: %v, want ErrUnmigrated naming %s", tc.name, err, tc.lacks)
		}
		if after := schema(t, db); after != before {
			t.Errorf("%s: the schema changed from\n%s\nto\n%s", tc.name, before, after)
		}
		db.Close()
	}
	current := filepath.Join(dir, "current.db")
	s, err := Open(ctx, current, Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(ctx, current, Options{NoMigrate: true}); err != nil {
		t.Fatalf("a migrated database, opened without migrating: %v", err)
	}
	s.Close()
}

// schema is db's tables, indexes and user_version, as text.
func schema(t *testing.T, db *sql.DB) string {
	t.Helper()
	var sqls string
	var version int
	if err := db.QueryRow("SELECT coalesce(group_concat(sql, ';'), '') FROM (SELECT sql FROM sqlite_master ORDER BY name)").Scan(&sqls); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s\nuser_version %d", sqls, version)
}

// TestNewerMigrations: a database a newer build migrated names the
// migrations this build lacks; one this build migrated names none.
func TestNewerMigrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	s, err := Open(ctx, path, Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	if n := s.NewerMigrations(); len(n) != 0 {
		t.Errorf("a fresh database: newer migrations %v", n)
	}
	if _, err := s.db.ExecContext(ctx, "INSERT INTO schema_migrations (name, applied) VALUES ('999_future.sql', 0), ('998_next.sql', 0)"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(ctx, path, Options{Synchronous: "NORMAL"}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := s.NewerMigrations(); strings.Join(n, ",") != "998_next.sql,999_future.sql" {
		t.Errorf("a database a newer build migrated: newer migrations %v", n)
	}
}

// TestMigrated: Migrated names the migrations this open applied, in
// order: every one on a new database, those it lacked on an old one, and
// none on a database this build migrated before; serve logs them, so
// that an operator who upgrades sees what changed.
func TestMigrated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	all, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range all {
		names = append(names, filepath.Base(p))
	}
	path := filepath.Join(t.TempDir(), "p.db")
	// A database of the first builds: 001 applied, recorded only in
	// user_version.
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	init, err := migrations.ReadFile("migrations/001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, string(init)+"; PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, tc := range []struct {
		name, path string
		want       []string
	}{
		{"new", filepath.Join(t.TempDir(), "new.db"), names},
		{"old", path, names[1:]},
		{"old, again", path, nil},
	} {
		s, err := Open(ctx, tc.path, Options{Synchronous: "NORMAL"})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Migrated(); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: migrated %v, want %v", tc.name, got, tc.want)
		}
		s.Close()
	}
}

// TestReportsUpgrade: the reports a database holds before reports could
// be about an event's line keep everything (their table and line among
// it), are about no event, and still keep a reporter from reporting the
// same player about the same table twice, though not about an event.
func TestReportsUpgrade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	before := fstest.MapFS{}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if filepath.Base(n) >= "020" {
			continue
		}
		b, err := migrations.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		before[n] = &fstest.MapFile{Data: b}
	}
	if _, err := migrate(ctx, db, before, true); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	if _, err := db.ExecContext(ctx, "INSERT INTO reports (id, reporter, subject, reason, text, table_id, seq, status, created, closed, closed_by) VALUES ('r1', 'ann', 'bob', 'chat', 'rude', 't1', 7, 'closed', ?, ?, 'mod')", nanos(at), nanos(at.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := open(t, path)
	defer s.Close()
	want := store.Report{ID: "r1", Reporter: "ann", Subject: "bob", Reason: "chat", Text: "rude", Table: "t1", Seq: 7, Status: store.ReportClosed, Created: at, Closed: at.Add(time.Hour), ClosedBy: "mod"}
	if got, err := s.Report(ctx, "r1"); err != nil || got != want {
		t.Errorf("the old report: %+v, %v; want %+v", got, err, want)
	}
	if err := s.CreateReport(ctx, store.Report{ID: "r2", Reporter: "ann", Subject: "bob", Reason: "chat", Table: "t1", Created: at}); !errors.Is(err, store.ErrReportDuplicate) {
		t.Errorf("the old report made again: %v, want ErrReportDuplicate", err)
	}
	if err := s.CreateReport(ctx, store.Report{ID: "r3", Reporter: "ann", Subject: "bob", Reason: "chat", Tournament: "e1", Seq: 1, Created: at}); err != nil {
		t.Errorf("a report about an event after the upgrade: %v", err)
	}
}

// TestClosedBeforeKeptHashes: an account a moderator closed before
// closing kept the password's hash aside upgrades to one that reopens
// without a password (NoPasswordHash), since none is left to give back;
// an open account of the same database keeps its hash.
func TestClosedBeforeKeptHashes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	before := fstest.MapFS{}
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	for _, name := range names {
		if name >= "migrations/022" {
			continue
		}
		data, err := migrations.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		before[name] = &fstest.MapFile{Data: data}
	}
	if _, err := migrate(ctx, db, before, true); err != nil {
		t.Fatal(err)
	}
	for _, a := range [][2]string{{"idc", store.ClosedHash}, {"ido", "$argon2id$ido"}} {
		if _, err := db.ExecContext(ctx, "INSERT INTO accounts (identity, name, key, hash, created) VALUES (?, ?, ?, ?, 0)", a[0], a[0], a[0], a[1]); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s := open(t, path)
	defer s.Close()
	act := store.ModAction{Action: "reopen", Subject: "idc", At: time.Now()}
	if kept, err := s.ReopenAccount(ctx, "idc", act); err != nil || kept {
		t.Fatalf("reopening an account closed before the upgrade: kept %v, %v; want no password", kept, err)
	}
	for id, want := range map[string]string{"idc": store.NoPasswordHash, "ido": "$argon2id$ido"} {
		if a, err := s.AccountOf(ctx, id); err != nil || a.Hash != want {
			t.Errorf("%s after the upgrade: %+v, %v; want hash %s", id, a, err, want)
		}
	}
}
