package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// TestExecerCommitFails: a commit that fails rolls its transaction back,
// so that nothing of it is stored and the writer's next transaction
// begins afresh. A deferred foreign key makes the commit itself fail, as
// a full disk or a busy database would.
func TestExecerCommitFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "x.db")+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE moves (table_id TEXT NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, move TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (table_id, seq)) WITHOUT ROWID",
		"CREATE TABLE parent (id INTEGER PRIMARY KEY)",
		"CREATE TABLE child (p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		ex, err := newExecer(dc.(rawConn))
		if err != nil {
			return err
		}
		defer ex.close()
		// steps runs a transaction of queries.
		steps := func(queries ...string) error {
			if err := ex.begin(); err != nil {
				t.Fatalf("begin: %v", err)
			}
			for _, q := range queries {
				if _, err := ex.exec(q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			return ex.commit()
		}
		if err := steps("INSERT INTO child VALUES (1)"); err == nil || !strings.Contains(err.Error(), "FOREIGN KEY") {
			t.Errorf("the commit of a child without its parent: %v, want a foreign key's refusal", err)
		}
		if err := steps("INSERT INTO parent VALUES (2)", "INSERT INTO child VALUES (2)"); err != nil {
			t.Errorf("the transaction after a failed commit: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM child").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("%d children stored, want the second transaction's one", n)
	}
}
