package table

import (
	"context"
	"encoding/json"
	"testing"

	"parlour/game"
)

// TestDailySet: a daily puzzle's table opens no set, and the game played
// after one whose table holds a set (an older data folder's may) starts
// none: a daily is one attempt, ranked alone.
func TestDailySet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	for _, legacy := range []bool{false, true} {
		a, err := f.s.CreatePreset(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}},
			Preset{Daily: "guess/2026-12-03", Setup: json.RawMessage(`{"number": 42}`), Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		tb, err := f.s.table(ctx, a.Table)
		if err != nil {
			t.Fatal(err)
		}
		tb.mu.Lock()
		if tb.m.Set != nil {
			t.Errorf("the daily table opened set %+v", tb.m.Set)
		}
		if legacy {
			tb.m.Set = game.NewSet(1, 2)
		}
		tb.unlock()
		p := f.principal(a.Token)
		if _, err := f.s.Move(ctx, p, a.Table, MoveRequest{Move: "guess 42"}); err != nil {
			t.Fatal(err)
		}
		r, err := f.s.Rematch(ctx, p, a.Table)
		if err != nil {
			t.Fatalf("legacy %v: the game after: %v", legacy, err)
		}
		next, err := f.s.table(ctx, r.Table)
		if err != nil {
			t.Fatal(err)
		}
		next.mu.Lock()
		if next.m.Set != nil || next.m.Daily != "" {
			t.Errorf("legacy %v: the game after the daily has set %+v, daily %q; want neither", legacy, next.m.Set, next.m.Daily)
		}
		next.unlock()
	}
}
