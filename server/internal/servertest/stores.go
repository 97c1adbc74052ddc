package servertest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"parlour/store"
	"parlour/store/postgres"
	"parlour/store/postgres/pgtest"
	"parlour/store/sqlite"
)

// pg is the throwaway PostgreSQL server of a test run: Main starts it and
// stops it. It is nil when PostgreSQL is not installed; the tests on it
// then skip, or fail when the CI environment variable is set.
var pg *pgtest.Server

// Main runs a package's tests with one throwaway PostgreSQL server, the
// one PG returns, and returns their exit code: a package's TestMain calls
// os.Exit(servertest.Main(m)). Without PostgreSQL the tests that need it
// skip, or fail when the CI environment variable is set.
func Main(m *testing.M) int { return pgtest.Main(m, &pg) }

// PG returns the test run's PostgreSQL server, nil when there is none;
// a test that needs it calls pgtest.Missing when it is nil.
func PG() *pgtest.Server { return pg }

// StoreKind is a store the server's tests run on: the tests that matter
// for the store (crash and durability, secrecy, commitments, outages) run
// once on each of StoreKinds, so that the server keeps its promises on
// PostgreSQL as on SQLite.
type StoreKind struct {
	Name string
	// Fresh makes a new, empty store for t, removed when t ends, and
	// returns where it is: a file's path or a database's URL.
	Fresh func(t testing.TB) string
	// Open opens the store at where. Durable asks for commits that
	// survive a power cut (SQLite's synchronous FULL); PostgreSQL's
	// commits are durable as its server is configured.
	Open func(ctx context.Context, where string, durable bool) (store.Store, error)
}

// StoreKinds returns SQLite and PostgreSQL.
func StoreKinds() []StoreKind {
	return []StoreKind{
		{
			Name:  "sqlite",
			Fresh: func(t testing.TB) string { return filepath.Join(t.TempDir(), "parlour.db") },
			Open: func(ctx context.Context, path string, durable bool) (store.Store, error) {
				sync := "NORMAL"
				if durable {
					sync = "FULL"
				}
				return sqlite.Open(ctx, path, sqlite.Options{Synchronous: sync})
			},
		},
		{
			Name:  "postgres",
			Fresh: func(t testing.TB) string { return pg.NewDatabase(t) },
			Open: func(ctx context.Context, url string, _ bool) (store.Store, error) {
				return postgres.Open(ctx, url, postgres.Options{})
			},
		},
	}
}

// StoreKindNamed returns the kind called name.
func StoreKindNamed(name string) (StoreKind, error) {
	for _, k := range StoreKinds() {
		if k.Name == name {
			return k, nil
		}
	}
	return StoreKind{}, fmt.Errorf("no store kind %q", name)
}

// EachStore runs f as a subtest on each kind of store.
func EachStore(t *testing.T, f func(t *testing.T, k StoreKind)) {
	t.Helper()
	for _, k := range StoreKinds() {
		t.Run(k.Name, func(t *testing.T) { f(t, k) })
	}
}

// OpenFresh opens a fresh store of kind k for t, closed when t ends, and
// returns it with where it is.
func (k StoreKind) OpenFresh(t testing.TB) (store.Store, string) {
	t.Helper()
	where := k.Fresh(t)
	st, err := k.Open(context.Background(), where, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, where
}

// SQLite opens a fresh SQLite store for t, closed when t ends: for a
// package's tests that need a store, and the methods beyond store.Store
// that each of its domains adds, but not each kind of store.
func SQLite(t testing.TB) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "parlour.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
