package tournament_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/protocol"
	"parlour/server/table"
	"parlour/server/tournament"
	"parlour/store"
)

// observer hands the tables' news to the events, made after the tables.
type observer struct{ ts *tournament.Service }

func (o *observer) Started(n table.GameNote) {}
func (o *observer) Deserted(n table.GameNote, seat int) {
	if o.ts != nil {
		o.ts.Deserted(n, seat)
	}
}
func (o *observer) Finished(n table.GameNote, end *store.GameEnd) {
	if o.ts != nil {
		o.ts.Finished(n, end)
	}
}

// TestMultiSeatSwiss: a Swiss of six at tables of three (the test game
// takes three) seats two tables a round; each table scores by place (the
// winner 4, the two others sharing second and third, 1 each); the second
// round seats together as few pairs who met as can be (one a table: any
// three of six split into two threes hold two from one of them); the
// event finishes with its winners, the house's event made once for its
// key.
func TestMultiSeatSwiss(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fx := newEvents(t, nil)
	clock, tables, ts := fx.clock, fx.tables, fx.ts

	req := protocol.TournamentRequest{Kind: "swiss", Name: "Guessing Threes", Game: "guess", Clock: json.RawMessage(`60`), Rounds: 2, Seats: 3}
	ev, made, err := ts.CreateHouse(ctx, "threes", req)
	if err != nil || !made || ev.ID != "threes" || ev.Seats != 3 || ev.Creator != "" {
		t.Fatalf("the house's event: %+v, %v, %v", ev, made, err)
	}
	if again, made, err := ts.CreateHouse(ctx, "threes", req); err != nil || made || again.ID != "threes" {
		t.Fatalf("made again: %+v, %v, %v", again, made, err)
	}
	who := map[string]*auth.Principal{}
	for i := range 6 {
		id, err := tables.NewIdentity(ctx, fmt.Sprintf("P%d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		who[id.Name] = &auth.Principal{Identity: id.ID}
		if _, err := ts.Join(ctx, who[id.Name], ev.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(tournament.DefaultDelay)

	met := map[[2]string]int{}
	for round := 1; round <= 2; round++ {
		var e tournament.Event
		servertest.Eventually(t, 10*time.Second, fmt.Sprintf("round %d", round), func() bool {
			e, err = ts.Get(ctx, ev.ID)
			return err == nil && e.Round == round && len(e.Playing) == 2
		})
		repeats := 0
		for _, g := range e.Playing {
			if len(g.Players) != 3 {
				t.Fatalf("a table of %d: %+v", len(g.Players), g)
			}
			for i, a := range g.Players {
				for _, b := range g.Players[i+1:] {
					p := [2]string{min(a, b), max(a, b)}
					if met[p] > 0 {
						repeats++
					}
					met[p]++
				}
			}
			// Each seat hides 10 × its seat + 5; the first seat guesses
			// the second's at once and wins.
			for seat, name := range g.Players {
				if _, err := tables.Setup(ctx, who[name], g.Table, table.SetupRequest{Setup: json.RawMessage(fmt.Sprintf(`{"number": %d}`, 10*seat+5))}); err != nil {
					t.Fatalf("%s's setup: %v", name, err)
				}
			}
			if _, err := tables.Move(ctx, who[g.Players[0]], g.Table, table.MoveRequest{Move: "guess 15"}); err != nil {
				t.Fatalf("%s guesses: %v", g.Players[0], err)
			}
		}
		if round == 2 && repeats != 2 {
			t.Errorf("round 2 seats %d pairs who met, want 2 (one a table)", repeats)
		}
	}
	var e tournament.Event
	servertest.Eventually(t, 10*time.Second, "the event over", func() bool {
		e, err = ts.Get(ctx, ev.ID)
		return err == nil && e.Status == store.TournamentFinished
	})
	total := 0
	for _, g := range e.Games {
		if !slices.Equal(g.Points, []int{4, 1, 1}) {
			t.Errorf("a table scored %v, want [4 1 1]", g.Points)
		}
	}
	for _, s := range e.Standings {
		total += s.Score
		if s.Score != 4*s.Wins+1*(s.Games-s.Wins) {
			t.Errorf("%s scores %d from %d wins in %d games", s.Name, s.Score, s.Wins, s.Games)
		}
	}
	if total != 2*2*6 || len(e.Winners) != 3 || e.Standings[0].Score < e.Standings[1].Score {
		t.Errorf("total %d, winners %q, standings %+v", total, e.Winners, e.Standings)
	}
}
