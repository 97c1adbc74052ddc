package main

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"parlour/account"
	"parlour/server/chat"
	"parlour/server/moderation"
	"parlour/sshdoor"
	"parlour/store"
	"parlour/store/postgres"
	"parlour/store/sqlite"
)

// adminRun runs parlour admin with args and returns its exit code and
// what it printed on each stream.
func adminRun(args ...string) (int, string, string) {
	var stdout, stderr strings.Builder
	code := run(context.Background(), append([]string{"admin"}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// seedAdmin stores three accounts, Cal's closed by a moderator, and a
// report of one by another, about a line of chat.
func seedAdmin(t *testing.T, st store.Store) {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 5, 6, 7, 8, 0, 0, time.UTC)
	ps := st.(store.Players)
	for _, n := range []string{"Ann", "Bob", "Cal"} {
		id := "id" + n
		a := store.Account{Identity: id, Name: n, Key: strings.ToLower(n), Hash: "$argon2id$x", Created: at}
		if n == "Cal" {
			a.Hash = store.ClosedHash
		}
		if _, err := ps.CreateAccount(ctx, a, store.Credential{Hash: []byte(id), Identity: id}, &store.Identity{ID: id, Name: n, Created: at}); err != nil {
			t.Fatal(err)
		}
	}
	r := store.Report{ID: "r1", Reporter: "idAnn", Subject: "idBob", Reason: "chat", Text: "rude words", Table: "tablet1", Seq: 3, Status: store.ReportOpen, Created: at}
	if err := st.(store.Moderation).CreateReport(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := st.AddChat(ctx, store.ChatMessage{Table: "tablet1", Seq: 3, Channel: "spectators", Identity: "idBob", Name: "Bob", Seat: -1, Text: "you stink", At: at}); err != nil {
		t.Fatal(err)
	}
}

// checkAdmin grants and revokes the role with the store flags in where,
// prints the queue, and refuses what it cannot do with a reason.
func checkAdmin(t *testing.T, st store.Store, where ...string) {
	t.Helper()
	ctx := context.Background()
	ms := st.(store.Moderation)
	code, out, errs := adminRun(append([]string{"grant", "ann", "--reason", "runs the club"}, where...)...)
	if code != 0 || out != "Ann is a moderator.\n" {
		t.Fatalf("grant: %d %q %q", code, out, errs)
	}
	if on, err := ms.IsModerator(ctx, "idAnn"); !on || err != nil {
		t.Fatalf("after grant: moderator %v, %v", on, err)
	}
	// Granting the role again changes nothing and logs nothing.
	code, out, errs = adminRun(append([]string{"grant", "ANN"}, where...)...)
	if code != 0 || out != "Ann is a moderator already; nothing changed.\n" {
		t.Fatalf("grant again: %d %q %q", code, out, errs)
	}
	code, out, errs = adminRun(append(append([]string{}, where...), "reports")...)
	if code != 0 || !strings.Contains(out, "1 open, 0 closed.") || !strings.Contains(out, "r1") || !strings.Contains(out, "Bob") ||
		!strings.Contains(out, "Ann") || !strings.Contains(out, `the line: "you stink" rude words`) || !strings.Contains(out, "tablet1 line 3") ||
		!strings.Contains(out, "2026-05-06 07:08") {
		t.Fatalf("reports: %d %q %q", code, out, errs)
	}
	code, out, errs = adminRun(append(append([]string{}, where...), "revoke", "Ann")...)
	if code != 0 || out != "Ann is no longer a moderator.\n" {
		t.Fatalf("revoke: %d %q %q", code, out, errs)
	}
	if on, err := ms.IsModerator(ctx, "idAnn"); on || err != nil {
		t.Fatalf("after revoke: moderator %v, %v", on, err)
	}
	// Nor does taking it from an account without it.
	code, out, errs = adminRun(append([]string{"revoke", "bob"}, where...)...)
	if code != 0 || out != "Bob is not a moderator; nothing changed.\n" {
		t.Fatalf("revoke from Bob: %d %q %q", code, out, errs)
	}
	log, err := ms.ModLog(ctx, 10)
	if err != nil || len(log) != 2 || log[1].Action != "grant" || log[1].Reason != "runs the club" || log[1].Moderator != "" || log[0].Action != "revoke" || log[0].SubjectName != "Ann" {
		t.Fatalf("the log: %+v, %v", log, err)
	}
	// Cal's account, closed by a moderator with no password kept
	// aside (stored closed, as before closings kept it), opens again
	// without one.
	code, out, errs = adminRun(append([]string{"reopen", "cal", "--reason", "appeal heard"}, where...)...)
	if code != 0 || !strings.HasPrefix(out, "Cal's account is open again, without a password") || !strings.Contains(out, "reset link") {
		t.Fatalf("reopen: %d %q %q", code, out, errs)
	}
	if a, err := st.(store.Players).AccountByKey(ctx, "cal"); err != nil || a.Hash != store.NoPasswordHash {
		t.Fatalf("Cal after the reopening: %+v, %v", a, err)
	}
	if log, err := ms.ModLog(ctx, 1); err != nil || len(log) != 1 || log[0].Action != "reopen" || log[0].Reason != "appeal heard" {
		t.Fatalf("the log after the reopening: %+v, %v", log, err)
	}
	// Ann forgot her password: the operator gives her a new one, which
	// signs her out everywhere.
	code, out, errs = adminRun(append([]string{"password", "ANN", "--reason", "forgot it, no e-mail"}, where...)...)
	m := regexp.MustCompile(`(?m)^    ([a-z2-9]{5}(?:-[a-z2-9]{5}){3})$`).FindStringSubmatch(out)
	if code != 0 || !strings.HasPrefix(out, "Ann's password is now:") || m == nil || !strings.Contains(out, "Every session of the account is signed out") {
		t.Fatalf("password: %d %q %q", code, out, errs)
	}
	if a, err := st.(store.Players).AccountByKey(ctx, "ann"); err != nil {
		t.Fatal(err)
	} else if ok, err := account.Verify(a.Hash, m[1]); !ok || err != nil {
		t.Errorf("Ann's new password %q does not sign her in: %v, %v", m[1], ok, err)
	}
	if _, err := st.Credential(ctx, []byte("idAnn")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Ann's session outlived the new password: %v", err)
	}
	if log, err := ms.ModLog(ctx, 1); err != nil || len(log) != 1 || log[0].Action != "password" || log[0].SubjectName != "Ann" || log[0].Reason != "forgot it, no e-mail" {
		t.Fatalf("the log after the new password: %+v, %v", log, err)
	}
	if _, out2, _ := adminRun(append([]string{"password", "ann"}, where...)...); out2 == out {
		t.Errorf("two new passwords are the same: %q", out)
	}
	if _, err := st.(store.Moderation).CloseAccount(ctx, "idCal", store.ClosedHash, store.ModAction{Action: "close", Subject: "idCal", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"reopen", "Ann"}, 1, "Ann's account is not closed"},
		{[]string{"reopen", "Zed"}, 1, `no account called "Zed"`},
		{[]string{"reopen"}, 2, "name one account"},
		{[]string{"grant", "Zed"}, 1, `no account called "Zed"`},
		{[]string{"grant", "cal"}, 1, "Cal's account was closed by a moderator"},
		{[]string{"grant"}, 2, "name one account"},
		{[]string{"password", "cal"}, 1, "Cal's account was closed by a moderator: reopen it first"},
		{[]string{"password", "Zed"}, 1, `no account called "Zed"`},
		{[]string{"password"}, 2, "name one account"},
		{[]string{"grant", "Ann", "Bob"}, 2, "name one account"},
		{[]string{"reports", "now"}, 2, "takes no arguments"},
		{[]string{"promote", "Ann"}, 2, `unknown action "promote"`},
		{nil, 2, "usage: parlour admin"},
	} {
		code, _, errs := adminRun(append(c.args, where...)...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("admin %q: %d %q; want %d saying %q", c.args, code, errs, c.code, c.want)
		}
	}
	for _, id := range []string{"idBob", "idCal"} {
		if on, _ := ms.IsModerator(ctx, id); on {
			t.Errorf("a refused command made %s a moderator", id)
		}
	}
}

// TestAdminSQLite: parlour admin on a server's data directory.
func TestAdminSQLite(t *testing.T) {
	dir := t.TempDir()
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "parlour.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seedAdmin(t, st)
	checkAdmin(t, st, "--data", dir)
	code, _, errs := adminRun("--data", t.TempDir(), "reports")
	if code != 1 || !strings.Contains(errs, "no database at") {
		t.Errorf("admin on an empty directory: %d %q", code, errs)
	}
}

// TestAdminLeavesOlderSchema: parlour admin of a newer build, on the
// database of an older server (one migration short of its own), changes
// nothing and says which parlour to run: migrating beneath the running
// server could break it.
func TestAdminLeavesOlderSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "parlour.db")
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seedAdmin(t, st)
	applied := st.Migrated()
	last := applied[len(applied)-1]
	st.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("DELETE FROM schema_migrations WHERE name = ?", last); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"reports"}, {"grant", "Ann"}} {
		code, out, errs := adminRun(append([]string{"--data", dir}, args...)...)
		if code != 1 || !strings.Contains(errs, last) || !strings.Contains(errs, "run the parlour admin of the server's own version") {
			t.Errorf("admin %v on an older schema: %d %q %q; want 1 naming %s and what to run", args, code, out, errs, last)
		}
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM schema_migrations WHERE name = ?", last).Scan(&n); err != nil || n != 0 {
		t.Errorf("%s recorded %d times after admin (%v): it migrated", last, n, err)
	}
	if err := db.QueryRow("SELECT count(*) FROM moderators").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d moderators after a refused grant (%v)", n, err)
	}
}

