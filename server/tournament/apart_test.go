package tournament_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/protocol"
	"parlour/server/tournament"
)

// TestEventsKeepApart: an event never seats together two players one of
// whom blocks the other, while the field leaves another pairing, though
// the standings would pair them first: of players equal in points and
// rating, the first two by identity block each other, in a Swiss of four
// and in an arena of three (where one of them waits). Where a Swiss's
// field leaves no other pairing (two players), it seats them rather than
// end the event unplayed.
func TestEventsKeepApart(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind          string
		players       int
		tables        int
		keptApartSeen bool // the two kept apart, seated together all the same
	}{
		{"swiss", 4, 2, false},
		{"arena", 3, 1, false},
		{"swiss", 2, 1, true},
	} {
		t.Run(fmt.Sprintf("%s of %d", c.kind, c.players), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			var mu sync.Mutex
			var apart [2]string // the two identities kept apart
			fx := newEvents(t, func(cfg *tournament.Config) {
				cfg.Apart = func(_ context.Context, identity string) (map[string]bool, error) {
					mu.Lock()
					defer mu.Unlock()
					switch identity {
					case apart[0]:
						return map[string]bool{apart[1]: true}, nil
					case apart[1]:
						return map[string]bool{apart[0]: true}, nil
					}
					return map[string]bool{}, nil
				}
			})
			req := protocol.TournamentRequest{Kind: c.kind, Name: "Apart", Game: "guess", Clock: json.RawMessage(`60`), Rounds: 1, Seats: 2}
			if c.kind == "arena" {
				req.Rounds, req.Seats, req.Minutes = 0, 0, 60
			}
			ev, _, err := fx.ts.CreateHouse(ctx, fmt.Sprintf("apart-%s-%d", c.kind, c.players), req)
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]string{} // identity → name
			var ids []string
			for i := range c.players {
				id, err := fx.tables.NewIdentity(ctx, fmt.Sprintf("P%d", i+1))
				if err != nil {
					t.Fatal(err)
				}
				names[id.ID] = id.Name
				ids = append(ids, id.ID)
				if _, err := fx.ts.Join(ctx, &auth.Principal{Identity: id.ID}, ev.ID, ""); err != nil {
					t.Fatal(err)
				}
			}
			slices.Sort(ids)
			mu.Lock()
			apart = [2]string{ids[0], ids[1]}
			mu.Unlock()
			fx.clock.Advance(tournament.DefaultDelay)
			var got tournament.Event
			servertest.Eventually(t, 10*time.Second, "the first games seated", func() bool {
				got, err = fx.ts.Get(ctx, ev.ID)
				return err == nil && len(got.Playing) == c.tables
			})
			together := false
			for _, g := range got.Playing {
				together = together || slices.Contains(g.Players, names[apart[0]]) && slices.Contains(g.Players, names[apart[1]])
			}
			if together != c.keptApartSeen {
				t.Errorf("%s and %s, kept apart, seated together: %v, want %v (%+v)", names[apart[0]], names[apart[1]], together, c.keptApartSeen, got.Playing)
			}
		})
	}
}
