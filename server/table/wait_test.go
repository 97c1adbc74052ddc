package table

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/store"
)

// TestWaitEndsWhenCancelled: a setup asked with "wait" at a paired table
// ends as soon as the other player leaves and the table is cancelled,
// with the 410 that says why, rather than wait out the server's longest
// wait and answer that play still waits for the player who left.
func TestWaitEndsWhenCancelled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	for _, id := range []string{"ann-id", "ben-id"} {
		if err := f.db.CreateIdentity(ctx, store.Identity{ID: id, Name: id[:3], Created: time.Now()}, store.Credential{Hash: []byte(id), Identity: id}); err != nil {
			t.Fatal(err)
		}
	}
	seated, err := f.s.Pair(ctx, Pairing{Game: servertest.Guess{}, Rules: servertest.Config(100).Rules, Asker: "ann-id",
		Seats: []PairedSeat{{Identity: "ann-id", Name: "Ann"}, {Identity: "ben-id", Name: "Ben"}}})
	if err != nil {
		t.Fatal(err)
	}
	pa := f.principal(seated.Token)
	pb := &auth.Principal{Identity: "ben-id"} // as Ben's session stands for him

	type answer struct {
		res SetupResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := f.s.Setup(ctx, pa, seated.Table, SetupRequest{Auto: true, Wait: true})
		done <- answer{res, err}
	}()
	// Ben leaves once Ann's setup is in and she waits.
	tb, err := f.s.table(ctx, seated.Table)
	if err != nil {
		t.Fatal(err)
	}
	servertest.Eventually(t, 10*time.Second, "Ann's setup to wait", func() bool {
		tb.mu.Lock()
		defer tb.unlock()
		return tb.watchers > 0
	})
	if left, err := f.s.Leave(ctx, pb, seated.Table); err != nil || !left.Cancelled {
		t.Fatalf("Ben leaves: %+v, %v", left, err)
	}
	a := <-done
	if refuse.Status(a.err) != http.StatusGone || !strings.Contains(a.err.Error(), "Ben left before the game began") {
		t.Fatalf("Ann's wait after Ben left: %+v, %v; want 410 saying Ben left", a.res, a.err)
	}
}

// TestWaitHearsTheAbort: a move asked with "wait" whose game is then
// aborted (the other player asks, or runs out of time before their first
// move) answers with the "abort" event that says who ended it and why,
// as the move that aborted it was answered, not only that it is over.
func TestWaitHearsTheAbort(t *testing.T) {
	t.Parallel()
	for _, why := range []string{AbortAsked, AbortTimeout} {
		t.Run(why, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			clock := &handClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
			f := &fixture{t: t, dir: t.TempDir(), clock: clock}
			f.open()
			t.Cleanup(f.close)
			a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann",
				Rules: map[string]json.RawMessage{"clock": json.RawMessage("60")}})
			if err != nil {
				t.Fatal(err)
			}
			b, err := f.s.Join(ctx, nil, a.Table, JoinRequest{Name: "Ben"})
			if err != nil {
				t.Fatal(err)
			}
			pa, pb := f.principal(a.Token), f.principal(b.Token)
			for _, p := range []*auth.Principal{pa, pb} {
				if _, err := f.s.Setup(ctx, p, a.Table, SetupRequest{Setup: json.RawMessage(`{"number": 50}`)}); err != nil {
					t.Fatal(err)
				}
			}
			type answer struct {
				res MoveResult
				err error
			}
			done := make(chan answer, 1)
			go func() {
				res, err := f.s.Move(ctx, pa, a.Table, MoveRequest{Move: "guess 1", Wait: true})
				done <- answer{res, err}
			}()
			tb, err := f.s.table(ctx, a.Table)
			if err != nil {
				t.Fatal(err)
			}
			servertest.Eventually(t, 10*time.Second, "Ann's move to wait", func() bool {
				tb.mu.Lock()
				defer tb.unlock()
				return tb.watchers > 0
			})
			switch why {
			case AbortAsked:
				if _, err := f.s.Abort(ctx, pb, a.Table); err != nil {
					t.Fatal(err)
				}
			case AbortTimeout:
				clock.Advance(time.Minute)
			}
			got := <-done
			if got.err != nil || got.res.Status != store.Finished || got.res.TimedOut {
				t.Fatalf("Ann's wait: %+v, %v", got.res, got.err)
			}
			last := got.res.Events[len(got.res.Events)-1]
			if d, ok := last.Data.(AbortEvent); last.Kind != "abort" || !ok || d.Seat != 1 || d.Why != why || !strings.Contains(last.Text, "Ben") {
				t.Fatalf("Ann's wait ended with events %+v, want Ben's abort (%s) last", got.res.Events, why)
			}
		})
	}
}