// TestAdminBackup: parlour admin backup makes a data directory of its
// own, holding the database as it was and the SSH host key, from which a
// server opens the same accounts; it refuses a directory in use, a
// missing name and a PostgreSQL store, leaving nothing behind.
func TestAdminBackup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "parlour.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seedAdmin(t, st)
	if err := os.WriteFile(filepath.Join(dir, sshdoor.HostKeyFile), []byte("the host key"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The SSH guests the door knows by their keys: without them, a
	// restored server's SSH guests would be cut off from their games.
	if err := os.WriteFile(filepath.Join(dir, sshdoor.GuestsFile), []byte(`{"the": "guests"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "backup", "today")
	code, stdout, errs := adminRun("--data", dir, "backup", out)
	if code != 0 || !strings.Contains(stdout, "Copied "+filepath.Join(dir, "parlour.db")+" to "+filepath.Join(out, "parlour.db")) ||
		!strings.Contains(stdout, "Copied the SSH host key") || !strings.Contains(stdout, "parlour serve --data "+out) {
		t.Fatalf("backup: %d %q %q", code, stdout, errs)
	}
	if b, err := os.ReadFile(filepath.Join(out, sshdoor.HostKeyFile)); err != nil || string(b) != "the host key" {
		t.Errorf("the key's copy: %q, %v", b, err)
	}
	if fi, err := os.Stat(filepath.Join(out, sshdoor.GuestsFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the SSH guests' copy: %v, %v; want mode 0600", fi, err)
	} else if b, _ := os.ReadFile(filepath.Join(out, sshdoor.GuestsFile)); string(b) != `{"the": "guests"}` {
		t.Errorf("the SSH guests' copy holds %q", b)
	}
	if !strings.Contains(stdout, "Copied the SSH door's guests") {
		t.Errorf("backup said %q, want it to name the SSH door's guests", stdout)
	}
	cp, err := sqlite.Open(ctx, filepath.Join(out, "parlour.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := cp.AccountByKey(ctx, "bob")
	cp.Close()
	if err != nil || a.Name != "Bob" {
		t.Errorf("Bob in the copy: %+v, %v", a, err)
	}

	empty := t.TempDir()
	junk := filepath.Join(empty, "junk.db")
	if err := os.WriteFile(junk, []byte("not SQLite"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
		gone string // a directory the refusal must not leave behind
	}{
		{[]string{"--data", dir, "backup", out}, 1, "is not empty", ""},
		{[]string{"--data", dir, "backup"}, 2, "name one directory", ""},
		{[]string{"--data", dir, "backup", "a", "b"}, 2, "name one directory", ""},
		{[]string{"--store", "postgres://parlour@localhost/parlour", "backup", filepath.Join(empty, "pg")}, 2, "pg_dump", filepath.Join(empty, "pg")},
		{[]string{"--data", empty, "backup", filepath.Join(empty, "x")}, 1, "no database at", filepath.Join(empty, "x")},
		{[]string{"--store", filepath.Join(dir, "no.db"), "--data", dir, "backup", filepath.Join(empty, "y")}, 1, "no database at", filepath.Join(empty, "y")},
		{[]string{"--store", junk, "--data", dir, "backup", filepath.Join(empty, "z")}, 1, "not a database", filepath.Join(empty, "z")},
	} {
		code, _, errs := adminRun(c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("admin %q: %d %q; want %d saying %q", c.args, code, errs, c.code, c.want)
		}
		if c.gone != "" {
			if _, err := os.Stat(c.gone); err == nil {
				t.Errorf("admin %q left %s behind", c.args, c.gone)
			}
		}
	}
}

// TestAdminRestore: parlour admin restore puts a backup in place of the
// data directory's database and SSH files, moving what it replaces
// aside; it refuses while a server holds the database, and refuses a
// directory with no backup in it, changing nothing.
func TestAdminRestore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "parlour.db")
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seedAdmin(t, st)
	key := filepath.Join(dir, sshdoor.HostKeyFile)
	if err := os.WriteFile(key, []byte("the old key"), 0o600); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(t.TempDir(), "b")
	if code, out, errs := adminRun("--data", dir, "backup", backup); code != 0 {
		t.Fatalf("backup: %d %q %q", code, out, errs)
	}
	// After the backup: an account, and a new key.
	at := time.Date(2026, 5, 6, 7, 8, 0, 0, time.UTC)
	if _, err := st.CreateAccount(ctx, store.Account{Identity: "idDan", Name: "Dan", Key: "dan", Hash: "$argon2id$x", Created: at}, store.Credential{Hash: []byte("idDan"), Identity: "idDan"}, &store.Identity{ID: "idDan", Name: "Dan", Created: at}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if err := os.WriteFile(key, []byte("the new key"), 0o600); err != nil {
		t.Fatal(err)
	}

	lock, err := lockStore(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--data", dir, "restore", backup}, 1, "is already serving"},
		{[]string{"--data", dir, "restore"}, 2, "name one directory"},
		{[]string{"--data", dir, "restore", t.TempDir()}, 1, "holds no parlour.db"},
		{[]string{"--data", dir, "restore", dir}, 2, "the server's own database"},
		{[]string{"--store", "postgres://parlour@localhost/parlour", "restore", backup}, 2, "pg_restore"},
	} {
		code, _, errs := adminRun(c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("admin %q: %d %q; want %d saying %q", c.args, code, errs, c.code, c.want)
		}
	}
	lock.Release()
	if ents, _ := filepath.Glob(filepath.Join(dir, "*before-restore*")); len(ents) != 0 {
		t.Fatalf("refused restores moved %v aside", ents)
	}
	if b, _ := os.ReadFile(key); string(b) != "the new key" {
		t.Fatalf("refused restores left the key %q", b)
	}

	code, out, errs := adminRun("--data", dir, "restore", backup)
	if code != 0 || !strings.Contains(out, "Restored "+path) || !strings.Contains(out, "Restored the SSH host key") {
		t.Fatalf("restore: %d %q %q", code, out, errs)
	}
	if b, _ := os.ReadFile(key); string(b) != "the old key" {
		t.Errorf("the restored key: %q", b)
	}
	has := func(db, name string) bool {
		t.Helper()
		st, err := sqlite.Open(ctx, db, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		_, err = st.AccountByKey(ctx, name)
		return err == nil
	}
	if !has(path, "bob") || has(path, "dan") {
		t.Errorf("the restored database: Bob %v, Dan %v; want Bob alone", has(path, "bob"), has(path, "dan"))
	}
	aside, _ := filepath.Glob(path + ".before-restore-*")
	if len(aside) != 1 || !has(aside[0], "dan") {
		t.Errorf("the database moved aside: %v; want one, with Dan in it", aside)
	}
	keys, _ := filepath.Glob(key + ".before-restore-*")
	if len(keys) != 1 {
		t.Fatalf("the key moved aside: %v, want one", keys)
	}
	if b, _ := os.ReadFile(keys[0]); string(b) != "the new key" {
		t.Errorf("the key moved aside holds %q", b)
	}
	if !strings.Contains(out, aside[0]) {
		t.Errorf("restore said %q, not where the old database went", out)
	}
}

// TestAdminPostgres: parlour admin on a server's PostgreSQL database.
func TestAdminPostgres(t *testing.T) {
	url := pgDatabase(t)
	st, err := postgres.Open(context.Background(), url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seedAdmin(t, st)
	checkAdmin(t, st, "--store", url)
}

// TestAdminToPostgres: parlour admin to-postgres copies a server's
// SQLite database into an empty PostgreSQL database, which then serves
// its accounts and reports; a second copy, a target that is no
// PostgreSQL URL, a source that is PostgreSQL already, or a database a
// server is using is refused, saying why, and copies nothing.
func TestAdminToPostgres(t *testing.T) {
	ctx := context.Background()
	url := pgDatabase(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "parlour.db")
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seedAdmin(t, st)
	st.Close()

	lock, err := lockStore(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"to-postgres"}, 2, "name one PostgreSQL database"},
		{[]string{"to-postgres", "mysql://x/y"}, 2, "postgres"},
		{[]string{"to-postgres", filepath.Join(dir, "other.db")}, 2, "is not a PostgreSQL database"},
		{[]string{"to-postgres", url, "--store", url}, 2, "the store is PostgreSQL already"},
		{[]string{"to-postgres", url, "--data", t.TempDir()}, 1, "no database at"},
		{[]string{"to-postgres", url, "--data", dir}, 1, "already serving"},
	} {
		code, _, errs := adminRun(c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("admin %q: %d %q; want %d saying %q", c.args, code, errs, c.code, c.want)
		}
	}
	lock.Release()

	code, out, errs := adminRun("to-postgres", url, "--data", dir)
	if code != 0 || !strings.Contains(out, "among them 3 accounts") || !strings.Contains(out, "parlour serve --store URL") {
		t.Fatalf("to-postgres: %d %q %q", code, out, errs)
	}
	pg, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a, err := pg.AccountByKey(ctx, "ann"); err != nil || a.Name != "Ann" {
		t.Errorf("Ann on the copy: %+v, %v", a, err)
	}
	if rs, err := pg.Reports(ctx, 10); err != nil || len(rs) != 1 || rs[0].Text != "rude words" {
		t.Errorf("the reports on the copy: %+v, %v", rs, err)
	}
	pg.Close()
	// The copy is noted beside the database: a server on PostgreSQL over
	// the data directory does not warn of it.
	if !moved(path) {
		t.Errorf("no note of the copy beside %s", path)
	}
	var said strings.Builder
	warnSQLiteLeft(slog.New(slog.NewTextHandler(&said, nil)), dir, storeAt{postgres: url})
	if said.Len() > 0 {
		t.Errorf("a server on the copy warns: %s", said.String())
	}
	code, _, errs = adminRun("to-postgres", url, "--data", dir)
	if code != 1 || !strings.Contains(errs, "holds data already") || !strings.Contains(errs, "Nothing was copied") {
		t.Errorf("a second copy: %d %q", code, errs)
	}
}

// TestServeChatFilterFlag: serve refuses a chat filter it cannot read or
// that is not a list of words, naming the problem, and serves nothing.
func TestServeChatFilterFlag(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("# words\nfine\ntwo words\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, want string }{
		{filepath.Join(dir, "missing.txt"), "no such file"},
		{bad, `line 3: "two words" is not one word`},
	} {
		var stdout, stderr strings.Builder
		code := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", dir, "--chat-filter", c.file}, strings.NewReader(""), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), "--chat-filter") || !strings.Contains(stderr.String(), c.want) || stdout.Len() > 0 {
			t.Errorf("serve --chat-filter %s: %d %q %q", c.file, code, stdout.String(), stderr.String())
		}
	}
}

// TestServeTournamentsFlag: serve refuses a calendar it cannot read, or
// whose schedule or events are wrong, naming the problem, and serves
// nothing; the default and "none" need no file.
func TestServeTournamentsFlag(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct{ file, want string }{
		{filepath.Join(dir, "missing.json"), "no such file"},
		{write("when.json", `{"events": [{"every": "month", "event": {"kind": "arena"}}]}`), `"every" is "month"`},
		{write("what.json", `{"events": [{"every": "hour", "event": {"kind": "arena", "game": "salvo", "clock": 60, "minutes": 30, "colour": "red"}}]}`), "event 1 of the calendar"},
	} {
		var stdout, stderr strings.Builder
		code := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", dir, "--tournaments", c.file}, strings.NewReader(""), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), "--tournaments") || !strings.Contains(stderr.String(), c.want) || stdout.Len() > 0 {
			t.Errorf("serve --tournaments %s: %d %q %q", c.file, code, stdout.String(), stderr.String())
		}
	}
	for _, arg := range []string{"", "none"} {
		cal, err := readCalendar(arg)
		if err != nil || (arg == "") != (cal != nil) {
			t.Errorf("readCalendar(%q) = %v, %v", arg, cal, err)
		}
	}
}

// TestStoreWrongKind: --store naming a directory, and --data naming a
// file, are refused by serve and admin alike with a line naming the flag
// and what to give instead, and leave nothing behind (no lock file, no
// database): the path is a mistake, not a place to make one.
func TestStoreWrongKind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		args  func(dir, file string) []string
		code  int
		wants []string
	}{
		{"serve --store DIR", func(dir, _ string) []string {
			return []string{"serve", "--addr", "127.0.0.1:0", "--data", filepath.Join(dir, "data"), "--store", dir}
		}, 2, []string{"--store", "is a directory", "--data"}},
		{"admin --store DIR", func(dir, _ string) []string { return []string{"admin", "--store", dir, "reports"} }, 2, []string{"--store", "is a directory", "--data"}},
		{"admin --data FILE", func(_, file string) []string { return []string{"admin", "--data", file, "reports"} }, 1, []string{"notes.txt/parlour.db", "not a directory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			file := filepath.Join(t.TempDir(), "notes.txt")
			if err := os.WriteFile(file, []byte("not a database\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var stdout, stderr strings.Builder
			code := run(ctx, tc.args(dir, file), strings.NewReader(""), &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d (%s)", code, tc.code, stderr.String())
			}
			for _, w := range tc.wants {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("said %q, want it to name %q", stderr.String(), w)
				}
			}
			if ents, _ := os.ReadDir(dir); len(ents) > 0 {
				t.Errorf("left %s behind in %s", ents[0].Name(), dir)
			}
			if _, err := os.Stat(dir + ".lock"); err == nil {
				t.Errorf("left a lock file beside %s", dir)
			}
			if b, _ := os.ReadFile(file); string(b) != "not a database\n" {
				t.Errorf("the file became %q", b)
			}
		})
	}
}

// TestPrintReports: the queue says where each report is about: a table,
// a line of a table's chat with what it said, a line of an event's chat
// by the event, or nowhere.
func TestPrintReports(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 29, 3, 13, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		r    moderation.Report
		want string
	}{
		{"a table", moderation.Report{ID: "r1", Name: "Bob", Reporter: "Ann", Reason: "chat", Table: "t1", Text: "insults", Status: "open", Created: at}, "t1 insults"},
		{"a table's line", moderation.Report{ID: "r2", Name: "Gus", Reporter: "Ann", Reason: "chat", Table: "t1", Seq: 7, Line: &chat.Line{Text: "you all stink"}, Status: "open", Created: at}, `t1 line 7 the line: "you all stink"`},
		{"an event's line", moderation.Report{ID: "r3", Name: "Gus", Reporter: "Ann", Reason: "chat", Tournament: "e1", Seq: 2, Line: &chat.Line{Text: "rigged"}, Status: "open", Created: at}, `event e1 line 2 the line: "rigged"`},
		{"a player", moderation.Report{ID: "r4", Name: "Gus", Reporter: "Ann", Reason: "cheating", Status: "closed", ClosedBy: "Cat", Created: at}, "closed by Cat"},
	} {
		var b strings.Builder
		printReports(&b, []moderation.Report{tc.r})
		// The columns' padding aside.
		if got := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(got, tc.want) {
			t.Errorf("%s:\n%s\nwant it to hold %q", tc.name, b.String(), tc.want)
		}
	}
}
