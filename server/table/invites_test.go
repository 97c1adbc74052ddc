package table

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"parlour/games"
	"parlour/server/refuse"
	"parlour/store"
	"parlour/store/sqlite"
)

// takenStore says the first codes it is given are taken, as a store full
// of tables would.
type takenStore struct {
	*sqlite.Store
	taken int
	tried []string
}

func (s *takenStore) Write(ctx context.Context, b store.Batch) error {
	if b.Code != "" {
		s.tried = append(s.tried, b.Code)
		if len(s.tried) <= s.taken {
			return fmt.Errorf("code %s: %w", b.Code, store.ErrCodeTaken)
		}
	}
	return s.Store.Write(ctx, b)
}

// TestInviteCodeRetried: a code the store says is taken is replaced by a
// fresh one, and the table is made; a store that refuses every code
// leaves no table and says so.
func TestInviteCodeRetried(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ts := &takenStore{Store: db, taken: 2}
	s, err := New(ctx, Config{Store: ts, Games: games.Registry(), BaseURL: "http://test"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := CreateRequest{Game: "nymphabet", Seats: []string{"me", "open"}}
	sa, err := s.Create(ctx, nil, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.tried) != 3 || sa.Code != ts.tried[2] || ts.tried[0] == ts.tried[1] {
		t.Fatalf("tried %v, the table has %q", ts.tried, sa.Code)
	}
	if id, err := db.TableByCode(ctx, sa.Code); err != nil || id != sa.Table {
		t.Fatalf("the stored code leads to %q, %v", id, err)
	}
	ts.taken, ts.tried = 1000, nil
	if _, err := s.Create(ctx, nil, req); refuse.Status(err) != 503 || len(ts.tried) != maxCodeTries {
		t.Fatalf("every code taken: %v after %d tries", err, len(ts.tried))
	}
}
