package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/store"
)

// TestServeAndShutdown runs parlour serve on a loopback port, plays a move
// over HTTP, holds a WebSocket open, then stops the server as SIGTERM
// would: the socket is closed with a reason and the command returns 0.
func TestServeAndShutdown(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	base, line, done := startServe(t, ctx, "--data", t.TempDir())
	if !strings.Contains(line, "(data in ") {
		t.Errorf("serve on SQLite printed %q, want it to name the data directory", line)
	}

	res, err := http.Get(base + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", res, err)
	}
	res.Body.Close()
	res, err = http.Post(base+"/api/v1/tables", "application/json", strings.NewReader(`{"game": "nymphabet", "seats": ["me", "open"]}`))
	if err != nil || res.StatusCode != 201 {
		t.Fatalf("create: %v %v", res, err)
	}
	var created struct{ Table, Token, Invite string }
	json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()
	if !strings.HasPrefix(created.Invite, base+"/t/") {
		t.Fatalf("invite %q does not lead to %s", created.Invite, base)
	}

	wctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(wctx, "ws"+strings.TrimPrefix(base, "http")+"/api/v1/tables/"+created.Table+"/socket", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	c.Write(wctx, websocket.MessageText, []byte(fmt.Sprintf(`{"type": "hello", "token": %q}`, created.Token)))
	if _, _, err := c.Read(wctx); err != nil {
		t.Fatal(err)
	}

	stop() // as SIGTERM does
	for {
		_, _, err := c.Read(wctx)
		if err == nil {
			continue
		}
		if websocket.CloseStatus(err) != websocket.StatusGoingAway {
			t.Fatalf("socket ended with %v, want going away", err)
		}
		break
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve returned %d", code)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// startServe runs parlour serve with args on a loopback port until ctx
// is done, and returns its URL, the line it printed and its exit code
// to come.
func startServe(t *testing.T, ctx context.Context, args ...string) (base, line string, done <-chan int) {
	t.Helper()
	out, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		c := run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "error"}, args...), strings.NewReader(""), outW, io.Discard)
		outW.Close()
		code <- c
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve %v printed nothing: %v", args, err)
	}
	go io.Copy(io.Discard, out)
	f := strings.Fields(line)
	if len(f) < 5 || !strings.HasPrefix(f[4], "http://127.0.0.1:") {
		t.Fatalf("serve printed %q", line)
	}
	return strings.TrimSuffix(f[4], "/"), line, code
}

