package table

import (
	"context"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/store"
)

func TestFinishedTablesLeaveMemory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// The janitor must not get there first: this test says when it is.
	f := &fixture{t: t, dir: t.TempDir(), idleEvict: time.Hour}
	f.open()
	t.Cleanup(f.close)
	play := func() (string, *auth.Principal) { return f.soloPlayed(ctx) }
	done, pd := play()
	watched, pw := play()
	w, err := f.s.Watch(ctx, pw, watched, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	live, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	inMemory := func(id string) bool {
		f.s.mu.RLock()
		defer f.s.mu.RUnlock()
		_, ok := f.s.tables[id]
		return ok
	}

	f.s.evict(time.Now()) // too soon: the players may still look
	if !inMemory(done) {
		t.Fatal("a table that has just finished left memory")
	}
	f.s.evict(time.Now().Add(f.s.cfg.IdleEvict + time.Second))
	for id, want := range map[string]bool{done: false, watched: true, live.Table: true} {
		if got := inMemory(id); got != want {
			t.Errorf("table %s in memory = %v, want %v", id, got, want)
		}
	}
	// An evicted table is read back from the store, whole.
	u, err := f.s.View(ctx, pd, done)
	if err != nil || u.Table.Status != store.Finished || len(u.Table.Reveal) != 1 {
		t.Fatalf("evicted table read back: %+v, %v", u.Table, err)
	}
	// Read back, it leaves memory again once idle; the watched table
	// leaves once its last watcher has gone.
	w.Close()
	f.s.evict(time.Now().Add(f.s.cfg.IdleEvict + time.Second))
	for id, want := range map[string]bool{done: false, watched: false, live.Table: true} {
		if got := inMemory(id); got != want {
			t.Errorf("after the watcher left: table %s in memory = %v, want %v", id, got, want)
		}
	}
}

// soloPlayed plays a game of guess alone to its end at a new table, and
// returns the table and its player.
func (f *fixture) soloPlayed(ctx context.Context) (string, *auth.Principal) {
	f.t.Helper()
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}})
	if err != nil {
		f.t.Fatal(err)
	}
	pa := f.principal(a.Token)
	u, _ := f.s.View(ctx, pa, a.Table)
	for i := 0; i < 12 && u.Table.Status != store.Finished; i++ {
		if _, err := f.s.Move(ctx, pa, a.Table, MoveRequest{Move: bisect(f.t, u, 100)}); err != nil {
			f.t.Fatal(err)
		}
		u, _ = f.s.View(ctx, pa, a.Table)
	}
	if u.Table.Status != store.Finished {
		f.t.Fatalf("the game did not finish: %+v", u.Table)
	}
	return a.Table, pa
}
