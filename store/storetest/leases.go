package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"parlour/store"
)

// leaseTests are about store.Leases and the writes it fences; a store
// without leases (one node) skips them.
func leaseTests() []test {
	return []test{
		{"Leases", testLeases},
		{"RenewLeases", testRenewLeases},
		{"FencedWrites", testFencedWrites},
		{"TakeoverFencesInFlight", testTakeoverFencesInFlight},
		{"ExpiredLeases", testExpiredLeases},
		{"FencedTournamentWrites", testFencedTournamentWrites},
	}
}

// testFencedTournamentWrites: an event's write fenced with its lease's
// epoch is made while the lease has it; once another node takes the
// lease, the old epoch's write is refused whole and the new one's made.
func testFencedTournamentWrites(t *testing.T, e *env) {
	ctx := context.Background()
	ls := as[store.Leases](t, e.s)
	ts := as[store.Tournaments](t, e.s)
	at := now()
	ev := store.Tournament{ID: "ev", Kind: "arena", Name: "Fenced", Game: "salvo", Minutes: 10, Seats: 2, Status: store.TournamentCreated, Starts: at, Created: at}
	a, err := ls.AcquireLease(ctx, store.TournamentLease+"ev", "node-a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := ts.WriteTournament(ctx, "ev", store.TournamentWrite{Event: &ev, Create: true, Epoch: a.Epoch}); err != nil {
		t.Fatalf("node a's write: %v", err)
	}
	b, err := ls.TakeLease(ctx, a, "node-b", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	late := store.TournamentWrite{Entrants: []store.Entrant{{Identity: "x", Name: "X", Joined: at}}, Epoch: a.Epoch}
	if err := ts.WriteTournament(ctx, "ev", late); !errors.Is(err, store.ErrFenced) {
		t.Fatalf("node a's late write: %v, want ErrFenced", err)
	}
	got, err := ts.Tournament(ctx, "ev")
	if err != nil || len(got.Entrants) != 0 {
		t.Fatalf("after a fenced write: %d players, %v", len(got.Entrants), err)
	}
	late.Epoch = b.Epoch
	if err := ts.WriteTournament(ctx, "ev", late); err != nil {
		t.Fatalf("node b's write: %v", err)
	}
}

// testRenewLeases: a node's leases are renewed at once, those taken
// over left out (fenced), an expired one nobody took renewed, and a
// lease named with another owner's name not renewed; many at once are
// renewed whole, and none is a no-op.
func testRenewLeases(t *testing.T, e *env) {
	ctx := context.Background()
	ls := as[store.Leases](t, e.s)
	var mine []store.Lease
	for i := range 5 {
		l, err := ls.AcquireLease(ctx, fmt.Sprintf("r%d", i), "node-a", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		mine = append(mine, l)
	}
	short, err := ls.AcquireLease(ctx, "r-short", "node-a", 30*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	mine = append(mine, short)
	time.Sleep(100 * time.Millisecond) // r-short expires; nobody takes it
	// r1 is released and taken by node-b; r3 taken over before it expires.
	if err := ls.ReleaseLease(ctx, mine[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := ls.AcquireLease(ctx, "r1", "node-b", time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := ls.TakeLease(ctx, mine[3], "node-c", time.Minute); err != nil {
		t.Fatal(err)
	}
	forged := store.Lease{Table: "r4", Owner: "node-b", Epoch: mine[4].Epoch}
	renewed, err := ls.RenewLeases(ctx, append(mine, forged), 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]store.Lease{}
	for _, l := range renewed {
		got[l.Table] = l
	}
	for _, want := range []store.Lease{mine[0], mine[2], mine[4], short} {
		l, ok := got[want.Table]
		if !ok || l.Epoch != want.Epoch || l.Owner != "node-a" || time.Until(l.Expires) < 110*time.Second {
			t.Errorf("lease of %s after the renewal: %+v (renewed: %v); want epoch %d, node-a's, for two minutes", want.Table, l, ok, want.Epoch)
		}
		if cur, err := ls.Lease(ctx, want.Table); err != nil || !cur.Expires.Equal(l.Expires) {
			t.Errorf("the stored lease of %s: %+v, %v; the renewal said %v", want.Table, cur, err, l.Expires)
		}
	}
	if len(renewed) != 4 {
		t.Errorf("renewed %d leases, want 4 (r1 and r3 taken over, r4 named with node-b's name): %+v", len(renewed), renewed)
	}
	for _, id := range []string{"r1", "r3"} {
		if cur, _ := ls.Lease(ctx, id); cur.Owner == "node-a" {
			t.Errorf("%s, taken over, is node-a's again: %+v", id, cur)
		}
	}
	if out, err := ls.RenewLeases(ctx, nil, time.Minute); err != nil || len(out) != 0 {
		t.Errorf("renewing no lease: %+v, %v", out, err)
	}
	if _, err := ls.RenewLeases(ctx, mine[:1], 0); err == nil {
		t.Error("leases renewed for no time")
	}
	// Many at once, beyond what one statement renews.
	var many []store.Lease
	for i := range 2500 {
		l, err := ls.AcquireLease(ctx, fmt.Sprintf("m%04d", i), "node-m", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		many = append(many, l)
	}
	if out, err := ls.RenewLeases(ctx, many, time.Minute); err != nil || len(out) != len(many) {
		t.Errorf("renewing %d leases: %d renewed, %v", len(many), len(out), err)
	}
}

// testExpiredLeases: the expired leases of live tables are listed, the
// longest expired first; those that hold, and those of finished or
// cancelled tables, are not; a lease taken over leaves the list.
func testExpiredLeases(t *testing.T, e *env) {
	ctx := context.Background()
	ls := as[store.Leases](t, e.s)
	at := now()
	for _, id := range []string{"gone1", "gone2", "held", "done", "given-up"} {
		if err := e.s.CreateTable(ctx, store.Table{ID: id, Game: "quizl", Status: store.Playing, Created: at, Updated: at, Meta: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ls.AcquireLease(ctx, "gone1", "node-a", 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := ls.AcquireLease(ctx, "gone2", "node-a", 40*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := ls.AcquireLease(ctx, "done", "node-a", 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := ls.AcquireLease(ctx, "given-up", "node-a", 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := ls.AcquireLease(ctx, "held", "node-b", time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := e.s.UpdateTable(ctx, "done", store.Finished, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := e.s.UpdateTable(ctx, "given-up", store.Cancelled, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	list, err := ls.ExpiredLeases(ctx, 10)
	if err != nil || len(list) != 2 || list[0].Table != "gone1" || list[1].Table != "gone2" || list[0].Owner != "node-a" {
		t.Fatalf("ExpiredLeases = %+v, %v; want gone1 and gone2", list, err)
	}
	if list, err := ls.ExpiredLeases(ctx, 1); err != nil || len(list) != 1 || list[0].Table != "gone1" {
		t.Fatalf("ExpiredLeases(1) = %+v, %v", list, err)
	}
	if _, err := ls.AcquireLease(ctx, "gone1", "node-c", time.Minute); err != nil {
		t.Fatal(err)
	}
	if list, err := ls.ExpiredLeases(ctx, 10); err != nil || len(list) != 1 || list[0].Table != "gone2" {
		t.Fatalf("ExpiredLeases after a takeover = %+v, %v", list, err)
	}
}

// testLeases: a lease is taken, held against another owner, renewed,
// released and taken over with a higher epoch; one that expires is taken
// over without a release.
func testLeases(t *testing.T, e *env) {
	ctx := context.Background()
	ls := as[store.Leases](t, e.s)
	if _, err := ls.Lease(ctx, "t1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the lease of a table never leased: %v, want ErrNotFound", err)
	}
	a, err := ls.AcquireLease(ctx, "t1", "node-a", time.Minute)
	if err != nil || a.Epoch < 1 || a.Owner != "node-a" || a.Table != "t1" || time.Until(a.Expires) < 50*time.Second {
		t.Fatalf("the first lease: %+v, %v", a, err)
	}
	other, err := ls.AcquireLease(ctx, "t1", "node-b", time.Minute)
	if !errors.Is(err, store.ErrLeased) || other.Owner != "node-a" || other.Epoch != a.Epoch {
		t.Fatalf("another node taking a held lease: %+v, %v; want ErrLeased with node-a's lease", other, err)
	}
	again, err := ls.AcquireLease(ctx, "t1", "node-a", time.Minute)
	if err != nil || again.Epoch != a.Epoch {
		t.Fatalf("the owner taking its lease again: %+v, %v; want epoch %d", again, err, a.Epoch)
	}
	r, err := ls.RenewLease(ctx, a, 2*time.Minute)
	if err != nil || r.Epoch != a.Epoch || !r.Expires.After(a.Expires) {
		t.Fatalf("a renewal: %+v, %v", r, err)
	}
	if _, err := ls.AcquireLease(ctx, "t1", "node-a", 0); err == nil {
		t.Errorf("a lease for no time was taken")
	}
	if err := ls.ReleaseLease(ctx, a); err != nil {
		t.Fatal(err)
	}
	b, err := ls.AcquireLease(ctx, "t1", "node-b", time.Minute)
	if err != nil || b.Epoch <= a.Epoch || b.Owner != "node-b" {
		t.Fatalf("taking a released lease: %+v, %v; want an epoch above %d", b, err, a.Epoch)
	}
	if _, err := ls.RenewLease(ctx, a, time.Minute); !errors.Is(err, store.ErrFenced) {
		t.Errorf("renewing a lease taken over: %v, want ErrFenced", err)
	}
	if err := ls.ReleaseLease(ctx, a); !errors.Is(err, store.ErrFenced) {
		t.Errorf("releasing a lease taken over: %v, want ErrFenced", err)
	}
	if cur, err := ls.Lease(ctx, "t1"); err != nil || cur.Owner != "node-b" || cur.Epoch != b.Epoch {
		t.Errorf("the current lease: %+v, %v", cur, err)
	}
	// A node that knows b's owner is gone takes the lease over before it
	// expires, with a new epoch; b's owner is fenced, and a second taker
	// working from b's lease is refused with the lease now held.
	took, err := ls.TakeLease(ctx, b, "node-c", time.Minute)
	if err != nil || took.Owner != "node-c" || took.Epoch <= b.Epoch {
		t.Fatalf("taking over a held lease from its gone owner: %+v, %v", took, err)
	}
	if _, err := ls.RenewLease(ctx, b, time.Minute); !errors.Is(err, store.ErrFenced) {
		t.Errorf("renewing a lease taken over before it expired: %v, want ErrFenced", err)
	}
	if cur, err := ls.TakeLease(ctx, b, "node-d", time.Minute); !errors.Is(err, store.ErrLeased) || cur.Owner != "node-c" || cur.Epoch != took.Epoch {
		t.Errorf("a second take from the same lease: %+v, %v; want ErrLeased with node-c's", cur, err)
	}
	if _, err := ls.TakeLease(ctx, took, "node-d", 0); err == nil {
		t.Errorf("a lease for no time was taken over")
	}
	// A lease that runs out is taken over without being released; its
	// owner can renew it only until then.
	short, err := ls.AcquireLease(ctx, "t2", "node-a", 30*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if short, err = ls.RenewLease(ctx, short, 30*time.Millisecond); err != nil {
		t.Fatalf("renewing an expired lease nobody took: %v", err)
	}
	time.Sleep(100 * time.Millisecond)
	c, err := ls.AcquireLease(ctx, "t2", "node-c", time.Minute)
	if err != nil || c.Epoch <= short.Epoch {
		t.Fatalf("taking an expired lease: %+v, %v", c, err)
	}
	if _, err := ls.RenewLease(ctx, short, time.Minute); !errors.Is(err, store.ErrFenced) {
		t.Errorf("renewing an expired lease taken over: %v, want ErrFenced", err)
	}
	ls = as[store.Leases](t, e.reopen())
	if cur, err := ls.Lease(ctx, "t2"); err != nil || cur.Owner != "node-c" || cur.Epoch != c.Epoch {
		t.Errorf("the lease after a restart: %+v, %v", cur, err)
	}
}

// testFencedWrites: moves and table updates fenced with an old epoch are
// refused with ErrFenced and change nothing; with the current epoch, or
// none, they are stored.
func testFencedWrites(t *testing.T, e *env) {
	ctx := context.Background()
	ls := as[store.Leases](t, e.s)
	at := now()
	for _, id := range []string{"t1", "t2"} {
		if err := e.s.CreateTable(ctx, store.Table{ID: id, Game: "quizl", Status: store.Playing, Created: at, Updated: at, Meta: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	old, err := ls.AcquireLease(ctx, "t1", "node-a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.s.AppendMove(ctx, "t1", store.Move{Seq: 1, Text: "a1", At: at, Epoch: old.Epoch}, nil); err != nil {
		t.Fatalf("a move of the owner: %v", err)
	}
	if err := ls.ReleaseLease(ctx, old); err != nil {
		t.Fatal(err)
	}
	cur, err := ls.AcquireLease(ctx, "t1", "node-b", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		name  string
		write func(epoch int64) error
	}{
		{"a move", func(epoch int64) error {
			return e.s.AppendMove(ctx, "t1", store.Move{Seq: 2, Text: fmt.Sprint("m", epoch), At: at, Epoch: epoch}, nil)
		}},
		{"a move with an update", func(epoch int64) error {
			return e.s.AppendMove(ctx, "t1", store.Move{Seq: 3, Text: fmt.Sprint("u", epoch), At: at, Epoch: epoch},
				&store.Update{Status: store.Playing, Meta: []byte(fmt.Sprintf(`{"by":%d}`, epoch))})
		}},
		{"a table update", func(epoch int64) error {
			return e.s.Write(ctx, store.Batch{Update: &store.TableUpdate{ID: "t1", Status: store.Setup, Meta: []byte(fmt.Sprintf(`{"update":%d}`, epoch)), Epoch: epoch}})
		}},
	} {
		before, err := e.s.Table(ctx, "t1")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.write(old.Epoch); !errors.Is(err, store.ErrFenced) {
			t.Errorf("%s with the old epoch: %v, want ErrFenced", w.name, err)
		}
		if tb, err := e.s.Table(ctx, "t1"); err != nil || len(tb.Moves) != len(before.Moves) || tb.Status != before.Status || string(tb.Meta) != string(before.Meta) {
			t.Errorf("%s with the old epoch changed the table: %+v, %v; was %+v", w.name, tb, err, before)
		}
		if err := w.write(cur.Epoch); err != nil {
			t.Errorf("%s with the current epoch: %v", w.name, err)
		}
	}
	tb, err := e.s.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range tb.Moves {
		texts = append(texts, m.Text)
		if m.Epoch != 0 {
			t.Errorf("a move read back with epoch %d", m.Epoch)
		}
	}
	if want := []string{"a1", fmt.Sprint("m", cur.Epoch), fmt.Sprint("u", cur.Epoch)}; !equal(texts, want) {
		t.Errorf("t1's moves %q, want %q", texts, want)
	}
	if want := fmt.Sprintf(`{"update":%d}`, cur.Epoch); string(tb.Meta) != want || tb.Status != store.Setup {
		t.Errorf("t1 is %s %s, want setup %s", tb.Status, tb.Meta, want)
	}
	// A fenced write of a table never leased is refused; an unfenced
	// one is made.
	if err := e.s.AppendMove(ctx, "t2", store.Move{Seq: 1, Text: "x", At: at, Epoch: 1}, nil); !errors.Is(err, store.ErrFenced) {
		t.Errorf("a fenced move of a table without a lease: %v, want ErrFenced", err)
	}
	if err := e.s.AppendMove(ctx, "t2", store.Move{Seq: 1, Text: "free", At: at}, nil); err != nil {
		t.Errorf("an unfenced move: %v", err)
	}
	// A fenced duplicate is still a conflict, not a fence.
	if err := e.s.AppendMove(ctx, "t1", store.Move{Seq: 1, Text: "again", At: at, Epoch: cur.Epoch}, nil); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a duplicate of the owner: %v, want ErrConflict", err)
	}
}

// testTakeoverFencesInFlight: an owner appends moves as fast as it can
// while another node takes its expired lease over and reads the table.
// Every move the old owner was told is stored is in what the new owner
// read, and nothing of the old owner's is stored after that read: no
// acknowledged move is lost to the new owner, and none lands behind its
// back.
func testTakeoverFencesInFlight(t *testing.T, e *env) {
	ctx := context.Background()
	ls := as[store.Leases](t, e.s)
	at := now()
	if err := e.s.CreateTable(ctx, store.Table{ID: "t1", Game: "quizl", Status: store.Playing, Created: at, Updated: at, Meta: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	old, err := ls.AcquireLease(ctx, "t1", "node-a", 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		acked int // the old owner's moves acknowledged, numbered 1..acked
		last  error
	)
	var wg sync.WaitGroup
	wg.Go(func() {
		for seq := 1; ; seq++ {
			err := e.s.AppendMove(ctx, "t1", store.Move{Seq: seq, Text: fmt.Sprint("old", seq), At: now(), Epoch: old.Epoch}, nil)
			mu.Lock()
			if err != nil {
				last = err
				mu.Unlock()
				return
			}
			acked = seq
			mu.Unlock()
		}
	})
	// Let the lease run out while the old owner writes on.
	time.Sleep(150 * time.Millisecond)
	cur, err := ls.AcquireLease(ctx, "t1", "node-b", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	seen, err := e.s.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if !errors.Is(last, store.ErrFenced) {
		t.Fatalf("the old owner stopped with %v, want ErrFenced", last)
	}
	if acked == 0 {
		t.Fatalf("the old owner stored nothing before the takeover")
	}
	if len(seen.Moves) != acked {
		t.Errorf("the new owner (epoch %d) read %d moves, but the old one was told %d were stored", cur.Epoch, len(seen.Moves), acked)
	}
	after, err := e.s.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Moves) != len(seen.Moves) {
		t.Errorf("%d moves of the old owner landed after the takeover", len(after.Moves)-len(seen.Moves))
	}
	if err := e.s.AppendMove(ctx, "t1", store.Move{Seq: len(seen.Moves) + 1, Text: "new", At: now(), Epoch: cur.Epoch}, nil); err != nil {
		t.Errorf("the new owner's next move: %v", err)
	}
	t.Logf("the old owner stored %d moves before the takeover", acked)
}
