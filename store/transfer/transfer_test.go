package transfer_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"parlour/games"
	"parlour/server"
	"parlour/server/limit"
	"parlour/server/moderation"
	"parlour/store"
	"parlour/store/postgres"
	"parlour/store/postgres/pgtest"
	"parlour/store/sqlite"
	"parlour/store/transfer"
)

var pg *pgtest.Server

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &pg)) }

// site is a server on a store, reached over HTTP.
type site struct {
	t   *testing.T
	st  store.Store
	svc *server.Service
	srv *httptest.Server
}

// serve starts a server on st, which close closes with it.
func serve(t *testing.T, st store.Store) *site {
	t.Helper()
	svc, err := server.New(context.Background(), server.Config{Store: st, Games: games.Registry(), NewBot: games.NewBot})
	if err != nil {
		t.Fatal(err)
	}
	h := server.NewHandler(svc, limit.Limits{})
	return &site{t: t, st: st, svc: svc, srv: httptest.NewServer(h)}
}

// serveSQLite starts a server on a new SQLite database, and returns it
// with the database's path.
func serveSQLite(t *testing.T) (*site, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "parlour.db")
	lite, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return serve(t, lite), path
}

func (s *site) close() {
	s.srv.Close()
	s.svc.Close()
	s.st.Close()
}

// call sends body as JSON with token and decodes the answer into out,
// failing the test unless the status is want.
func (s *site) call(method, path, token string, body any, want int, out any) []byte {
	s.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.srv.URL+path, r)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		s.t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, b, want)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			s.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return b
}

// play fills the site's store as players would: two accounts, a rated
// game played to its end with chat, a follow, a challenge, a report, an
// SSH key, a daily attempt, an event joined, a moderator made.
func play(t *testing.T, s *site) (table string) {
	t.Helper()
	var ann, ben struct{ Token string }
	s.call("POST", "/api/v1/accounts", "", map[string]string{"name": "Ann", "password": "a long secret phrase"}, 201, &ann)
	s.call("POST", "/api/v1/accounts", "", map[string]string{"name": "Ben", "password": "another long phrase"}, 201, &ben)
	var sa, sb struct{ Table, Token string }
	s.call("POST", "/api/v1/tables", ann.Token, map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": true}, 201, &sa)
	s.call("POST", "/api/v1/tables/"+sa.Table+"/join", ben.Token, map[string]any{}, 200, &sb)
	s.call("POST", "/api/v1/tables/"+sa.Table+"/chat", sa.Token, map[string]any{"channel": "players", "text": "good luck"}, 201, nil)
	for i, w := range []string{"apple", "bed", "resign"} {
		s.call("POST", "/api/v1/tables/"+sa.Table+"/moves", []string{sa.Token, sb.Token}[i%2], map[string]any{"move": w}, 200, nil)
	}
	s.call("POST", "/api/v1/follows", ann.Token, map[string]string{"name": "Ben"}, 201, nil)
	s.call("POST", "/api/v1/challenges", ann.Token, map[string]any{"to": "Ben", "game": "salvo", "rules": map[string]any{"clock": 300}}, 201, nil)
	s.call("POST", "/api/v1/reports", ann.Token, map[string]any{"name": "Ben", "reason": "chat", "text": "rude"}, 201, nil)
	s.call("POST", "/api/v1/keys", ann.Token, map[string]any{"key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGL6Qx5qC5yN3Dg6JtU8BvH1uQ4wv1J0b3ZkP9yXx4ld ann@home", "password": "a long secret phrase"}, 201, nil)
	s.call("POST", "/api/v1/daily/quizl", ben.Token, nil, 201, nil)
	var event struct{ ID string }
	s.call("POST", "/api/v1/tournaments", ann.Token, map[string]any{"kind": "arena", "game": "nymphabet", "clock": 60, "minutes": 60, "starts": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}, 201, &event)
	s.call("POST", "/api/v1/tournaments/"+event.ID+"/join", ben.Token, map[string]any{}, 200, nil)
	if _, err := moderation.Grant(context.Background(), s.st, "Ann", true, "trusted", time.Now()); err != nil {
		t.Fatal(err)
	}
	var gus struct{ Token string }
	s.call("POST", "/api/v1/identity", "", map[string]string{"name": "Gus"}, 201, &gus)
	if err := s.svc.RememberGuest(context.Background(), "SHA256:gus gus", "gus", gus.Token); err != nil {
		t.Fatal(err)
	}
	// Gus's seek waits as the server stops: the store holds it.
	s.call("POST", "/api/v1/seeks", gus.Token, map[string]any{"game": "salvo"}, 201, nil)
	return sa.Table
}

// sqliteRows reads every row of every table of the SQLite database at
// path, each value as SQLite keeps it, in a stable order.
func sqliteRows(t *testing.T, path string) map[string][]string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tables := map[string][]string{}
	rs, err := db.Query(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT IN ('schema_migrations', 'sqlite_sequence')`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rs.Next() {
		var n string
		rs.Scan(&n)
		names = append(names, n)
	}
	rs.Close()
	for _, n := range names {
		r, err := db.Query(`SELECT * FROM "` + n + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := r.Columns()
		for r.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			r.Scan(ptrs...)
			var parts []string
			for i, c := range cols {
				v := vals[i]
				switch x := v.(type) {
				case []byte:
					v = fmt.Sprintf("%x", x)
				case int64:
					if x > 1e17 { // a time since 1973: PostgreSQL keeps microseconds
						v = x / 1000 * 1000
					}
				}
				parts = append(parts, fmt.Sprintf("%s=%v", c, v))
			}
			tables[n] = append(tables[n], strings.Join(slices.Sorted(slices.Values(parts)), " "))
		}
		r.Close()
		slices.Sort(tables[n])
	}
	return tables
}

