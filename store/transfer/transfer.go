// Package transfer copies a Parlour database from the embedded store
// (SQLite) into PostgreSQL, for a site that grows from one server into a
// cluster: every account, rating, record, chat line and event comes
// along, and the server then serves the copy with --store URL.
//
// The two stores keep the same tables with the same columns; only the
// types differ, in a few regular ways: SQLite keeps a time as
// nanoseconds since 1970 (0 for none where PostgreSQL has NULL) and a
// truth as 0 or 1. The copy reads PostgreSQL's own description of each
// column and converts by it, so a table or a column the two schemas do
// not share is refused before anything is copied: that is a build whose
// migrations differ, not data to guess at.
package transfer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"parlour/store/postgres"
	"parlour/store/sqlite"
)

// skipped are the tables each store keeps for itself: its own list of
// migrations, SQLite's counters (PostgreSQL's sequences are set after
// the copy instead) and the cluster's leases.
var skipped = map[string]bool{"schema_migrations": true, "sqlite_sequence": true, "table_leases": true}

// Copied says how many rows of each table were copied.
type Copied map[string]int64

// Rows returns the rows copied in all.
func (c Copied) Rows() int64 {
	var n int64
	for _, v := range c {
		n += v
	}
	return n
}

// ToPostgres copies the SQLite database at path into the PostgreSQL
// database at url, which it migrates first and which must hold no data:
// a copy over data would mix two sites' players. It copies in one
// transaction, so that a copy that fails leaves the target as empty as it
// found it. A SQLite database of an older build is migrated first, as
// parlour serve would. No server may use either database meanwhile: the
// caller keeps servers off the SQLite file (parlour admin takes its
// lock); PostgreSQL's serve lock is held here for the while.
//
// done, when set, is told each table once its rows are copied (they are
// committed only once every table is): a large site's copy takes
// minutes, and the operator sees it move.
func ToPostgres(ctx context.Context, path, url string, done func(table string, rows int64)) (Copied, error) {
	// Opening a file that is not there would make an empty database,
	// and the copy would move nothing, saying it did.
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("the SQLite database: %w", err)
	}
	src, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		return nil, fmt.Errorf("the SQLite database: %w", err)
	}
	newer := src.NewerMigrations()
	src.Close()
	if len(newer) > 0 {
		return nil, fmt.Errorf("the SQLite database has migrations this parlour does not know (%s): copy it with the parlour that serves it", strings.Join(newer, ", "))
	}
	dst, err := postgres.Open(ctx, url, postgres.Options{Serve: postgres.ServeAlone})
	if errors.Is(err, postgres.ErrServed) {
		return nil, fmt.Errorf("a server is using the PostgreSQL database: stop it, the copy must be alone there: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("the PostgreSQL database: %w", err)
	}
	defer dst.Close()
	if newer := dst.NewerMigrations(); len(newer) > 0 {
		return nil, fmt.Errorf("the PostgreSQL database has migrations this parlour does not know (%s)", strings.Join(newer, ", "))
	}

	db, err := sql.Open("sqlite", readOnly(path))
	if err != nil {
		return nil, fmt.Errorf("the SQLite database: %w", err)
	}
	defer db.Close()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("the PostgreSQL database: %w", err)
	}
	defer pool.Close()

	tables, err := plan(ctx, db, pool)
	if err != nil {
		return nil, err
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("the PostgreSQL database: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	for _, t := range tables {
		var n int64
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{t.name}.Sanitize()).Scan(&n); err != nil {
			return nil, fmt.Errorf("counting %s in PostgreSQL: %w", t.name, err)
		}
		if n > 0 {
			return nil, fmt.Errorf("the PostgreSQL database holds data already (%d rows in %s): copy into a new, empty database", n, t.name)
		}
	}
	copied := Copied{}
	for _, t := range tables {
		n, err := t.copy(ctx, db, tx)
		if err != nil {
			return nil, err
		}
		copied[t.name] = n
		if done != nil {
			done(t.name, n)
		}
	}
	if err := resetSequences(ctx, tx); err != nil {
		return nil, err
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("committing the copy: %w", err)
	}
	return copied, nil
}

// readOnly is the data source name that opens the SQLite file at path
// for reading only.
func readOnly(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return "file:" + (&url.URL{Path: abs}).EscapedPath() + "?mode=ro&_pragma=busy_timeout(5000)"
}

