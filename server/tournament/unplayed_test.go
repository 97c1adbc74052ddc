package tournament

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"parlour/server/table/tabletest"
	"parlour/store"
)

// keeps is a store of events that takes every write.
type keeps struct{ store.Tournaments }

func (keeps) WriteTournament(context.Context, string, store.TournamentWrite) error { return nil }

// TestUnplayedNamesNoIdentity: a Swiss table that could not be made is
// kept among the event's games under a name of its round and place, which
// anybody reads: it names no player's identity, which the API keeps to
// itself, and two such tables of a round are told apart.
func TestUnplayedNamesNoIdentity(t *testing.T) {
	t.Parallel()
	s := &Service{st: keeps{}, log: slog.New(slog.DiscardHandler),
		cfg: Config{Clock: tabletest.NewClock(time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC))}}
	ids := []string{"id-ann-secret", "id-bob-secret", "id-cat-secret", "id-dan-secret"}
	ev := &event{t: store.Tournament{ID: "e", Kind: Swiss, Name: "Swiss", Seats: 2, Status: store.TournamentStarted, Round: 1,
		Entrants: []store.Entrant{{Identity: ids[0], Name: "Ann"}, {Identity: ids[1], Name: "Bob"}, {Identity: ids[2], Name: "Cat"}, {Identity: ids[3], Name: "Dan"}}},
		changed: make(chan struct{})}
	s.unplayed(context.Background(), ev, ids[:2], 1, 0)
	s.unplayed(context.Background(), ev, ids[2:], 1, 1)
	if len(ev.t.Games) != 2 || ev.t.Games[0].Table == ev.t.Games[1].Table {
		t.Fatalf("the unplayed tables are kept as %+v", ev.t.Games)
	}
	b, err := json.Marshal(s.view(ev.t, nil, 0, true))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if strings.Contains(string(b), id) {
			t.Errorf("the event names identity %s: %s", id, b)
		}
	}
	for _, g := range ev.t.Games {
		if !strings.HasPrefix(g.Table, "unplayed-") || g.Points == nil {
			t.Errorf("an unplayed table is kept as %+v", g)
		}
	}
}