func TestServeFlags(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--log", "xml"},
		{"serve", "--log-level", "loud"},
		{"serve", "extra"},
		{"serve", "--store", "mysql://db.example/parlour"},
		{"serve", "--store", "nats://localhost:4222"},
		{"serve", "--store", "postgres://db.example:port/parlour"},
		{"serve", "--nats", "nats://127.0.0.1:4222"},
		{"serve", "--node", "a"},
		{"serve", "--store", "postgres://db.example/parlour", "--nats", "nats://127.0.0.1:4222", "--node", "a b"},
		{"serve", "--store", "postgres://db.example/parlour", "--nats", "nats://127.0.0.1:4222", "--lease", "100ms"},
		{"serve", "--lease", "soon"},
		{"serve", "--commit-interval", "1h"},
		{"serve", "--store", filepath.Join(t.TempDir(), "missing", "parlour.db")},
		{"serve", "--store", "postgres://127.0.0.1:1/parlour", "--nats", "nats://a b:4222"},
		{"serve", "--store", "postgres://127.0.0.1:1/parlour", "--nats", "nats://127.0.0.1:4222,nats://user:pw@:4222"},
		{"serve", "--procs", "-1"},
		{"serve", "--procs", "many"},
		{"serve", "--one-cpu-procs", "-1"},
		{"serve", "--one-cpu-procs", "two"},
		{"serve", "--quiet-procs", "-1"},
		{"serve", "--quiet-procs", "few"},
		{"serve", "--one-cpu", "sometimes"},
		{"serve", "--open-expiry", "-1h"},
		{"serve", "--open-expiry", "a month"},
		{"serve", "--park-after", "-1m"},
		{"serve", "--park-after", "later"},
		{"serve", "--trusted-proxy", "10.0.0.0/33"},
		{"serve", "--trusted-proxy", "proxy.example"},
		{"serve", "--trusted-proxy", ""},
		{"serve", "--rate-conn", "0"},
		{"serve", "--rate-conn", "-1"},
		{"serve", "--rate-conn", "NaN"},
		{"serve", "--rate-identity", "0"},
		{"serve", "--rate-chat-addr", "-1"},
		{"serve", "--rate-sign-in-addr", "0"},
		{"serve", "--rate-sign-in-addr", "NaN"},
		{"serve", "--rate-new-rated", "0"},
		{"serve", "--rated-per-pair", "-1"},
		{"serve", "--conns-per-addr", "0"},
		{"serve", "--conns-per-addr", "-3"},
		{"serve", "--ssh-idle", "0"},
		{"serve", "--ssh-grace", "-1s"},
		{"serve", "--ssh-sessions", "0"},
		{"serve", "--ssh-per-addr", "-2"},
		{"serve", "--ssh-per-addr", "many"},
		{"serve", "--ssh-new-per-minute", "0"},
		{"serve", "--procs", "100000"},
		{"serve", "--quiet-procs", "100000"},
		{"serve", "--one-cpu-procs", "100000"},
		{"serve", "--streams", "0"},
		{"serve", "--streams", "many"},
		{"serve", "--data", ""},
		{"admin", "--data", "", "reports"},
		{"loadtest", "--url", "http://10.0.0.1:8080"},
		{"loadtest", "--url", "http://example.com"},
		{"loadtest", "--url", "http://127.0.0.1:8080,http://10.0.0.1:8080"},
		{"loadtest", "--url", "http://127.0.0.1:8080,http://127.0.0.1:8080/"},
		{"loadtest", "--url", "http://127.0.0.1:8080,"},
		{"loadtest", "--url", "ws://127.0.0.1:8080"},
		{"loadtest", "--server-pid", "12,x"},
		{"loadtest", "--server-pid", "-3"},
		{"loadtest", "--rate", "fast"},
		{"loadtest", "--tables", "0"},
	} {
		var stderr strings.Builder
		if code := run(context.Background(), args, strings.NewReader(""), io.Discard, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, stderr.String())
		}
	}
}

// TestFitStreams: --streams is lowered to the open-file limit, with a
// warning when the operator asked for more, and only a line of
// information when the default did not fit.
func TestFitStreams(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		want   int
		asked  bool
		nofile uint64
		fit    int
		level  string // of the line said, "" for none
	}{
		{100_000, false, 0, 100_000, ""},
		{100_000, false, 1 << 20, 100_000, ""},
		{100_000, false, 65536, 65536 - fileReserve, "INFO"},
		{100_000, true, 65536, 65536 - fileReserve, "WARN"},
		{100_000, true, 1024, 512, "WARN"},
		{500, true, 1024, 500, ""},
	} {
		var out strings.Builder
		log := slog.New(slog.NewTextHandler(&out, nil))
		if got := fitStreams(log, tc.want, tc.asked, tc.nofile); got != tc.fit {
			t.Errorf("fitStreams(%d, %v, %d) = %d, want %d", tc.want, tc.asked, tc.nofile, got, tc.fit)
		}
		said := out.String()
		if (tc.level == "") != (said == "") || tc.level != "" && !strings.Contains(said, "level="+tc.level) {
			t.Errorf("fitStreams(%d, %v, %d) said %q, want a line at %q", tc.want, tc.asked, tc.nofile, said, tc.level)
		}
	}
}

func TestParseProxy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"10.0.0.7", "10.0.0.7/32"},
		{" 10.1.2.3/8 ", "10.0.0.0/8"},
		{"::ffff:192.0.2.1", "192.0.2.1/32"},
		{"2001:db8::1", "2001:db8::1/128"},
		{"2001:db8::/32", "2001:db8::/32"},
	} {
		p, err := parseProxy(tc.in)
		if err != nil || p.String() != tc.want {
			t.Errorf("parseProxy(%q) = %v, %v; want %s", tc.in, p, err, tc.want)
		}
	}
}

