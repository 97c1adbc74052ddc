package sqlite

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"parlour/internal/cputime"
)

// BenchmarkMovesLayout weighs the moves table's layout, keyed by table
// and move as the store keeps it, against one kept in arrival order (a
// rowid table), which writes one leaf page a commit where the store's
// writes one per table moved, but must then be indexed by table for a
// table's moves to be read (arrival-indexed): commits of eight moves
// spread over 1,000 live tables, with the store's journal, sync and cache
// settings and a checkpoint a second, as a busy server makes them. It
// reports the process's CPU a move (cpu-ns/move); docs/performance.md
// quotes it.
func BenchmarkMovesLayout(b *testing.B) {
	layouts := []struct{ name, schema string }{
		{"keyed", "CREATE TABLE moves (table_id TEXT NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, move TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (table_id, seq)) WITHOUT ROWID"},
		{"arrival", "CREATE TABLE moves (table_id TEXT NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, move TEXT NOT NULL, at INTEGER NOT NULL)"},
		{"arrival-indexed", "CREATE TABLE moves (table_id TEXT NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, move TEXT NOT NULL, at INTEGER NOT NULL); CREATE INDEX moves_by_table ON moves (table_id, seq)"},
	}
	for _, l := range layouts {
		b.Run(l.name, func(b *testing.B) { benchLayout(b, l.schema) })
	}
}

func benchLayout(b *testing.B, schema string) {
	const tables, played, batch = 1000, 20, 8
	db, err := sql.Open("sqlite", filepath.Join(b.TempDir(), "layout.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{"PRAGMA journal_mode(WAL)", "PRAGMA synchronous(FULL)", "PRAGMA wal_autocheckpoint(0)", "PRAGMA cache_size(-16384)", schema} {
		if _, err := db.Exec(q); err != nil {
			b.Fatal(err)
		}
	}
	ids := make([]string, tables)
	seq := make([]int, tables)
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	for i := range ids {
		ids[i] = fmt.Sprintf("%016x", rand.Uint64())
		for seq[i] < played {
			seq[i]++
			if _, err := tx.Exec("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", ids[i], seq[i], seq[i]%2, "72", time.Now().UnixNano()); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		b.Fatal(err)
	}
	ins, err := db.Prepare("INSERT INTO moves VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		b.Fatal(err)
	}
	defer ins.Close()
	b.ResetTimer()
	cpu, ok := cputime.Process()
	checkpoint := time.Now()
	for n := 0; n < b.N; n += batch {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		st := tx.Stmt(ins)
		for range batch {
			k := rand.IntN(tables)
			seq[k]++
			if _, err := st.Exec(ids[k], seq[k], seq[k]%2, "72", time.Now().UnixNano()); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		if time.Since(checkpoint) > time.Second {
			if _, err := db.Exec("PRAGMA wal_checkpoint(RESTART)"); err != nil {
				b.Fatal(err)
			}
			checkpoint = time.Now()
		}
	}
	if end, _ := cputime.Process(); ok {
		b.ReportMetric(float64(end-cpu)/float64(b.N), "cpu-ns/move")
	}
}
