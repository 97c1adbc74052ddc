package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"parlour/invite"
	"parlour/store"
)

// TestInviteCodes stores codes with their tables: a code held by a live
// table, or by one finished within the reserve, is refused with nothing
// written; one finished longer ago is given to the new table; codes
// survive reopening the store.
func TestInviteCodes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	s := open(t, path)
	now := time.Now()
	tbl := func(id string) *store.Table {
		return &store.Table{ID: id, Game: "quizl", Status: store.Open, Created: now, Updated: now, Meta: []byte("{}")}
	}
	if err := s.Write(ctx, store.Batch{NewTable: tbl("t1"), Code: "ABCDEF"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, store.Batch{NewTable: tbl("t2"), Code: "ABCDEF"}); !errors.Is(err, store.ErrCodeTaken) || !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a live table's code given again: %v, want ErrCodeTaken", err)
	}
	if _, err := s.Table(ctx, "t2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the refused table was written: %v", err)
	}
	if err := s.UpdateTable(ctx, "t1", store.Finished, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, store.Batch{NewTable: tbl("t2"), Code: "ABCDEF"}); !errors.Is(err, store.ErrCodeTaken) {
		t.Fatalf("a code reserved after its table ended given again: %v", err)
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE tables SET updated = ? WHERE id = 't1'", nanos(now.Add(-invite.Reserve-time.Hour))); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, store.Batch{NewTable: tbl("t2"), Code: "ABCDEF"}); err != nil {
		t.Fatalf("a code past its reserve: %v", err)
	}
	if err := s.Write(ctx, store.Batch{NewTable: tbl("t3"), Code: "GHJKMN"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	for code, want := range map[string]string{"ABCDEF": "t2", "GHJKMN": "t3"} {
		if id, err := s.TableByCode(ctx, code); err != nil || id != want {
			t.Errorf("TableByCode(%s) = %q, %v; want %s", code, id, err, want)
		}
	}
	if _, err := s.TableByCode(ctx, "PQRSTU"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an unknown code: %v, want ErrNotFound", err)
	}
}
