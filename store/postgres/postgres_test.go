package postgres

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

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
