package tournament_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/protocol"
	"parlour/server/tournament"
	"parlour/store"
	"parlour/store/sqlite"
)

// losesGames is a store that loses an event's new games on their way in
// while lose is set: as if the server stopped between making a round's
// tables and storing them as the event's.
type losesGames struct {
	*sqlite.Store
	lose atomic.Bool
}

func (l *losesGames) WriteTournament(ctx context.Context, id string, w store.TournamentWrite) error {
	if l.lose.Load() && len(w.Games) > 0 && len(w.Entrants) == 0 {
		return errors.New("the server stopped")
	}
	return l.Store.WriteTournament(ctx, id, w)
}

// TestRoundTablesKeptOverRestart: a Swiss round whose tables were made
// but not stored as the event's when the server stopped goes on at those
// very tables after the restart: each player keeps the one table they
// were seated at, and is not seated at a second.
func TestRoundTablesKeptOverRestart(t *testing.T) {
	t.Parallel()
	keptOverRestart(t, protocol.TournamentRequest{Kind: "swiss", Name: "Kept Swiss", Game: "guess", Clock: json.RawMessage(`60`), Rounds: 1})
}

// TestWaveTablesKeptOverRestart: an arena's wave whose tables were made
// but not stored as the event's when the server stopped goes on at those
// very tables after the restart, and its next look pairs nobody twice.
func TestWaveTablesKeptOverRestart(t *testing.T) {
	t.Parallel()
	keptOverRestart(t, protocol.TournamentRequest{Kind: "arena", Name: "Kept Arena", Game: "guess", Clock: json.RawMessage(`60`), Minutes: 60})
}

// keptOverRestart makes the event req asks for, with four players, and
// stops the server after the tables of its first pairing were made but
// before they were stored as the event's: after the restart the event's
// games are those very tables, each player at the one they sat at, even
// once the arena has looked at its players again.
func keptOverRestart(t *testing.T, req protocol.TournamentRequest) {
	ctx := context.Background()
	var st *losesGames
	fx := newEvents(t, func(c *tournament.Config) {
		st = &losesGames{Store: c.Store.(*sqlite.Store)}
		c.Store = st
	})
	ev, _, err := fx.ts.CreateHouse(ctx, "kept", req)
	if err != nil {
		t.Fatal(err)
	}
	var who []string
	for i := range 4 {
		id, err := fx.tables.NewIdentity(ctx, fmt.Sprintf("P%d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		who = append(who, id.ID)
		if _, err := fx.ts.Join(ctx, &auth.Principal{Identity: id.ID}, ev.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	st.lose.Store(true)
	fx.clock.Advance(tournament.DefaultDelay)
	var before tournament.Event
	servertest.Eventually(t, 10*time.Second, "the first pairing seated", func() bool {
		before, err = fx.ts.Get(ctx, ev.ID)
		return err == nil && len(before.Playing) == 2
	})
	seatedAt := func() map[string][]string {
		out := map[string][]string{}
		for _, id := range who {
			for _, tb := range fx.tables.SeatedAt(id) {
				out[id] = append(out[id], tb.ID)
			}
		}
		return out
	}
	was := seatedAt()

	// The restart: a new event service on the same store and tables.
	fx.ts.Close()
	st.lose.Store(false)
	ts, err := tournament.New(ctx, tournament.Config{Store: st, Tables: fx.tables, Games: servertest.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ts.Close)
	fx.obs.ts = ts
	var after tournament.Event
	servertest.Eventually(t, 10*time.Second, "the pairing's games again", func() bool {
		after, err = ts.Get(ctx, ev.ID)
		return err == nil && len(after.Playing) >= 2
	})
	if req.Kind == "arena" {
		fx.clock.Advance(tournament.ArenaLook)
		if after, err = ts.Get(ctx, ev.ID); err != nil {
			t.Fatal(err)
		}
	}
	now := seatedAt()
	for _, id := range who {
		if len(now[id]) != 1 || !slices.Equal(now[id], was[id]) {
			t.Errorf("%s sat at %v before the restart, at %v after it", id, was[id], now[id])
		}
	}
	tablesOf := func(e tournament.Event) []string {
		var out []string
		for _, g := range e.Playing {
			out = append(out, g.Table)
		}
		slices.Sort(out)
		return out
	}
	if a, b := tablesOf(after), tablesOf(before); !slices.Equal(a, b) {
		t.Errorf("the games are at %v after the restart, at %v before it", a, b)
	}
}
