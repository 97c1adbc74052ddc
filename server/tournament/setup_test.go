package tournament_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/protocol"
	"parlour/server/tournament"
	"parlour/store"
)

// lostLease is a node's lease that it holds until lost is set; each Hold
// refused after that is counted.
type lostLease struct {
	lost    atomic.Bool
	refused atomic.Int32
}

func (l *lostLease) Hold(context.Context, string) (int64, bool, error) {
	if l.lost.Load() {
		l.refused.Add(1)
		return 0, false, nil
	}
	return 1, true, nil
}

func (l *lostLease) Release(context.Context, string) {}

// TestSetupTimeOnLostLease: a node that no longer runs an event (another
// took it over) leaves its tables alone when their time to set up runs
// out: the node that runs the event now closes them, as it scores them.
func TestSetupTimeOnLostLease(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lease := &lostLease{}
	fx := newEvents(t, func(c *tournament.Config) { c.Lease = lease })
	clock, tables, ts := fx.clock, fx.tables, fx.ts

	ev, _, err := ts.CreateHouse(ctx, "guessing", protocol.TournamentRequest{Kind: "swiss", Game: "guess", Clock: json.RawMessage(`60`), Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		id, err := tables.NewIdentity(ctx, fmt.Sprintf("P%d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ts.Join(ctx, &auth.Principal{Identity: id.ID}, ev.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(tournament.DefaultDelay)
	var game string
	servertest.Eventually(t, 10*time.Second, "the round's table", func() bool {
		e, err := ts.Get(ctx, ev.ID)
		if err == nil && len(e.Playing) == 1 {
			game = e.Playing[0].Table
		}
		return game != ""
	})
	lease.lost.Store(true)
	clock.Advance(tournament.MinSetup)
	servertest.Eventually(t, 10*time.Second, "the node to look at its lease, or close the table", func() bool {
		u, err := tables.View(ctx, nil, game)
		return lease.refused.Load() > 0 || err != nil || u.Table.Status != store.Setup
	})
	if u, err := tables.View(ctx, nil, game); err != nil || u.Table.Status != store.Setup {
		t.Fatalf("a node without the event's lease closed its table: %+v, %v", u.Table, err)
	}
}