// TestServeStorePath: --store with a path keeps the tables in that SQLite
// file rather than in --data, and says so; nothing then needs --data, so
// it is not made.
func TestServeStorePath(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	data, elsewhere := filepath.Join(t.TempDir(), "data"), filepath.Join(t.TempDir(), "tables.db")
	_, line, done := startServe(t, ctx, "--data", data, "--store", elsewhere)
	stop()
	if code := <-done; code != 0 {
		t.Fatalf("serve returned %d", code)
	}
	if !strings.Contains(line, "(tables in "+elsewhere+")") {
		t.Errorf("serve printed %q, want it to name %s", line, elsewhere)
	}
	if _, err := os.Stat(elsewhere); err != nil {
		t.Errorf("the SQLite file named by --store: %v", err)
	}
	if _, err := os.Stat(data); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("--data, with the tables elsewhere and no SSH door: %v, want it unmade", err)
	}
}

// TestServeTrace: --trace writes the run's execution trace, readable by
// go tool trace (it begins with the format's header) once serve returns;
// a file that cannot be made stops serve at once, saying why, as it does
// for --cpuprofile and --memprofile.
func TestServeTrace(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	out := filepath.Join(t.TempDir(), "serve.trace")
	base, _, done := startServe(t, ctx, "--data", t.TempDir(), "--trace", out)
	res, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	stop()
	if code := <-done; code != 0 {
		t.Fatalf("serve returned %d", code)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "go 1.") || !strings.Contains(string(b[:min(len(b), 16)]), " trace") || len(b) < 1000 {
		t.Errorf("the trace file holds %d bytes beginning %q, not an execution trace", len(b), b[:min(len(b), 16)])
	}

	// Each file flag says which it is: the message names only a path.
	for _, flag := range []string{"--trace", "--cpuprofile", "--memprofile"} {
		var stderr strings.Builder
		bad := filepath.Join(t.TempDir(), "no such folder", "serve.out")
		if code := run(context.Background(), []string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0", flag, bad}, strings.NewReader(""), io.Discard, &stderr); code != 1 || !strings.Contains(stderr.String(), "no such folder") || !strings.Contains(stderr.String(), flag+":") {
			t.Errorf("%s into a missing folder: exit %d, %q; want 1, the flag and the path", flag, code, stderr.String())
		}
	}
}

// TestServeProcs: serve runs on at least four processors unless told
// otherwise, by --procs or the GOMAXPROCS environment variable.
func TestServeProcs(t *testing.T) {
	for _, c := range []struct {
		flag int
		env  string
		cur  int
		want int
	}{
		{0, "", 1, 4},
		{0, "", 2, 4},
		{0, "", 4, 4},
		{0, "", 16, 16},
		{0, "2", 2, 2},
		{0, "1", 1, 1},
		{3, "", 2, 3},
		{1, "8", 8, 1},
	} {
		if got := serveProcs(c.flag, c.env, c.cur); got != c.want {
			t.Errorf("serveProcs(%d, %q, %d) = %d, want %d", c.flag, c.env, c.cur, got, c.want)
		}
	}
}

