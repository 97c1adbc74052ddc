package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"parlour/store"
	"parlour/store/storetest"
)

// TestStore runs the store's shared suite against SQLite, a new database
// file per test.
func TestStore(t *testing.T) {
	storetest.Run(t, storetest.Harness{
		Fresh: func(t *testing.T) string { return filepath.Join(t.TempDir(), "p.db") },
		Open: func(t *testing.T, path string) store.Store {
			s := open(t, path)
			t.Cleanup(func() { s.Close() })
			return s
		},
		Backdate: func(t *testing.T, path, id string, when time.Time) {
			db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.ExecContext(context.Background(), "UPDATE tables SET updated = ? WHERE id = ?", nanos(when), id); err != nil {
				t.Fatal(err)
			}
		},
	})
}
