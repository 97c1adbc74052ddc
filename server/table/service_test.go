package table

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
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

// TestRulesShared: tables given the same options share one resolved map;
// other options, a stored table's and a refused set get their own answer,
// however the options' names are spelled.
func TestRulesShared(t *testing.T) {
	t.Parallel()
	s := newFixture(t).s
	g := servertest.Guess{}
	raw := func(kv ...string) map[string]json.RawMessage {
		m := map[string]json.RawMessage{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = json.RawMessage(kv[i+1])
		}
		return m
	}
	a, err := s.rules(g, raw("max", "50"), false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		raw    map[string]json.RawMessage
		stored bool
		same   bool   // the map a was given
		max    int    // else what it holds
		err    string // or the refusal
	}{
		{"the same options", raw("max", "50"), false, true, 50, ""},
		{"the same, read back", raw("max", "50"), true, false, 50, ""},
		{"another value", raw("max", "60"), false, false, 60, ""},
		{"another option too", raw("max", "50", "set_target", "3"), false, false, 50, ""},
		{"a name spelled to read as two options", raw(`max"2:50"set_target`, "3"), false, false, 0, "unknown rule option"},
		{"out of range", raw("max", "5"), false, false, 0, "max"},
	} {
		r, err := s.rules(g, tc.raw, tc.stored)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, %v; want an error naming %q", tc.name, r, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if same := reflect.ValueOf(r).UnsafePointer() == reflect.ValueOf(a).UnsafePointer(); same != tc.same || r.Int("max") != tc.max {
			t.Errorf("%s: max %d, the first table's map %v; want %d, %v", tc.name, r.Int("max"), same, tc.max, tc.same)
		}
	}
}
