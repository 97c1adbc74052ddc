package tournament_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/protocol"
	"parlour/server/tournament"
)

// TestDesertedOverRestart: a player who leaves their event's table before
// play began while the events' service is shutting down (it closes
// before the tables do, and hears of the leaving no more) forfeits the
// game all the same: the restart reads who left from the closed table,
// and scores the game for the player who stayed, not as a draw.
func TestDesertedOverRestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fx := newEvents(t, nil)
	ev, _, err := fx.ts.CreateHouse(ctx, "walkout", protocol.TournamentRequest{Kind: "swiss", Name: "Walk-out", Game: "guess", Clock: json.RawMessage(`60`), Rounds: 1, Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	who := map[string]*auth.Principal{}
	for i := range 2 {
		name := fmt.Sprintf("P%d", i+1)
		id, err := fx.tables.NewIdentity(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		who[name] = &auth.Principal{Identity: id.ID}
		if _, err := fx.ts.Join(ctx, who[name], ev.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	fx.clock.Advance(tournament.DefaultDelay)
	var got tournament.Event
	servertest.Eventually(t, 10*time.Second, "round 1 seated", func() bool {
		got, err = fx.ts.Get(ctx, ev.ID)
		return err == nil && len(got.Playing) == 1
	})

	// The shutdown: the events' service closes, then P1 walks out.
	fx.ts.Close()
	if _, err := fx.tables.Leave(ctx, who["P1"], got.Playing[0].Table); err != nil {
		t.Fatal(err)
	}
	ts := fx.restart(t, fx.st)
	servertest.Eventually(t, 10*time.Second, "the game scored", func() bool {
		got, err = ts.Get(ctx, ev.ID)
		return err == nil && len(got.Playing) == 0 && len(got.Games) == 1
	})
	score := map[string]tournament.Standing{}
	for _, s := range got.Standings {
		score[s.Name] = s
	}
	if p1, p2 := score["P1"], score["P2"]; p1.Score != 0 || p1.Forfeits != 1 || p2.Score != 2 || p2.Wins != 1 {
		t.Errorf("after the restart, P1 (who walked out) has %+v, P2 %+v: want P1's forfeit, P2's win", p1, p2)
	}
}

// TestVersionOverRestart: an event's version goes on past the number a
// page holds across a restart, rather than count from 0 again and come
// back to it, where the page's wait for the next change would hold on
// to a change it missed.
func TestVersionOverRestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fx := newEvents(t, nil)
	ev, _, err := fx.ts.CreateHouse(ctx, "versions", protocol.TournamentRequest{Kind: "swiss", Name: "Versions", Game: "guess", Clock: json.RawMessage(`60`), Rounds: 1, Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		id, err := fx.tables.NewIdentity(ctx, fmt.Sprintf("P%d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fx.ts.Join(ctx, &auth.Principal{Identity: id.ID}, ev.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	before, _, err := fx.ts.Mark(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	fx.ts.Close()
	ts := fx.restart(t, fx.st)
	after, _, err := ts.Mark(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after <= before {
		t.Errorf("the version was %d before the restart, %d after it: want it to go on past", before, after)
	}
	got, err := ts.Get(ctx, ev.ID)
	if err != nil || got.Version != after {
		t.Errorf("the event reads version %d (%v), its mark %d", got.Version, err, after)
	}
}

// TestSetupsMissedOverRestart: a table the event closed because neither
// player set up in time, the server stopping before the event heard of
// it, is scored after the restart from the closed table: both players
// forfeit it, and neither draws.
func TestSetupsMissedOverRestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fx := newEvents(t, nil)
	ev, _, err := fx.ts.CreateHouse(ctx, "nosetups", protocol.TournamentRequest{Kind: "swiss", Name: "No setups", Game: "guess", Clock: json.RawMessage(`60`), Rounds: 1, Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		id, err := fx.tables.NewIdentity(ctx, fmt.Sprintf("P%d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fx.ts.Join(ctx, &auth.Principal{Identity: id.ID}, ev.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	fx.clock.Advance(tournament.DefaultDelay)
	var game string
	servertest.Eventually(t, 10*time.Second, "round 1 seated", func() bool {
		e, err := fx.ts.Get(ctx, ev.ID)
		if err == nil && len(e.Playing) == 1 {
			game = e.Playing[0].Table
		}
		return game != ""
	})
	fx.obs.ts = nil // the event hears no more of its tables: the server stops
	fx.clock.Advance(tournament.MinSetup)
	servertest.Eventually(t, 10*time.Second, "the table closed", func() bool {
		_, err := fx.tables.View(ctx, nil, game)
		return err != nil
	})
	fx.ts.Close()
	ts := fx.restart(t, fx.st)
	var got tournament.Event
	servertest.Eventually(t, 10*time.Second, "the game scored", func() bool {
		got, err = ts.Get(ctx, ev.ID)
		return err == nil && len(got.Playing) == 0 && len(got.Games) == 1
	})
	for _, s := range got.Standings {
		if s.Score != 0 || s.Forfeits != 1 || s.Draws != 0 {
			t.Errorf("after the restart %s has %+v: want a forfeit, no points", s.Name, s)
		}
	}
}
