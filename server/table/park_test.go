package table

import (
	"context"
	"encoding/json"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"
	"weak"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/store"
)

// playing makes a game of guess between two guests, Ann and Ben, as req
// asks (two seats, "me" and "open", when it asks for none), with its
// setups given and one move made, and returns its id and the two seats'
// principals.
func (f *fixture) playing(ctx context.Context, req CreateRequest) (string, [2]*auth.Principal) {
	f.t.Helper()
	req.Game, req.Name = "guess", "Ann"
	if req.Seats == nil {
		req.Seats = []string{"me", "open"}
	}
	a, err := f.s.Create(ctx, nil, req)
	if err != nil {
		f.t.Fatal(err)
	}
	b, err := f.s.Join(ctx, nil, a.Table, JoinRequest{Name: "Ben"})
	if err != nil {
		f.t.Fatal(err)
	}
	ps := [2]*auth.Principal{f.principal(a.Token), f.principal(b.Token)}
	for i, p := range ps {
		if _, err := f.s.Setup(ctx, p, a.Table, SetupRequest{Setup: []byte(`{"number": ` + string(rune('3'+i)) + `}`)}); err != nil {
			f.t.Fatal(err)
		}
	}
	f.moveOnce(ctx, a.Table, ps)
	return a.Table, ps
}

