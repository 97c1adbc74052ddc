package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"parlour/store"
)

// TestAnalyses files an analysis beside its table's record: it outlives a
// reopening of the store, a second filing keeps the first, each version
// has its own, and a table that does not exist has none.
func TestAnalyses(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	s := open(t, path)
	now := time.Now()
	if err := s.CreateTable(ctx, store.Table{ID: "t1", Game: "nymphabet", Status: store.Finished, Created: now, Updated: now, Meta: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Analysis(ctx, "t1", 1); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("before any filing: %v, want ErrNotFound", err)
	}
	for _, c := range []struct {
		version int
		body    string
	}{{1, `{"version":1}`}, {1, `{"version":1,"second":true}`}, {2, `{"version":2}`}} {
		if err := s.PutAnalysis(ctx, "t1", c.version, []byte(c.body)); err != nil {
			t.Fatalf("filing %s: %v", c.body, err)
		}
	}
	if err := s.PutAnalysis(ctx, "nosuch", 1, []byte(`{}`)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("filing for a table that does not exist: %v, want ErrNotFound", err)
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	for version, want := range map[int]string{1: `{"version":1}`, 2: `{"version":2}`} {
		if got, err := s.Analysis(ctx, "t1", version); err != nil || string(got) != want {
			t.Errorf("version %d after reopening: %s, %v; want %s", version, got, err, want)
		}
	}
	if _, err := s.Analysis(ctx, "nosuch", 1); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a table that does not exist: %v, want ErrNotFound", err)
	}
}