// A table to copy: its name and its columns as PostgreSQL has them.
type table struct {
	name string
	cols []column
}

type column struct {
	name, typ string // typ is information_schema's data_type
	nullable  bool
}

// plan lists the tables to copy, each table after those it refers to,
// and refuses schemas that differ.
func plan(ctx context.Context, db *sql.DB, pool *pgxpool.Pool) ([]table, error) {
	pg := map[string][]column{}
	rows, err := pool.Query(ctx, `SELECT table_name, column_name, data_type, is_nullable = 'YES'
		FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`)
	if err != nil {
		return nil, fmt.Errorf("reading PostgreSQL's tables: %w", err)
	}
	for rows.Next() {
		var t string
		var c column
		if err := rows.Scan(&t, &c.name, &c.typ, &c.nullable); err != nil {
			return nil, fmt.Errorf("reading PostgreSQL's tables: %w", err)
		}
		if !skipped[t] {
			pg[t] = append(pg[t], c)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading PostgreSQL's tables: %w", err)
	}
	lite, err := sqliteColumns(ctx, db)
	if err != nil {
		return nil, err
	}
	for _, t := range slices.Sorted(maps.Keys(lite)) {
		if _, ok := pg[t]; !ok {
			return nil, fmt.Errorf("the SQLite database has a table %s that PostgreSQL's has not: this parlour's two schemas differ", t)
		}
	}
	for _, t := range slices.Sorted(maps.Keys(pg)) {
		if lite[t] == nil {
			return nil, fmt.Errorf("the PostgreSQL database has a table %s that Parlour's SQLite database has not: copy into a database of Parlour's alone", t)
		}
		var names []string
		for _, c := range pg[t] {
			names = append(names, c.name)
		}
		if have, want := strings.Join(lite[t], ", "), strings.Join(slices.Sorted(slices.Values(names)), ", "); have != want {
			return nil, fmt.Errorf("the table %s has the columns (%s) in SQLite but (%s) in PostgreSQL: this parlour's two schemas differ", t, have, want)
		}
	}
	refs, err := references(ctx, pool)
	if err != nil {
		return nil, err
	}
	// Each table after those it refers to: Kahn's order, ties by name.
	var out []table
	done := map[string]bool{}
	for len(done) < len(pg) {
		progressed := false
		for _, t := range slices.Sorted(maps.Keys(pg)) {
			if done[t] || slices.ContainsFunc(refs[t], func(r string) bool { return r != t && !done[r] && pg[r] != nil }) {
				continue
			}
			out, done[t], progressed = append(out, table{name: t, cols: pg[t]}), true, true
		}
		if !progressed {
			return nil, errors.New("PostgreSQL's tables refer to each other in a circle: no order copies them")
		}
	}
	return out, nil
}

// sqliteColumns returns each table's columns, sorted, in the SQLite
// database.
func sqliteColumns(ctx context.Context, db *sql.DB) (map[string][]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT m.name, p.name FROM sqlite_schema AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table' ORDER BY m.name, p.name`)
	if err != nil {
		return nil, fmt.Errorf("reading SQLite's tables: %w", err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var t, c string
		if err := rows.Scan(&t, &c); err != nil {
			return nil, fmt.Errorf("reading SQLite's tables: %w", err)
		}
		if !skipped[t] {
			out[t] = append(out[t], c)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading SQLite's tables: %w", err)
	}
	return out, nil
}

// references returns the tables each table refers to by a foreign key.
func references(ctx context.Context, pool *pgxpool.Pool) (map[string][]string, error) {
	rows, err := pool.Query(ctx, `SELECT c.relname, f.relname FROM pg_constraint AS k
		JOIN pg_class AS c ON c.oid = k.conrelid JOIN pg_class AS f ON f.oid = k.confrelid
		WHERE k.contype = 'f' AND c.relnamespace = current_schema()::regnamespace`)
	if err != nil {
		return nil, fmt.Errorf("reading PostgreSQL's foreign keys: %w", err)
	}
	out := map[string][]string{}
	for rows.Next() {
		var t, r string
		if err := rows.Scan(&t, &r); err != nil {
			return nil, fmt.Errorf("reading PostgreSQL's foreign keys: %w", err)
		}
		out[t] = append(out[t], r)
	}
	return out, rows.Err()
}

// copy streams t's rows from SQLite into PostgreSQL, converting each
// value to its column's type there.
func (t table) copy(ctx context.Context, db *sql.DB, tx pgx.Tx) (int64, error) {
	names := make([]string, len(t.cols))
	quoted := make([]string, len(t.cols))
	for i, c := range t.cols {
		names[i], quoted[i] = c.name, `"`+c.name+`"`
	}
	rows, err := db.QueryContext(ctx, "SELECT "+strings.Join(quoted, ", ")+` FROM "`+t.name+`"`)
	if err != nil {
		return 0, fmt.Errorf("reading %s from SQLite: %w", t.name, err)
	}
	defer rows.Close()
	src := &source{t: t, rows: rows, raw: make([]any, len(t.cols)), vals: make([]any, len(t.cols))}
	n, err := tx.CopyFrom(ctx, pgx.Identifier{t.name}, names, src)
	if src.err != nil {
		err = src.err // PostgreSQL's word on the aborted copy only wraps it
	}
	if err != nil {
		return 0, fmt.Errorf("copying %s: %w", t.name, err)
	}
	return n, nil
}

// source feeds a table's SQLite rows to CopyFrom (pgx.CopyFromSource).
type source struct {
	t         table
	rows      *sql.Rows
	raw, vals []any
	err       error
}

func (s *source) Next() bool {
	if s.err != nil || !s.rows.Next() {
		return false
	}
	ptrs := make([]any, len(s.raw))
	for i := range s.raw {
		ptrs[i] = &s.raw[i]
	}
	if err := s.rows.Scan(ptrs...); err != nil {
		s.err = err
		return false
	}
	for i, c := range s.t.cols {
		v, err := convert(s.raw[i], c)
		if err != nil {
			s.err = fmt.Errorf("column %s: %w", c.name, err)
			return false
		}
		s.vals[i] = v
	}
	return true
}

func (s *source) Values() ([]any, error) { return s.vals, nil }

func (s *source) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.rows.Err()
}

// convert turns v, as SQLite gave it, into the value column c takes in
// PostgreSQL.
func convert(v any, c column) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch c.typ {
	case "timestamp with time zone":
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("a time kept as %T, not nanoseconds", v)
		}
		if n == 0 && c.nullable {
			return nil, nil // SQLite's 0 is PostgreSQL's NULL: no time
		}
		return time.Unix(0, n).UTC(), nil
	case "boolean":
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("a truth kept as %T, not 0 or 1", v)
		}
		return n != 0, nil
	case "bytea":
		switch b := v.(type) {
		case []byte:
			return b, nil
		case string:
			return []byte(b), nil
		}
	case "text":
		switch s := v.(type) {
		case string:
			return s, nil
		case []byte:
			return string(s), nil
		}
	case "integer", "bigint", "smallint":
		if n, ok := v.(int64); ok {
			return n, nil
		}
	case "double precision", "real":
		switch f := v.(type) {
		case float64:
			return f, nil
		case int64:
			return float64(f), nil
		}
	default:
		return nil, fmt.Errorf("PostgreSQL's type %s is not one the copy knows", c.typ)
	}
	return nil, fmt.Errorf("a %s kept as %T", c.typ, v)
}

// resetSequences moves each sequence behind a column's default past the
// largest value copied into it, so that the next row PostgreSQL numbers
// does not take a copied row's number.
func resetSequences(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name)
		FROM information_schema.columns WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`)
	if err != nil {
		return fmt.Errorf("reading PostgreSQL's sequences: %w", err)
	}
	type seq struct{ table, col, name string }
	var seqs []seq
	for rows.Next() {
		var s seq
		var name *string
		if err := rows.Scan(&s.table, &s.col, &name); err != nil {
			return fmt.Errorf("reading PostgreSQL's sequences: %w", err)
		}
		if name != nil && !skipped[s.table] {
			s.name = *name
			seqs = append(seqs, s)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading PostgreSQL's sequences: %w", err)
	}
	for _, s := range seqs {
		q := fmt.Sprintf("SELECT setval($1, max(%s)) FROM %s HAVING max(%s) IS NOT NULL",
			pgx.Identifier{s.col}.Sanitize(), pgx.Identifier{s.table}.Sanitize(), pgx.Identifier{s.col}.Sanitize())
		if _, err := tx.Exec(ctx, q, s.name); err != nil {
			return fmt.Errorf("setting the sequence of %s.%s: %w", s.table, s.col, err)
		}
	}
	return nil
}