// moveOnce makes a move at table id for the seat to move.
func (f *fixture) moveOnce(ctx context.Context, id string, ps [2]*auth.Principal) {
	f.t.Helper()
	u, err := f.s.View(ctx, ps[0], id)
	if err != nil {
		f.t.Fatal(err)
	}
	who := ps[0]
	if slices.Contains(u.Table.ToMove, 1) {
		who = ps[1]
		if u, err = f.s.View(ctx, who, id); err != nil {
			f.t.Fatal(err)
		}
	}
	if _, err := f.s.Move(ctx, who, id, MoveRequest{Move: bisect(f.t, u, 100)}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) parked(id string) bool {
	f.s.mu.RLock()
	defer f.s.mu.RUnlock()
	_, ok := f.s.parked[id]
	return ok
}

// parkingFixture is a fixture whose service parks games after park and
// lets finished tables go after idleEvict (0: the default).
func parkingFixture(t *testing.T, park, idleEvict time.Duration) *fixture {
	f := &fixture{t: t, dir: t.TempDir(), parkAfter: park, idleEvict: idleEvict}
	f.open()
	t.Cleanup(f.close)
	return f
}

// held returns table id's copy in memory, or nil.
func (f *fixture) held(id string) *table {
	f.s.mu.RLock()
	defer f.s.mu.RUnlock()
	return f.s.tables[id]
}

// seen returns when table id's seats were last seen, from memory.
func (f *fixture) seen(id string) []time.Time {
	t := f.held(id)
	if t == nil {
		f.t.Fatalf("table %s is not in memory", id)
	}
	t.mu.Lock()
	defer t.unlock()
	return t.here.seenAt()
}

// TestParkedGameComesBack: a game in play that nobody uses leaves memory
// by itself; meanwhile its players' lists and the lobby show it as
// before, and the first request brings it back as it was, presence and
// all, to play on; unused again, it leaves again.
func TestParkedGameComesBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := parkingFixture(t, 20*time.Millisecond, 0)
	id, ps := f.playing(ctx, CreateRequest{})
	// Ann was here just now; Ben an hour ago, as far as the table knows.
	tb := f.held(id)
	tb.mu.Lock()
	tb.here.seats[1].seen = tb.here.seats[1].seen.Add(-time.Hour)
	tb.unlock()
	viewBefore, err := f.s.View(ctx, ps[0], id) // Ann is seen here
	if err != nil {
		t.Fatal(err)
	}
	seen := f.seen(id)
	before := [2][]SeatedTable{f.s.SeatedAt(ps[0].Identity), f.s.SeatedAt(ps[1].Identity)}
	lobbyBefore, err := f.s.Lobby(ctx, store.Playing, 10)
	if err != nil {
		t.Fatal(err)
	}

	servertest.Eventually(t, 10*time.Second, "the game to leave memory", func() bool { return !f.inMemory(id) && f.parked(id) })
	if n := f.s.Parked(); n != 1 {
		t.Errorf("Parked = %d, want 1", n)
	}
	for i, p := range ps {
		if got := f.s.SeatedAt(p.Identity); !reflect.DeepEqual(got, before[i]) {
			t.Errorf("seat %d's games while parked:\n%+v\nwant as before:\n%+v", i, got, before[i])
		}
	}
	lobby, err := f.s.Lobby(ctx, store.Playing, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(lobby, lobbyBefore) {
		t.Errorf("the lobby while parked:\n%+v\nwant as before:\n%+v", lobby, lobbyBefore)
	}
	if f.inMemory(id) {
		t.Fatal("listing the game brought it back into memory")
	}

	view, err := f.s.View(ctx, ps[0], id)
	if err != nil {
		t.Fatal(err)
	}
	if !f.inMemory(id) || f.parked(id) || f.s.Parked() != 0 {
		t.Fatalf("after a view: in memory %v, parked %v (%d parked)", f.inMemory(id), f.parked(id), f.s.Parked())
	}
	// Ann asked again, and is seen at her request; the rest is as it was.
	for _, u := range []*Update{&view, &viewBefore} {
		u.Table.Seats[0].AbsentSince = nil
	}
	if got, want := mustJSON(t, view), mustJSON(t, viewBefore); got != want {
		t.Errorf("the view read back:\n%s\nwant as before:\n%s", got, want)
	}
	got := f.seen(id)
	if !got[1].Equal(seen[1]) || got[0].Before(seen[0]) {
		t.Errorf("seats last seen %v after coming back, want Ben's %v kept and Ann's at %v or later", got, seen[1], seen[0])
	}

	f.moveOnce(ctx, id, ps)
	after, err := f.s.View(ctx, ps[0], id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != view.Version+1 {
		t.Errorf("version %d after a move on the game read back, want %d", after.Version, view.Version+1)
	}
	servertest.Eventually(t, 10*time.Second, "the game to leave memory again", func() bool { return f.parked(id) })
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTablesThatStayInMemory: only a game in play that nobody follows,
// with no clock and no computer seat making a move, is parked, however
// long the janitor waits; a finished game leaves memory without a stub.
func TestTablesThatStayInMemory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		park time.Duration
		// make makes the table and returns its id and what to undo
		// at the end.
		make      func(f *fixture) (string, func())
		wantPark  bool
		wantStays bool
	}{
		{name: "in play, unused", make: func(f *fixture) (string, func()) {
			id, _ := f.playing(ctx, CreateRequest{})
			return id, func() {}
		}, wantPark: true},
		{name: "parking off", park: -1, make: func(f *fixture) (string, func()) {
			id, _ := f.playing(ctx, CreateRequest{})
			return id, func() {}
		}, wantStays: true},
		{name: "followed", make: func(f *fixture) (string, func()) {
			id, _ := f.playing(ctx, CreateRequest{})
			w, err := f.s.Watch(ctx, nil, id, -1)
			if err != nil {
				f.t.Fatal(err)
			}
			return id, w.Close
		}, wantStays: true},
		{name: "with a clock", make: func(f *fixture) (string, func()) {
			id, _ := f.playing(ctx, CreateRequest{Rules: map[string]json.RawMessage{"clock": json.RawMessage(`600`)}})
			return id, func() {}
		}, wantStays: true},
		{name: "a computer seat, the person to move", make: func(f *fixture) (string, func()) {
			id, _ := f.againstComputer(ctx)
			return id, func() {}
		}, wantPark: true},
		{name: "a computer seat making a move", park: time.Hour, make: func(f *fixture) (string, func()) {
			id, _ := f.againstComputer(ctx)
			tb, err := f.s.table(ctx, id)
			if err != nil {
				f.t.Fatal(err)
			}
			tb.mu.Lock()
			tb.computers()[1].busy = true
			tb.unlock()
			return id, func() {
				tb.mu.Lock()
				tb.bots[1].busy = false
				tb.unlock()
			}
		}, wantStays: true},
		{name: "waiting for a player", make: func(f *fixture) (string, func()) {
			a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
			if err != nil {
				f.t.Fatal(err)
			}
			return a.Table, func() {}
		}, wantStays: true},
		{name: "finished", make: func(f *fixture) (string, func()) {
			id, _ := f.soloPlayed(ctx)
			return id, func() {}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			park := tc.park
			if park == 0 {
				park = time.Millisecond
			}
			f := parkingFixture(t, park, time.Millisecond)
			id, undo := tc.make(f)
			defer undo()
			// The janitor's round a day on, whatever it has queued.
			f.s.evict(time.Now().Add(24 * time.Hour))
			if got := f.parked(id); got != tc.wantPark {
				t.Errorf("parked %v, want %v", got, tc.wantPark)
			}
			if got := f.inMemory(id); got != tc.wantStays {
				t.Errorf("in memory %v, want %v", got, tc.wantStays)
			}
		})
	}
}

// TestLookedUpTableIsNotParked: a table the service has just handed to a
// request is not parked under it, however long ago it was last played.
func TestLookedUpTableIsNotParked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := parkingFixture(t, time.Minute, 0)
	id, _ := f.playing(ctx, CreateRequest{})
	tb, err := f.s.table(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// Played last an hour ago, and queued to leave memory then.
	tb.mu.Lock()
	tb.lastUse = tb.lastUse.Add(-time.Hour)
	tb.looked.Store(0)
	stale := time.Since(tb.usedAt()) > f.s.cfg.ParkAfter
	tb.evictQueued = false
	f.s.noteIdle(tb)
	tb.unlock()
	if !stale {
		t.Fatal("a table last used an hour ago does not count as unused")
	}
	if _, err := f.s.table(ctx, id); err != nil {
		t.Fatal(err)
	}
	tb.mu.Lock()
	stale = time.Since(tb.usedAt()) > f.s.cfg.ParkAfter
	tb.unlock()
	if stale {
		t.Error("a table just looked up counts as unused")
	}
	f.s.evict(time.Now())
	if !f.inMemory(id) || f.parked(id) {
		t.Errorf("after the janitor's round: in memory %v, parked %v; want kept", f.inMemory(id), f.parked(id))
	}
}

// TestParkedTableIsCollected: nothing the service keeps holds a parked
// table, so that its memory is the collector's to free.
func TestParkedTableIsCollected(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := parkingFixture(t, 20*time.Millisecond, 0)
	id, _ := f.playing(ctx, CreateRequest{})
	tb := weak.Make(f.held(id))
	servertest.Eventually(t, 10*time.Second, "the game to leave memory", func() bool { return f.parked(id) })
	servertest.Eventually(t, 10*time.Second, "the parked table to be collected", func() bool {
		runtime.GC()
		return tb.Value() == nil
	})
}

// TestEndedGameLeavesAsFinished: a game queued to be parked an hour on
// that ends leaves memory as a finished table does, a moment after its
// last use, not when it would have been parked; and nothing, its first
// place in the janitor's queue included, holds it after.
func TestEndedGameLeavesAsFinished(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := parkingFixture(t, time.Hour, 10*time.Millisecond)
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}})
	if err != nil {
		t.Fatal(err)
	}
	tb := weak.Make(f.held(a.Table))
	p := f.principal(a.Token)
	u, _ := f.s.View(ctx, p, a.Table)
	for i := 0; i < 12 && u.Table.Status != store.Finished; i++ {
		if _, err := f.s.Move(ctx, p, a.Table, MoveRequest{Move: bisect(t, u, 100)}); err != nil {
			t.Fatal(err)
		}
		u, _ = f.s.View(ctx, p, a.Table)
	}
	if u.Table.Status != store.Finished {
		t.Fatalf("the game did not finish: %+v", u.Table)
	}
	servertest.Eventually(t, 10*time.Second, "the finished table to leave memory", func() bool { return !f.inMemory(a.Table) })
	if f.parked(a.Table) {
		t.Error("a finished table was parked")
	}
	servertest.Eventually(t, 10*time.Second, "the finished table to be collected", func() bool {
		runtime.GC()
		return tb.Value() == nil
	})
}

