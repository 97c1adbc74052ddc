package tournament_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/protocol"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/server/tournament"
	"parlour/store"
)

// teller keeps the player stream's lines the events send, by identity.
type teller struct {
	mu   sync.Mutex
	told map[string][]social.StreamEvent
}

func (t *teller) Tell(identity string, ev social.StreamEvent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.told[identity] = append(t.told[identity], ev)
}

func (t *teller) lines(identity, typ string) []social.StreamEvent {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []social.StreamEvent
	for _, ev := range t.told[identity] {
		if ev.Type == typ {
			out = append(out, ev)
		}
	}
	return out
}

// TestCancel: an event not yet started is cancelled by a moderator (the
// house's events have no creator to do it); anybody else is refused and
// changes nothing; its players are told on their streams, it leaves the
// list of events to come and never starts, and a join, a second cancel
// and a start are refused in words that say it was cancelled. An event
// under way cannot be cancelled.
func TestCancel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	streams := &teller{told: map[string][]social.StreamEvent{}}
	mod := &auth.Principal{Identity: "the-moderator"}
	fx := newEvents(t, func(c *tournament.Config) {
		c.Streams = streams
		c.Moderator = func(_ context.Context, identity string) (bool, error) { return identity == mod.Identity, nil }
	})
	clock, tables, ts := fx.clock, fx.tables, fx.ts
	if err := fx.st.CreateIdentity(ctx, store.Identity{ID: mod.Identity, Name: "Moe", Created: time.Now()}, store.Credential{Hash: []byte("moe"), Identity: mod.Identity}); err != nil {
		t.Fatal(err)
	}

	later := clock.Now().Add(time.Hour)
	off, _, err := ts.CreateHouse(ctx, "off", protocol.TournamentRequest{Kind: "swiss", Game: "guess", Clock: json.RawMessage(`60`), Rounds: 1, At: later})
	if err != nil {
		t.Fatal(err)
	}
	on, _, err := ts.CreateHouse(ctx, "on", protocol.TournamentRequest{Kind: "swiss", Game: "guess", Clock: json.RawMessage(`60`), Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	who := make([]*auth.Principal, 3)
	for i := range who {
		id, err := tables.NewIdentity(ctx, fmt.Sprintf("P%d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		who[i] = &auth.Principal{Identity: id.ID}
	}
	for _, p := range who[:2] {
		for _, id := range []string{off.ID, on.ID} {
			if _, err := ts.Join(ctx, p, id, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	// P2 left before the cancel: only P1 is told.
	if _, err := ts.Leave(ctx, who[1], off.ID); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name   string
		who    *auth.Principal
		status int
		want   string
	}{
		{"nobody", nil, 401, "needs an identity"},
		{"a player of the event", who[0], 403, "or a moderator"},
	} {
		_, err := ts.Cancel(ctx, c.who, off.ID)
		if refuse.Status(err) != c.status || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s cancels: %v (%d), want %d saying %q", c.name, err, refuse.Status(err), c.status, c.want)
		}
		if e, _ := ts.Get(ctx, off.ID); e.Status != store.TournamentCreated {
			t.Errorf("%s's refused cancel left the event %s", c.name, e.Status)
		}
	}
	if got := streams.lines(who[0].Identity, "tournamentCancelled"); len(got) != 0 {
		t.Fatalf("told of a cancel refused: %+v", got)
	}

	e, err := ts.Cancel(ctx, mod, off.ID)
	if err != nil || e.Status != store.TournamentCancelled {
		t.Fatalf("the moderator cancels: %+v, %v", e, err)
	}
	if got := streams.lines(who[0].Identity, "tournamentCancelled"); len(got) != 1 || got[0].Event == nil || got[0].Event.ID != off.ID || got[0].Event.Name != off.Name {
		t.Errorf("P1 is told %+v, want one tournamentCancelled naming %s", got, off.ID)
	}
	if got := streams.lines(who[1].Identity, "tournamentCancelled"); len(got) != 0 {
		t.Errorf("P2, who had left, is told %+v", got)
	}
	if e, err := ts.Get(ctx, off.ID); err != nil || e.Status != store.TournamentCancelled {
		t.Errorf("the cancelled event reads %+v, %v", e, err)
	}
	for _, c := range []struct {
		name string
		do   func() error
	}{
		{"a join", func() error { _, err := ts.Join(ctx, who[2], off.ID, ""); return err }},
		{"a second cancel", func() error { _, err := ts.Cancel(ctx, mod, off.ID); return err }},
		{"a leave", func() error { _, err := ts.Leave(ctx, who[0], off.ID); return err }},
	} {
		if err := c.do(); refuse.Status(err) != 409 || !strings.Contains(err.Error(), "was cancelled") {
			t.Errorf("%s of the cancelled event: %v, want 409 saying it was cancelled", c.name, err)
		}
	}

	// The other event starts on time; the cancelled one never does.
	clock.Advance(tournament.DefaultDelay)
	servertest.Eventually(t, 10*time.Second, "the other event under way", func() bool {
		e, err := ts.Get(ctx, on.ID)
		return err == nil && len(e.Playing) == 1
	})
	if _, err := ts.Cancel(ctx, mod, on.ID); refuse.Status(err) != 409 || !strings.Contains(err.Error(), "has started") {
		t.Errorf("cancelling an event under way: %v, want 409 saying it has started", err)
	}
	if e, _ := ts.Get(ctx, on.ID); e.Status != store.TournamentStarted {
		t.Errorf("the refused cancel left the event under way %s", e.Status)
	}
	clock.Advance(time.Hour)
	if e, err := ts.Get(ctx, off.ID); err != nil || e.Status != store.TournamentCancelled || len(e.Games) != 0 {
		t.Errorf("after its start time the cancelled event reads %+v, %v", e, err)
	}
	listed, err := ts.List(ctx, "created")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range listed {
		if l.ID == off.ID {
			t.Errorf("the cancelled event is listed among those to come")
		}
	}
}
