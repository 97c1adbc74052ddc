package analyses_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"parlour/analysis"
	"parlour/server/table"
	"parlour/store"
)

// TestGetRenamed: an account deleted after its game was analysed leaves
// no trace of its name in the analysis, as in the record, whether the
// analysis comes from memory or, after a restart, from the store, and
// the store files it under the new name.
func TestGetRenamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := newFixture(t, dir)
	ctx := context.Background()
	id := f.play("nymphabet", []string{"me", "computer:easy"}, nil, "apple")
	first, err := f.cache.Get(ctx, nil, id)
	if err != nil {
		t.Fatal(err)
	}
	row, err := f.db.Table(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Seats []struct{ Name, Identity string } `json:"seats"`
	}
	if err := json.Unmarshal(row.Meta, &m); err != nil || len(m.Seats) != 2 || m.Seats[0].Identity == "" {
		t.Fatalf("the table's seats: %s (%v)", row.Meta, err)
	}
	old, who := m.Seats[0].Name, m.Seats[0].Identity
	if !bytes.Contains(first, []byte(old)) {
		t.Fatalf("the analysis does not name %q: %s", old, first)
	}
	if _, err := f.db.CreateAccount(ctx, store.Account{Identity: who, Name: "Zelda", Key: "zelda", Hash: "x", Created: time.Now()}, store.Credential{Hash: []byte("h"), Identity: who}, nil); err != nil {
		t.Fatal(err)
	}
	u, err := table.RenameSeat(id, row.Meta, who, "deleted player")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.DeleteAccount(ctx, who, "deleted player", []store.TableUpdate{u}); err != nil {
		t.Fatal(err)
	}
	f.tables.Forget(id)
	check := func(when string) {
		t.Helper()
		body, err := f.cache.Get(ctx, nil, id)
		if err != nil {
			t.Fatal(err)
		}
		var a struct{ Players []string }
		if err := json.Unmarshal(body, &a); err != nil || len(a.Players) != 2 || a.Players[0] != "deleted player" || bytes.Contains(body, []byte(old)) {
			t.Errorf("%s: the analysis names %v (%v), and %q is in it: %v", when, a.Players, err, old, bytes.Contains(body, []byte(old)))
		}
	}
	check("from memory")
	if body, err := f.db.Analysis(ctx, id, analysis.Version); err != nil || bytes.Contains(body, []byte(old)) {
		t.Errorf("the store's copy of the analysis: %v, names %q: %v", err, old, bytes.Contains(body, []byte(old)))
	}
	f.close()
	f = newFixture(t, dir)
	check("from the store, after a restart")
	if n := f.computed(); n != 0 {
		t.Errorf("after the restart the analysis was computed %v times, want 0", n)
	}
}
