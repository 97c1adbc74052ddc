package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestServeWithoutPostgres points parlour serve at a PostgreSQL address
// where nothing listens: it exits non-zero at once, saying that it is
// PostgreSQL it cannot reach and why, and serves nothing.
func TestServeWithoutPostgres(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	for _, scheme := range []string{"postgres", "postgresql"} {
		t.Run(scheme, func(t *testing.T) {
			var stderr strings.Builder
			stdout := &strings.Builder{}
			start := time.Now()
			code := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(),
				"--store", scheme + "://parlour:secret@" + addr + "/parlour?sslmode=disable&connect_timeout=5"},
				strings.NewReader(""), stdout, &stderr)
			if code == 0 {
				t.Fatalf("serve exited 0 without PostgreSQL")
			}
			msg := stderr.String()
			if !strings.Contains(msg, "PostgreSQL") || !strings.Contains(msg, addr) || !strings.Contains(msg, "refused") {
				t.Errorf("the message does not say that PostgreSQL at %s refused: %s", addr, msg)
			}
			if strings.Contains(msg, "secret") {
				t.Errorf("the message shows the password: %s", msg)
			}
			if stdout.Len() > 0 {
				t.Errorf("serve said it serves: %s", stdout)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("giving up took %v", d)
			}
		})
	}
}

// TestServeOnPostgres runs parlour serve on a throwaway PostgreSQL,
// creates a table and plays a move, stops the server, and starts another
// on the same database: the table is there with its move.
func TestServeOnPostgres(t *testing.T) {
	url := pgDatabase(t)

	ctx, stop := context.WithCancel(context.Background())
	data := filepath.Join(t.TempDir(), "data")
	base, line, done := startServe(t, ctx, "--data", data, "--store", url)
	if !strings.Contains(line, "PostgreSQL") {
		t.Errorf("serve printed %q, want it to name PostgreSQL", line)
	}
	// A second server on the same database, alone or as a cluster's
	// node, is refused while the first serves: the two would run the
	// same tables. It is refused before it migrates: the database is
	// made to lack its last migration, as the first build's would
	// beside a newer second, and still lacks it after the refusals.
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "ALTER TABLE reports DROP COLUMN seq; DELETE FROM schema_migrations WHERE name = '015_report_lines.sql'"); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"--nats", "nats://127.0.0.1:1"}} {
		second, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		var stderr strings.Builder
		args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--store", url}, extra...)
		if code := run(second, args, strings.NewReader(""), io.Discard, &stderr); code != 1 || !strings.Contains(stderr.String(), "already serving this database") {
			t.Errorf("%v beside the first: exit %d, %q; want 1, saying the database is served", extra, code, stderr.String())
		}
		cancel()
	}
	var migrated int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM schema_migrations WHERE name = '015_report_lines.sql'").Scan(&migrated); err != nil || migrated != 0 {
		t.Errorf("a refused server migrated the database it was refused: %d, %v", migrated, err)
	}
	post := func(base, path, token, body string, out any) int { return postJSON(t, base, path, token, body, out) }
	var a, b struct{ Table, Token string }
	if st := post(base, "/api/v1/tables", "", `{"game": "nymphabet", "seats": ["me", "open"]}`, &a); st != 201 {
		t.Fatalf("create: %d", st)
	}
	if st := post(base, "/api/v1/tables/"+a.Table+"/join", "", `{}`, &b); st != 200 {
		t.Fatalf("join: %d", st)
	}
	var mv struct{ Version int }
	st := post(base, "/api/v1/tables/"+a.Table+"/moves", a.Token, `{"move": "a"}`, &mv)
	if st != 200 {
		st = post(base, "/api/v1/tables/"+a.Table+"/moves", b.Token, `{"move": "a"}`, &mv)
	}
	if st != 200 {
		t.Fatalf("neither seat could play a: %d", st)
	}
	stop()
	if code := <-done; code != 0 {
		t.Fatalf("serve returned %d", code)
	}
	// The tables are in PostgreSQL and no SSH door was opened: nothing
	// belongs in --data.
	if _, err := os.Stat(data); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("--data of a server on PostgreSQL without an SSH door: %v, want it unmade", err)
	}

	ctx2, stop2 := context.WithCancel(context.Background())
	defer stop2()
	base2, _, done2 := startServe(t, ctx2, "--data", t.TempDir(), "--store", url)
	res, err := http.Get(base2 + "/api/v1/tables/" + a.Table + "/record")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Moves []struct{ Move string }
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	json.Unmarshal(raw, &rec)
	if res.StatusCode != 200 || len(rec.Moves) != 1 || rec.Moves[0].Move != "a" {
		t.Errorf("after a restart on the same database the record is %d %s, want the one move a", res.StatusCode, raw)
	}
	stop2()
	<-done2
}

// postJSON posts body to base+path with token (none when empty), decodes
// the answer into out (when not nil) and answers the status.
func postJSON(t *testing.T, base, path, token, body string, out any) int {
	t.Helper()
	req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

// TestServeStopsWhenItsLockIsTaken: a server whose connection holding the
// database's lock ends (PostgreSQL restarted) while another server takes
// the lock stops, rather than run the same tables beside it.
func TestServeStopsWhenItsLockIsTaken(t *testing.T) {
	url := pgDatabase(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	_, _, done := startServe(t, ctx, "--data", t.TempDir(), "--store", url)
	bg := context.Background()
	admin, err := pgx.Connect(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(bg)
	waiter, err := pgx.Connect(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close(bg)
	const serveKey = 0x7061726c6f757273 // "parlours", the store's serve lock
	var holder int
	if err := admin.QueryRow(bg, "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = $2", uint32(serveKey>>32), uint32(serveKey&0xffffffff)).Scan(&holder); err != nil {
		t.Fatalf("the server's lock: %v", err)
	}
	took := make(chan error, 1)
	go func() {
		_, err := waiter.Exec(bg, "SELECT pg_advisory_lock($1)", int64(serveKey))
		took <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var waiting bool
		if err := admin.QueryRow(bg, "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted)").Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the other server never waited for the lock")
		}
	}
	if _, err := admin.Exec(bg, "SELECT pg_terminate_backend($1)", holder); err != nil {
		t.Fatal(err)
	}
	if err := <-took; err != nil {
		t.Fatalf("the other server's lock: %v", err)
	}
	select {
	case code := <-done:
		if code != 1 {
			t.Errorf("serve, its lock taken, returned %d, want 1", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve went on serving once another server held its database's lock")
	}
}
