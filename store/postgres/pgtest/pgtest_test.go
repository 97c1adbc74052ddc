package pgtest

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestStartAndRemove starts a server, makes two databases that do not see
// each other's tables, and finds the server's folder gone after Close.
func TestStartAndRemove(t *testing.T) {
	ctx := context.Background()
	s, err := Start(ctx, Options{})
	if err != nil {
		if _, missing := Bin(); missing != nil {
			Missing(t)
		}
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			s.Close()
		}
	}()
	a, err := s.CreateDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.CreateDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Fatalf("two databases share the URL %s", a)
	}
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE only_in_a (x int)"); err != nil {
		t.Fatal(err)
	}
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	if _, err := cb.Exec(ctx, "SELECT * FROM only_in_a"); err == nil {
		t.Fatal("a table of one database is seen from another")
	}
	var user string
	if err := ca.QueryRow(ctx, "SELECT current_user").Scan(&user); err != nil || user != "postgres" {
		t.Fatalf("current_user = %q, %v", user, err)
	}
	ca.Close(ctx)
	cb.Close(ctx)
	if err := s.DropDatabase(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := s.DropDatabase(ctx, b); err != nil {
		t.Fatal(err)
	}
	dir := s.Dir()
	closed = true
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the server's folder %s is still there: %v", dir, err)
	}
}
