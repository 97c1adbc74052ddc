package table

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// lateClock is a Clock whose calls run only when Fire runs them: a
// timer late to fire, as one is on a busy machine or while a move holds
// the table.
type lateClock struct {
	mu    sync.Mutex
	now   time.Time
	calls []*lateTimer
}

type lateTimer struct {
	c    *lateClock
	f    func()
	done bool
}

func (c *lateClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *lateClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &lateTimer{c: c, f: f}
	c.calls = append(c.calls, t)
	return t
}

func (t *lateTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

// advance moves the time on by d, running nothing.
func (c *lateClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestMoveAfterTimeRanOut: a player's own move that comes once their
// time has run out, before the clock's timer has played for them, is
// refused, saying so; the server plays for them at once, as the timer
// would have: the move it makes (or the abort) is the one that stands,
// and no increment puts time back on a clock that had run out.
func TestMoveAfterTimeRanOut(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		clock   string
		before  int    // moves each player makes in time first
		want    string // in the refusal
		aborted bool
	}{
		{"turn clock, the first move", `60`, 0, "your time ran out (1 minute a turn) before this move came: the game is aborted, without a result", true},
		{"fischer, later", `{"kind": "fischer", "initial": 60, "increment": 30}`, 1, "your time ran out (1+30) before this move came: the server resigned for you", false},
		{"correspondence, later", `{"kind": "correspondence", "days": 1}`, 2, "your time ran out (1 day a move) before this move came: the server resigned for you", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			clock := &lateClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
			f := &fixture{t: t, dir: t.TempDir(), clock: clock}
			f.open()
			t.Cleanup(f.close)
			a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann",
				Rules: map[string]json.RawMessage{"clock": json.RawMessage(tc.clock)}})
			if err != nil {
				t.Fatal(err)
			}
			b, err := f.s.Join(ctx, nil, a.Table, JoinRequest{Name: "Ben"})
			if err != nil {
				t.Fatal(err)
			}
			pa, pb := f.principal(a.Token), f.principal(b.Token)
			// Both hide 50: Ann's late guess would win.
			for _, p := range []*auth.Principal{pa, pb} {
				if _, err := f.s.Setup(ctx, p, a.Table, SetupRequest{Setup: json.RawMessage(`{"number": 50}`)}); err != nil {
					t.Fatal(err)
				}
			}
			for i := range tc.before {
				for _, p := range []*auth.Principal{pa, pb} {
					if _, err := f.s.Move(ctx, p, a.Table, MoveRequest{Move: fmt.Sprintf("guess %d", i+1)}); err != nil {
						t.Fatalf("seat %d in time: %v", p.Seat, err)
					}
				}
			}
			u, err := f.s.View(ctx, pa, a.Table)
			if err != nil {
				t.Fatal(err)
			}
			d := u.Table.Seats[0].Deadline
			if d == nil {
				t.Fatalf("Ann to move has no deadline: %+v", u.Table.Seats[0])
			}
			clock.advance(d.Sub(clock.Now()) + time.Second)
			version := u.Version
			_, err = f.s.Move(ctx, pa, a.Table, MoveRequest{Move: "guess 50"})
			if refuse.Status(err) != http.StatusConflict || err.Error() != tc.want {
				t.Fatalf("Ann's move after her time ran out: %v, want 409 %q", err, tc.want)
			}
			rec, err := f.s.Record(ctx, pa, a.Table)
			if err != nil {
				t.Fatal(err)
			}
			u, err = f.s.View(ctx, pa, a.Table)
			if err != nil {
				t.Fatal(err)
			}
			if u.Table.Status != store.Finished {
				t.Fatalf("after Ann's late move: status %s, want the game over", u.Table.Status)
			}
			for _, mv := range rec.Moves {
				if mv.By == "Ann" && mv.Move == "guess 50" {
					t.Fatalf("Ann's late move stands: %+v", rec.Moves)
				}
			}
			if tc.aborted {
				if rec.Aborted == nil || u.Table.Aborted == nil || u.Table.Aborted.Why != AbortTimeout || u.Version != version+1 {
					t.Fatalf("the game is not aborted by Ann's timeout: %+v, %+v", rec.Aborted, u.Table.Aborted)
				}
				return
			}
			last := rec.Moves[len(rec.Moves)-1]
			if last.By != "Ann" || !strings.EqualFold(last.Move, "resign") || len(u.Table.Result.Winners) != 1 || u.Table.Result.Winners[0] != 1 {
				t.Fatalf("the server's move for Ann: %+v, result %+v", last, u.Table.Result)
			}
		})
	}
}