// TestServeTwiceOnOneDatabase: a second parlour serve on the data of one
// that serves stops at once, naming the first, and leaves the first
// serving its tables; once the first has stopped, the data serves again.
func TestServeTwiceOnOneDatabase(t *testing.T) {
	data := t.TempDir()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	base, _, done := startServe(t, ctx, "--data", data, "--tournaments", "none")

	// Bounded, so that a second server that does serve ends the test
	// rather than holding it.
	second, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var stderr strings.Builder
	code := run(second, []string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--tournaments", "none"}, strings.NewReader(""), io.Discard, &stderr)
	if code != 1 {
		t.Fatalf("second serve on %s: exit %d, want 1 (%s)", data, code, stderr.String())
	}
	if want := fmt.Sprintf("another parlour serve (process %d) is already serving %s", os.Getpid(), filepath.Join(data, "parlour.db")); !strings.Contains(stderr.String(), want) {
		t.Errorf("second serve said %q, want it to say %q", stderr.String(), want)
	}
	res, err := http.Post(base+"/api/v1/tables", "application/json", strings.NewReader(`{"game": "nymphabet", "seats": ["me", "open"]}`))
	if err != nil || res.StatusCode != 201 {
		t.Fatalf("the first server after the second was refused: %v %v", res, err)
	}
	res.Body.Close()

	stop()
	if code := <-done; code != 0 {
		t.Fatalf("first serve returned %d", code)
	}
	ctx2, stop2 := context.WithCancel(context.Background())
	_, _, done2 := startServe(t, ctx2, "--data", data, "--tournaments", "none")
	stop2()
	if code := <-done2; code != 0 {
		t.Fatalf("serve after the first stopped returned %d", code)
	}
}

// TestServeBadStartChangesNothing: a serve stopped by a bad value or an
// address it cannot listen on makes no data directory and no database.
func TestServeBadStartChangesNothing(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--sync", "maybe"}, 2},
		{[]string{"--addr", "nonsense"}, 1},
		{[]string{"--addr", taken.Addr().String()}, 1},
		{[]string{"--metrics-addr", "nonsense"}, 1},
		{[]string{"--metrics-addr", taken.Addr().String()}, 1},
	} {
		data := filepath.Join(t.TempDir(), "data")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var stderr strings.Builder
		args := append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "error", "--data", data}, tc.args...)
		if code := run(ctx, args, strings.NewReader(""), io.Discard, &stderr); code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.code, stderr.String())
		}
		if _, err := os.Stat(data); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%v: the data directory after the refusal: %v, want none", tc.args, err)
		}
	}
}

// TestServeNoDatabaseLeavesNoLock: serve on a --store file that is no
// database fails, and leaves the file as it was with no FILE.lock of its
// making beside it; a lock file that was there before stays.
func TestServeNoDatabaseLeavesNoLock(t *testing.T) {
	t.Parallel()
	for _, hadLock := range []bool{false, true} {
		dir := t.TempDir()
		file := filepath.Join(dir, "notes.txt")
		if err := os.WriteFile(file, []byte("not a database, but long enough to be read as one\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if hadLock {
			if err := os.WriteFile(file+".lock", nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var stderr strings.Builder
		args := []string{"serve", "--addr", "127.0.0.1:0", "--log-level", "error", "--data", dir, "--store", file}
		if code := run(ctx, args, strings.NewReader(""), io.Discard, &stderr); code != 1 {
			t.Fatalf("serve on %s: exit %d, want 1 (%s)", file, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), "not a database") {
			t.Errorf("serve on %s said %q, want it to say it is not a database", file, stderr.String())
		}
		_, err := os.Stat(file + ".lock")
		if hadLock && err != nil {
			t.Errorf("the lock file there before the start: %v, want it kept", err)
		}
		if !hadLock && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the lock file after a failed start: %v, want none", err)
		}
		if b, _ := os.ReadFile(file); !strings.HasPrefix(string(b), "not a database") {
			t.Errorf("%s holds %q after the failed start", file, b)
		}
	}
}

// newerStore is a store a newer build has migrated.
type newerStore struct {
	store.Store
	newer []string
}

func (s newerStore) NewerMigrations() []string { return s.newer }

// TestWarnNewer: serve warns, naming them, of migrations a newer build
// made, and says nothing of a database this build knows whole.
func TestWarnNewer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		newer []string
		want  string
	}{
		{nil, ""},
		{[]string{"018_next.sql", "019_later.sql"}, "migrations=\"018_next.sql, 019_later.sql\""},
	} {
		var out strings.Builder
		warnNewer(slog.New(slog.NewTextHandler(&out, nil)), newerStore{newer: tc.newer})
		if said := out.String(); (tc.want == "") != (said == "") || !strings.Contains(said, tc.want) || tc.want != "" && !strings.Contains(said, "level=WARN") {
			t.Errorf("newer %v: said %q, want a warning naming %q", tc.newer, said, tc.want)
		}
	}
}

// migratedStore is a store whose opening applied migrations.
type migratedStore struct {
	store.Store
	migrated []string
}

func (s migratedStore) Migrated() []string { return s.migrated }

