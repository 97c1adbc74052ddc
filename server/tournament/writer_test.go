package tournament_test

import (
	"context"
	"encoding/json"
	"testing"

	"parlour/server/auth"
	"parlour/server/chat"
	"parlour/server/protocol"
	"parlour/server/tournament"
)

// TestWriterNamedAsTheStandings: an event's creator mutes a writer by the
// name the standings give them: of two guests called Kit, "Kit 2" is the
// second, whom "Kit" would miss; an unknown name is refused.
func TestWriterNamedAsTheStandings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fx := newEvents(t, nil)
	evID, kits := twoKits(t, fx)
	for name, want := range map[string]string{"Kit": kits[0], "kit 2": kits[1], "KIT 2": kits[1]} {
		if got, err := fx.ts.WriterNamed(ctx, evID, name); err != nil || got != want {
			t.Errorf("WriterNamed(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := fx.ts.WriterNamed(ctx, evID, "Kit 3"); err == nil {
		t.Error("a name nobody has was taken")
	}
}

// TestChatNamesAsTheStandings: an event's chat names a writer who plays
// in it as its standings do, so that the lines of two guests called Kit
// read apart ("Kit", "Kit 2"); a writer who does not play keeps their
// own name.
func TestChatNamesAsTheStandings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var rooms *chat.Rooms
	fx := newEvents(t, func(c *tournament.Config) {
		rooms = chat.NewRooms(chat.RoomsConfig{Store: c.Store})
		c.Rooms = rooms
	})
	evID, kits := twoKits(t, fx)
	room, err := fx.ts.Room(ctx, evID)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"Kit", "Kit 2"} {
		l, err := room.Post(ctx, kits[i], "", "good luck")
		if err != nil {
			t.Fatalf("Kit %d's line: %v", i+1, err)
		}
		if l.Name != want {
			t.Errorf("Kit %d's line is named %q, want %q", i+1, l.Name, want)
		}
	}
}

// twoKits makes a house arena that two guests called Kit join, and
// returns the event and the two guests' identities, in the order they
// joined.
func twoKits(t *testing.T, fx *events) (string, []string) {
	t.Helper()
	ctx := context.Background()
	ev, _, err := fx.ts.CreateHouse(ctx, "kits", protocol.TournamentRequest{Kind: "arena", Name: "Kits", Game: "guess", Clock: json.RawMessage(`60`), Minutes: 60})
	if err != nil {
		t.Fatal(err)
	}
	var kits []string
	for range 2 {
		id, err := fx.tables.NewIdentity(ctx, "Kit")
		if err != nil {
			t.Fatal(err)
		}
		kits = append(kits, id.ID)
		if _, err := fx.ts.Join(ctx, &auth.Principal{Identity: id.ID}, ev.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	return ev.ID, kits
}
