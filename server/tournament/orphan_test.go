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
	"parlour/server/table"
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

// TestPairingMadeBeforeRestart: the tables of an event's first pairing
// (a Swiss round, an arena's wave) made but not stored as the event's
// when the server stopped are the event's games after the restart, under
// way or ended before the event was back.
func TestPairingMadeBeforeRestart(t *testing.T) {
	t.Parallel()
	swiss := protocol.TournamentRequest{Kind: "swiss", Name: "Swiss", Game: "guess", Clock: json.RawMessage(`60`), Rounds: 1}
	arena := protocol.TournamentRequest{Kind: "arena", Name: "Arena", Game: "guess", Clock: json.RawMessage(`60`), Minutes: 60}
	for _, tc := range []struct {
		name string
		req  protocol.TournamentRequest
		run  func(*testing.T, protocol.TournamentRequest)
	}{
		// The round goes on at those very tables: each player keeps the
		// one they were seated at, and is not seated at a second.
		{"round under way", swiss, keptOverRestart},
		// The same, and the arena's next look pairs nobody twice.
		{"wave under way", arena, keptOverRestart},
		// A game whose clock ran out while the event was away (its
		// table ended before the event was taken up) is scored
		// from its record, and its players are not seated again.
		{"round ended", swiss, endedWhileDown},
		{"wave ended", arena, endedWhileDown},
		// A cluster's node died between making the tables and storing
		// them; the tables went on at another node, not the one that
		// takes the event up: it finds them there.
		{"round under way on another node", swiss, keptOnAnotherNode},
		{"wave under way on another node", arena, keptOnAnotherNode},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, tc.req)
		})
	}
}

