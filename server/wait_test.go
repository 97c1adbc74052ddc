package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

// TestWaitAgainstComputers plays a whole game against two computer seats
// with one request per turn: the setup answers once play has started and
// it is our turn, and every move answers once it is our turn again or the
// game is over, with our move's events and the computers' replies as we
// may see them (their guesses, not the answers only they may see).
func TestWaitAgainstComputers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	a, err := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "computer:strong", "computer:easy"}, Rules: map[string]json.RawMessage{"max": json.RawMessage("100")}})
	if err != nil {
		t.Fatal(err)
	}
	pa := f.principal(a.Token)
	sr, err := f.s.Setup(ctx, pa, a.Table, table.SetupRequest{Auto: true, Wait: true})
	if err != nil {
		t.Fatal(err)
	}
	if !sr.Started || sr.Status != store.Playing || !slices.Equal(sr.ToMove, []game.Seat{0}) || sr.TimedOut || sr.Waiting != "" {
		t.Fatalf("setup with wait answered %+v, want play started and our turn", sr)
	}
	lo, hi := 1, 100
	version := sr.Version
	for turn := 0; ; turn++ {
		if turn > 10 {
			t.Fatal("no end after 10 turns")
		}
		n := (lo + hi) / 2
		res, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: fmt.Sprintf("guess %d", n), Version: &version, Wait: true})
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, e := range res.Events {
			kinds = append(kinds, e.Kind)
			if e.Kind == "answer" {
				if !e.Visible(0) || e.To[0] != 0 {
					t.Fatalf("an answer meant for %v reached seat 0: %+v", e.To, e)
				}
				switch e.Data.(map[string]any)["answer"] {
				case "higher":
					lo = n + 1
				case "lower":
					hi = n - 1
				}
			}
		}
		if res.TimedOut {
			t.Fatalf("turn %d timed out: %+v", turn, res)
		}
		if res.Status == store.Finished {
			if len(kinds) < 2 || kinds[0] != "guess" || kinds[len(kinds)-1] != "end" {
				t.Errorf("last answer's events %v", kinds)
			}
			break
		}
		// Our guess and its answer, then each computer's guess: public,
		// their answers withheld.
		if want := []string{"guess", "answer", "guess", "guess"}; !slices.Equal(kinds, want) {
			t.Fatalf("turn %d: events %v, want %v", turn, kinds, want)
		}
		if !slices.Equal(res.ToMove, []game.Seat{0}) || res.Version != version+3 {
			t.Fatalf("turn %d: answered at version %d (moved at %d), to move %v", turn, res.Version, version, res.ToMove)
		}
		version = res.Version
	}
}

// TestWaitTimesOut: past the server's longest wait, a wait answers with
// what there is and says so, and what play waits for; a setup without
// wait says whether play started.
func TestWaitTimesOut(t *testing.T) {
	// Not parallel, and the server's longest wait four seconds: a wait
	// whose request ends after 20 ms must be told from one that waits it
	// out, on a machine busy with other tests.
	ctx := context.Background()
	const maxWait = 4 * time.Second
	f := &fixture{t: t, dir: t.TempDir(), maxWait: maxWait}
	f.open()
	t.Cleanup(f.close)
	a, err := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	pa := f.principal(a.Token)
	sr, err := f.s.Setup(ctx, pa, a.Table, table.SetupRequest{Setup: setupOf(5), Wait: true})
	if err != nil {
		t.Fatal(err)
	}
	if sr.Started || !sr.TimedOut || sr.Status != store.Open || !strings.Contains(sr.Waiting, "waiting for players to join") {
		t.Fatalf("setup with wait at a table with an open seat: %+v", sr)
	}
	b, err := f.s.Join(ctx, nil, a.Table, table.JoinRequest{Name: "Ben"})
	if err != nil {
		t.Fatal(err)
	}
	pb := f.principal(b.Token)
	sr, err = f.s.Setup(ctx, pa, a.Table, table.SetupRequest{Setup: setupOf(6), Wait: true})
	if err != nil {
		t.Fatal(err)
	}
	if sr.Started || !sr.TimedOut || sr.Status != store.Setup || sr.Waiting != "waiting for the setups of Ben" {
		t.Fatalf("setup with wait, the other setup missing: %+v", sr)
	}
	sr, err = f.s.Setup(ctx, pb, a.Table, table.SetupRequest{Setup: setupOf(7)})
	if err != nil {
		t.Fatal(err)
	}
	if !sr.Started || sr.Status != store.Playing || !slices.Equal(sr.ToMove, []game.Seat{0}) || sr.TimedOut {
		t.Fatalf("the last setup, without wait: %+v, want play started", sr)
	}
	res, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: "guess 1", Wait: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.Status != store.Playing || !slices.Equal(res.ToMove, []game.Seat{1}) || len(res.Events) != 2 {
		t.Fatalf("a move with wait that Ben never answers: %+v", res)
	}
	// A request that ends stops the wait; the move stands.
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err = f.s.Move(cctx, pb, a.Table, table.MoveRequest{Move: "guess 1", Wait: true})
	if err != nil || !res.TimedOut || !slices.Equal(res.ToMove, []game.Seat{0}) || time.Since(start) > maxWait/2 {
		t.Fatalf("a wait whose request ended after 20 ms: %+v, %v after %v (the server's longest wait: %v)", res, err, time.Since(start), maxWait)
	}
	if _, err := f.s.Move(ctx, pb, a.Table, table.MoveRequest{Move: "guess 2", Wait: true}); refuse.Status(err) != http.StatusConflict {
		t.Fatalf("a move out of turn with wait: %v", err)
	}
}

// TestWaitingForYourSetup: a move before play starts is refused with what
// play waits for, in the mover's words: their own setup as "yours", the
// others' by name; a resignation, with how to give up the seat instead.
func TestWaitingForYourSetup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := &fixture{t: t, dir: t.TempDir()}
	f.open()
	t.Cleanup(f.close)
	a, pa, pb := f.annAndBen(ctx)
	refused := func(who *auth.Principal, want string) {
		t.Helper()
		_, err := f.s.Move(ctx, who, a.Table, table.MoveRequest{Move: "guess 1"})
		if err == nil || err.Error() != "the game has not started: "+want {
			t.Errorf("move before play: %v, want %q", err, want)
		}
	}
	refused(pa, "waiting for your setup, and for the setups of Ben")
	refused(pb, "waiting for your setup, and for the setups of Ann")
	if _, err := f.s.Setup(ctx, pa, a.Table, table.SetupRequest{Setup: setupOf(5)}); err != nil {
		t.Fatal(err)
	}
	refused(pa, "waiting for the setups of Ben")
	refused(pb, "waiting for your setup")
	// A resignation before play has no game to give up: the refusal
	// says how to give up the seat instead.
	_, err := f.s.Move(ctx, pb, a.Table, table.MoveRequest{Move: "resign"})
	if want := "the game has not started (waiting for your setup): to give up your seat, leave the table"; err == nil || err.Error() != want {
		t.Errorf("a resignation before play: %v, want %q", err, want)
	}
}