// againstComputer makes a game of guess between Ann and a computer, set
// up, and waits until it is Ann's turn with the computer idle; it
// returns the table's id and Ann's principal.
func (f *fixture) againstComputer(ctx context.Context) (string, *auth.Principal) {
	f.t.Helper()
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "computer"}, Name: "Ann"})
	if err != nil {
		f.t.Fatal(err)
	}
	p := f.principal(a.Token)
	if _, err := f.s.Setup(ctx, p, a.Table, SetupRequest{Setup: []byte(`{"number": 3}`)}); err != nil {
		f.t.Fatal(err)
	}
	servertest.Eventually(f.t, 10*time.Second, "Ann's turn, the computer idle", func() bool {
		u, err := f.s.View(ctx, p, a.Table)
		if err != nil || !slices.Equal(u.Table.ToMove, []game.Seat{0}) {
			return false
		}
		tb := f.held(a.Table)
		if tb == nil {
			return true // parked already
		}
		tb.mu.Lock()
		defer tb.unlock()
		return !tb.botWorking()
	})
	return a.Table, p
}

// TestParkedComputerGame: a game against the computer, parked on the
// person's turn, comes back with its computer seat, which answers the
// person's next move.
func TestParkedComputerGame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := parkingFixture(t, 20*time.Millisecond, 0)
	id, p := f.againstComputer(ctx)
	servertest.Eventually(t, 10*time.Second, "the game to leave memory", func() bool { return f.parked(id) })
	u, err := f.s.View(ctx, p, id)
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.s.Move(ctx, p, id, MoveRequest{Move: bisect(t, u, 100)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status == store.Finished {
		return
	}
	servertest.Eventually(t, 10*time.Second, "the computer's answer", func() bool {
		u, err := f.s.View(ctx, p, id)
		return err == nil && u.Version > res.Version
	})
}