// TestLogMigrated: serve names the migrations its start applied (an
// upgrade's), and says nothing when it applied none.
func TestLogMigrated(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		migrated []string
		want     string
	}{
		{nil, ""},
		{[]string{"018_next.sql", "019_later.sql"}, `msg="database migrated" applied=2 migrations="018_next.sql, 019_later.sql"`},
	} {
		var out strings.Builder
		logMigrated(slog.New(slog.NewTextHandler(&out, nil)), migratedStore{migrated: tc.migrated})
		if said := out.String(); (tc.want == "") != (said == "") || !strings.Contains(said, tc.want) {
			t.Errorf("migrated %v: said %q, want %q", tc.migrated, said, tc.want)
		}
	}
}

// TestServeBadFlagOneLine: a bad flag or value stops serve with the line
// that names it and a pointer to the flags, not the line followed by
// sixty lines of every flag's description, under which a unit's log
// buries it; -h still prints them all.
func TestServeBadFlagOneLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--house-lexicon", "foo"}, `"foo" is not NAME=FILE`},
		{[]string{"--addr"}, "flag needs an argument: -addr"},
		{[]string{"--colour", "red"}, "flag provided but not defined: -colour"},
		{[]string{"extra"}, `takes no arguments, not "extra"`},
	} {
		var stderr strings.Builder
		if code := run(context.Background(), append([]string{"serve"}, tc.args...), strings.NewReader(""), io.Discard, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		said := stderr.String()
		if lines := strings.Count(said, "\n"); !strings.Contains(said, tc.want) || !strings.Contains(said, "parlour help serve") || lines > 2 {
			t.Errorf("%v: said (%d lines)\n%s\nwant a line naming %q and the help", tc.args, lines, said, tc.want)
		}
	}
	var stderr strings.Builder
	if code := run(context.Background(), []string{"serve", "-h"}, strings.NewReader(""), io.Discard, &stderr); code != 0 || !strings.Contains(stderr.String(), "-trusted-proxy") {
		t.Errorf("serve -h: exit %d, said\n%s", code, stderr.String())
	}
}

// TestServeLogLevelWords: a log level mistyped is told the levels, not
// slog's "level string ... unknown name".
func TestServeLogLevelWords(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"serve", "--log-level", "loud"}, strings.NewReader(""), &out, &errb)
	if want := "parlour serve: --log-level must be debug, info, warn or error, not \"loud\"\n"; code != 2 || errb.String() != want {
		t.Fatalf("exit %d, stderr %q; want exit 2 and %q", code, errb.String(), want)
	}
}