// keptOverRestart makes the event req asks for, with four players, and
// stops the server after the tables of its first pairing were made but
// before they were stored as the event's: after the restart the event's
// games are those very tables, each player at the one they sat at, even
// once the arena has looked at its players again.
func keptOverRestart(t *testing.T, req protocol.TournamentRequest) {
	ctx := context.Background()
	fx, st, before, players := pairedNotStored(t, req, 4)
	var who []string
	for _, p := range players {
		who = append(who, p.Identity)
	}
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
	ts := fx.restart(t, st)
	var after tournament.Event
	var err error
	servertest.Eventually(t, 10*time.Second, "the pairing's games again", func() bool {
		after, err = ts.Get(ctx, before.ID)
		return err == nil && len(after.Playing) >= 2
	})
	if req.Kind == "arena" {
		fx.clock.Advance(tournament.ArenaLook)
		if after, err = ts.Get(ctx, before.ID); err != nil {
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

// elsewhere is the Placement of a cluster's node that runs no table
// but those it makes: every other is another node's.
type elsewhere struct{ table.Here }

func (elsewhere) Claim(context.Context, string) (string, error) { return "node-b", nil }
func (elsewhere) Epoch(string) int64                            { return -1 }

// keptOnAnotherNode makes the event req asks for, with four players,
// and stops the events after the tables of its first pairing were made
// but before they were stored as the event's, as a cluster's node dies;
// the tables run on at another node (fx.tables), and a third takes the
// event up, its own tables empty: the event's games are those very
// tables, found on the node that runs them, and nobody is seated again.
func keptOnAnotherNode(t *testing.T, req protocol.TournamentRequest) {
	ctx := context.Background()
	fx, st, before, players := pairedNotStored(t, req, 4)
	fx.obs.ts = nil
	fx.ts.Close()
	st.lose.Store(false)

	third, err := table.New(ctx, table.Config{Store: st, Games: servertest.Registry(), Lexicon: servertest.Lexicon, Clock: fx.clock, Placement: elsewhere{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(third.Close)
	everywhere := func(ctx context.Context, identity string) ([]table.SeatedTable, error) {
		return append(fx.tables.SeatedAt(identity), third.SeatedAt(identity)...), nil
	}
	ts, err := tournament.New(ctx, tournament.Config{Store: st, Tables: third, Games: servertest.Registry(), Seated: everywhere})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ts.Close)
	var after tournament.Event
	servertest.Eventually(t, 10*time.Second, "the pairing's games again", func() bool {
		after, err = ts.Get(ctx, before.ID)
		return err == nil && len(after.Playing) >= 2
	})
	if req.Kind == "arena" {
		fx.clock.Advance(tournament.ArenaLook)
		if after, err = ts.Get(ctx, before.ID); err != nil {
			t.Fatal(err)
		}
	}
	var a, b []string
	for _, g := range after.Playing {
		a = append(a, g.Table)
	}
	for _, g := range before.Playing {
		b = append(b, g.Table)
	}
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Errorf("the games are at %v once the event is taken up, at %v before", a, b)
	}
	for name, p := range players {
		if seated, _ := everywhere(ctx, p.Identity); len(seated) != 1 {
			t.Errorf("%s is seated at %d tables once the event is taken up, want the one of before", name, len(seated))
		}
	}
}

// pairedNotStored makes the event req asks for, joined by players P1,
// P2, ... (n of them, an even number), on a store that loses the event's
// new games while its lose is set (it is, once they joined): the first
// pairing's tables are made, and not stored as the event's, as when the
// server stops in between. It returns the event as read once every
// player was seated, and the players by name.
func pairedNotStored(t *testing.T, req protocol.TournamentRequest, n int) (*events, *losesGames, tournament.Event, map[string]*auth.Principal) {
	t.Helper()
	ctx := context.Background()
	var st *losesGames
	fx := newEvents(t, func(c *tournament.Config) {
		st = &losesGames{Store: c.Store.(*sqlite.Store)}
		c.Store = st
	})
	ev, _, err := fx.ts.CreateHouse(ctx, "lost", req)
	if err != nil {
		t.Fatal(err)
	}
	who := map[string]*auth.Principal{}
	for i := range n {
		id, err := fx.tables.NewIdentity(ctx, fmt.Sprintf("P%d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		who[id.Name] = &auth.Principal{Identity: id.ID}
		if _, err := fx.ts.Join(ctx, who[id.Name], ev.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	st.lose.Store(true)
	fx.clock.Advance(tournament.DefaultDelay)
	var seated tournament.Event
	servertest.Eventually(t, 10*time.Second, "the first pairing seated", func() bool {
		seated, err = fx.ts.Get(ctx, ev.ID)
		return err == nil && len(seated.Playing) == n/2
	})
	return fx, st, seated, who
}

// endedWhileDown makes the event req asks for, with two players, stops
// the events after the table of its first pairing was made but before it
// was stored as the event's, and lets the table's clock run out before
// the events start again: the game is the event's after the restart,
// scored as the one whose clock ran out before their first move not
// having shown up.
func endedWhileDown(t *testing.T, req protocol.TournamentRequest) {
	ctx := context.Background()
	fx, st, before, who := pairedNotStored(t, req, 2)
	g := before.Playing[0]

	// The server stops; the table's clock runs out while it is down.
	fx.obs.ts = nil
	fx.ts.Close()
	for seat, name := range g.Players {
		if _, err := fx.tables.Setup(ctx, who[name], g.Table, table.SetupRequest{Setup: json.RawMessage(fmt.Sprintf(`{"number": %d}`, 10*seat+5))}); err != nil {
			t.Fatalf("%s's setup: %v", name, err)
		}
	}
	fx.clock.Advance(2 * time.Minute)
	servertest.Eventually(t, 10*time.Second, "the game over", func() bool {
		u, err := fx.tables.View(ctx, nil, g.Table)
		return err == nil && u.Table.Status == store.Finished
	})

	st.lose.Store(false)
	ts := fx.restart(t, st)
	var after tournament.Event
	var err error
	servertest.Eventually(t, 10*time.Second, "the game scored", func() bool {
		after, err = ts.Get(ctx, before.ID)
		return err == nil && len(after.Games) == 1 && len(after.Playing) == 0
	})
	if req.Kind == "arena" {
		fx.clock.Advance(tournament.ArenaLook)
		if after, err = ts.Get(ctx, before.ID); err != nil {
			t.Fatal(err)
		}
	}
	if len(after.Games) != 1 || after.Games[0].Table != g.Table || len(after.Playing) != 0 {
		t.Fatalf("after the restart the event's games are %+v, playing %+v: want the one at %s, over", after.Games, after.Playing, g.Table)
	}
	score := map[string]tournament.Standing{}
	for _, s := range after.Standings {
		score[s.Name] = s
	}
	first, second := score[g.Players[0]], score[g.Players[1]]
	if first.Score != 0 || first.Forfeits != 1 || second.Score != 2 || second.Wins != 1 {
		t.Errorf("after the restart %s (whose clock ran out) has %+v, %s %+v: want a forfeit and a win", g.Players[0], first, g.Players[1], second)
	}
	for _, p := range who {
		if seated := fx.tables.SeatedAt(p.Identity); len(seated) != 0 {
			t.Errorf("%s is seated at %+v after the restart: want no second game", p.Identity, seated)
		}
	}
}