// pgRows reads every row of the PostgreSQL database, each value turned
// back into the form SQLite keeps it in (times as nanoseconds, NULL
// times as 0, truths as 0 or 1).
func pgRows(t *testing.T, url string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	rs, err := c.Query(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name NOT IN ('schema_migrations', 'table_leases')`)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rs, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string][]string{}
	for _, n := range names {
		r, err := c.Query(ctx, `SELECT * FROM `+pgx.Identifier{n}.Sanitize())
		if err != nil {
			t.Fatal(err)
		}
		fields := r.FieldDescriptions()
		for r.Next() {
			vals, err := r.Values()
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for i, f := range fields {
				v := vals[i]
				switch x := v.(type) {
				case time.Time:
					v = x.UnixNano()
				case bool:
					v = map[bool]int{false: 0, true: 1}[x]
				case []byte:
					v = fmt.Sprintf("%x", x)
				case int32:
					v = int64(x)
				case nil:
					if f.DataTypeOID == 1184 { // timestamptz: SQLite's 0
						v = int64(0)
					}
				}
				parts = append(parts, fmt.Sprintf("%s=%v", f.Name, v))
			}
			tables[n] = append(tables[n], strings.Join(slices.Sorted(slices.Values(parts)), " "))
		}
		r.Close()
		slices.Sort(tables[n])
	}
	return tables
}

// micros cuts the times in an answer to microseconds, as PostgreSQL
// keeps them.
func micros(s string) string {
	return regexp.MustCompile(`(\d\d:\d\d:\d\d\.\d{1,6})\d*Z`).ReplaceAllStringFunc(s, func(m string) string {
		t, err := time.Parse(time.RFC3339Nano, "2000-01-01T"+m)
		if err != nil {
			return m
		}
		return strings.TrimPrefix(t.Truncate(time.Microsecond).Format(time.RFC3339Nano), "2000-01-01T")
	})
}

// TestToPostgres: a site played on SQLite, copied, reads the same on
// PostgreSQL, row for row and through the API (a player's page, a
// record, the leaderboard); PostgreSQL numbers the next rows after the
// copied ones; a second copy into the same database is refused and
// changes nothing.
func TestToPostgres(t *testing.T) {
	ctx := context.Background()
	url := pg.NewDatabase(t)
	s, path := serveSQLite(t)
	id := play(t, s)
	reads := []string{"/api/v1/players/Ann", "/api/v1/players/Ben/games", "/api/v1/tables/" + id + "/record", "/api/v1/leaderboards/nymphabet-standard", "/api/v1/tables/" + id + "/chat"}
	before := map[string]string{}
	for _, p := range reads {
		before[p] = micros(string(s.call("GET", p, "", nil, 200, nil)))
	}
	s.close()

	copied, err := transfer.ToPostgres(ctx, path, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range []string{"accounts", "identities", "tables", "moves", "ratings", "player_games", "chat", "relations", "challenges", "reports", "ssh_keys", "ssh_guests", "held_seeks", "daily_puzzles", "daily_attempts", "moderators", "moderation_log", "runs"} {
		if copied[tb] == 0 {
			t.Errorf("no rows of %s copied: the test's site did not fill it, or the copy missed it", tb)
		}
	}
	want, got := sqliteRows(t, path), pgRows(t, url)
	for tb, rows := range want {
		if !reflect.DeepEqual(rows, got[tb]) {
			t.Errorf("%s in SQLite:\n%s\nin PostgreSQL:\n%s", tb, strings.Join(rows, "\n"), strings.Join(got[tb], "\n"))
		}
		if int64(len(rows)) != copied[tb] {
			t.Errorf("%s: %d rows, %d said copied", tb, len(rows), copied[tb])
		}
	}

	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s = serve(t, st)
	for _, p := range reads {
		if after := string(s.call("GET", p, "", nil, 200, nil)); after != before[p] {
			t.Errorf("GET %s on SQLite:\n%s\non the copy:\n%s", p, before[p], after)
		}
	}
	// The moderators' log numbers its lines: the next is after the copy's.
	if _, err := moderation.Grant(ctx, st, "Ben", true, "trusted too", time.Now()); err != nil {
		t.Errorf("a moderator made on the copy: %v", err)
	}
	s.close()

	_, err = transfer.ToPostgres(ctx, path, url, nil)
	if err == nil || !strings.Contains(err.Error(), "holds data already") {
		t.Errorf("a copy into a database with data: %v", err)
	}
	other := pg.NewDatabase(t)
	c, err := pgx.Connect(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, `CREATE TABLE invoices (id int)`); err != nil {
		t.Fatal(err)
	}
	c.Close(ctx)
	if _, err := transfer.ToPostgres(ctx, path, other, nil); err == nil || !strings.Contains(err.Error(), "a table invoices that Parlour's SQLite database has not") {
		t.Errorf("a copy into another program's database: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "parlour.db")
	if _, err := transfer.ToPostgres(ctx, missing, url, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a copy of a database that is not there: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("the copy of a database that is not there made one")
	}
	if again := pgRows(t, url); len(again["moves"]) != len(want["moves"]) || len(again["moderation_log"]) != len(want["moderation_log"])+1 {
		t.Errorf("the refused copy changed the database: %d moves, %d log lines", len(again["moves"]), len(again["moderation_log"]))
	}
}

// TestToPostgresAllOrNothing: a value the copy cannot read (a time
// kept as text, in a database some other program wrote) stops it,
// naming the table and the column, and leaves PostgreSQL without a row.
func TestToPostgresAllOrNothing(t *testing.T) {
	ctx := context.Background()
	url := pg.NewDatabase(t)
	s, path := serveSQLite(t)
	var ann struct{ Token string }
	s.call("POST", "/api/v1/accounts", "", map[string]string{"name": "Ann", "password": "a long secret phrase"}, 201, &ann)
	var sa struct{ Table, Token string }
	s.call("POST", "/api/v1/tables", ann.Token, map[string]any{"game": "nymphabet", "seats": []string{"me", "computer:easy"}}, 201, &sa)
	s.call("POST", "/api/v1/tables/"+sa.Table+"/moves", sa.Token, map[string]any{"move": "apple"}, 200, nil)
	s.close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE moves SET at = 'soon'`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	_, err = transfer.ToPostgres(ctx, path, url, nil)
	if err == nil || !strings.Contains(err.Error(), "copying moves: column at") {
		t.Fatalf("a copy of a time kept as text: %v", err)
	}
	for tb, rows := range pgRows(t, url) {
		if len(rows) > 0 {
			t.Errorf("the failed copy left %d rows in %s", len(rows), tb)
		}
	}
}

// BenchmarkToPostgres copies a database of 1,000 finished tables of 100
// moves each (100,000 moves) and reports the rows copied a second.
func BenchmarkToPostgres(b *testing.B) {
	if pg == nil {
		pgtest.Missing(b)
	}
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "parlour.db")
	lite, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	lite.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		b.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC).UnixNano()
	for i := range 1000 {
		id := fmt.Sprintf("t%06d", i)
		if _, err := tx.Exec(`INSERT INTO tables (id, game, status, created, updated, meta) VALUES (?, 'nymphabet', 'finished', ?, ?, ?)`, id, at, at, []byte(`{"game":"nymphabet","seats":[]}`)); err != nil {
			b.Fatal(err)
		}
		for seq := 1; seq <= 100; seq++ {
			if _, err := tx.Exec(`INSERT INTO moves (table_id, seq, seat, move, at) VALUES (?, ?, ?, 'abdicated', ?)`, id, seq, seq%2, at+int64(seq)); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	db.Close()
	b.ResetTimer()
	var rows int64
	for range b.N {
		b.StopTimer()
		url, err := pg.CreateDatabase(ctx)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		copied, err := transfer.ToPostgres(ctx, path, url, nil)
		if err != nil {
			b.Fatal(err)
		}
		rows += copied.Rows()
		b.StopTimer()
		pg.DropDatabase(ctx, url)
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