// TestWarnSQLiteLeft: a server started on PostgreSQL over a data
// directory that still holds the SQLite database it served before warns
// that what that database holds is not in PostgreSQL; a server on
// SQLite, or on PostgreSQL with no database beside it, says nothing.
func TestWarnSQLiteLeft(t *testing.T) {
	t.Parallel()
	withDB := t.TempDir()
	if err := os.WriteFile(filepath.Join(withDB, "parlour.db"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	pg := storeAt{postgres: "postgres://parlour:s3cret@db/parlour"}
	// An SQLite database to-postgres copied, and one written again since.
	copied, rewritten := t.TempDir(), t.TempDir()
	then := time.Now().Add(-time.Hour)
	for _, dir := range []string{copied, rewritten} {
		db := filepath.Join(dir, "parlour.db")
		if err := errors.Join(os.WriteFile(db, nil, 0o600), os.WriteFile(db+movedSuffix, nil, 0o600), os.Chtimes(db, then, then)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(rewritten, "parlour.db-wal"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(rewritten, "parlour.db"+movedSuffix), then, then); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data string
		w    storeAt
		warn bool
	}{
		{"postgres over an sqlite database", withDB, pg, true},
		{"postgres over an sqlite database it was copied from", copied, pg, false},
		{"postgres over an sqlite database written again since its copy", rewritten, pg, true},
		{"postgres over an empty directory", t.TempDir(), pg, false},
		{"sqlite", withDB, storeAt{path: filepath.Join(withDB, "parlour.db")}, false},
	} {
		var out strings.Builder
		warnSQLiteLeft(slog.New(slog.NewTextHandler(&out, nil)), tc.data, tc.w)
		said := out.String()
		if tc.warn != strings.Contains(said, "level=WARN") || tc.warn && !strings.Contains(said, filepath.Join(tc.data, "parlour.db")) {
			t.Errorf("%s: said %q, want a warning naming the database: %v", tc.name, said, tc.warn)
		}
		if strings.Contains(said, "s3cret") {
			t.Errorf("%s: said %q: the password", tc.name, said)
		}
	}
}

// TestServeSignInRate: --rate-sign-in-addr sets the sign-ins one address
// may make, its burst twenty times it: at 0.1 a second, two attempts pass
// (refused for the password) and the third waits for its turn (429), where
// the default lets twenty through.
func TestServeSignInRate(t *testing.T) {
	t.Parallel()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	base, _, done := startServe(t, ctx, "--data", t.TempDir(), "--rate-sign-in-addr", "0.1")
	var got []int
	for range 3 {
		res, err := http.Post(base+"/api/v1/sessions", "application/json", strings.NewReader(`{"name": "Nobody", "password": "not the password"}`))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		got = append(got, res.StatusCode)
	}
	if got[0] == http.StatusTooManyRequests || got[1] == http.StatusTooManyRequests || got[2] != http.StatusTooManyRequests {
		t.Errorf("three sign-ins at --rate-sign-in-addr 0.1 answered %v, want the third, alone, 429", got)
	}
	stop()
	<-done
}

// TestWarnNoPublicURL: a server behind a proxy or a balancer without
// --public-url warns that the links it gives players start with its own
// address; one with it, or one players reach directly, says nothing.
func TestWarnNoPublicURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		set, behind bool
		warn        bool
	}{
		{"behind, no --public-url", false, true, true},
		{"behind, with --public-url", true, true, false},
		{"reached directly", false, false, false},
		{"reached directly, with --public-url", true, false, false},
	} {
		var out strings.Builder
		warnNoPublicURL(slog.New(slog.NewTextHandler(&out, nil)), "http://10.0.0.11:8080", tc.set, tc.behind)
		said := out.String()
		if tc.warn != strings.Contains(said, "level=WARN") || tc.warn && !strings.Contains(said, "--public-url") || tc.warn && !strings.Contains(said, "http://10.0.0.11:8080") {
			t.Errorf("%s: said %q, want a warning naming --public-url and the links' start: %v", tc.name, said, tc.warn)
		}
	}
}

// TestServeMetricsAddr: with --metrics-addr the metrics are served there,
// and only they, while --addr, where players come, answers /metrics 404
// and everything else as before.
func TestServeMetricsAddr(t *testing.T) {
	t.Parallel()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	out, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--log-level", "error", "--data", t.TempDir()}, strings.NewReader(""), outW, io.Discard)
		outW.Close()
	}()
	lines := bufio.NewReader(out)
	first, err := lines.ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed nothing: %v", err)
	}
	second, err := lines.ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed one line: %q, %v", first, err)
	}
	go io.Copy(io.Discard, lines)
	base := strings.TrimSuffix(strings.Fields(first)[4], "/")
	metrics := strings.TrimSpace(strings.TrimPrefix(second, "and its metrics at "))
	if !strings.HasPrefix(metrics, "http://127.0.0.1:") || !strings.HasSuffix(metrics, "/metrics") {
		t.Fatalf("serve's second line: %q", second)
	}
	get := func(url string) (int, string) {
		t.Helper()
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, tc := range []struct {
		url  string
		code int
		has  string
	}{
		{metrics, 200, "parlour_build_info"},
		{base + "/metrics", 404, ""},
		{base + "/api/v1/games", 200, "nymphabet"},
		{strings.TrimSuffix(metrics, "/metrics") + "/api/v1/games", 404, ""},
	} {
		if code, body := get(tc.url); code != tc.code || !strings.Contains(body, tc.has) {
			t.Errorf("GET %s: %d, want %d with %q", tc.url, code, tc.code, tc.has)
		}
	}
	stop()
	if code := <-done; code != 0 {
		t.Errorf("serve exited %d", code)
	}
}
