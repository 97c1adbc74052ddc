package table

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/store"
)

// TestLeaveRacesARead: a read that found the table just before its last
// player left answers 410, not the cancelled table as if it lived on (a
// watcher on another node would take that for the last change, and wait
// for the next for ever).
func TestLeaveRacesARead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	pa := f.principal(a.Token)
	f.s.mu.RLock()
	tb := f.s.tables[a.Table]
	f.s.mu.RUnlock()
	tb.mu.Lock()
	read := make(chan error, 1)
	go func() {
		_, err := f.s.View(ctx, pa, a.Table) // finds the table, then waits for its lock
		read <- err
	}()
	time.Sleep(20 * time.Millisecond)
	left, err := f.s.leave(ctx, tb, pa, whyLeft, nil)
	tb.mu.Unlock()
	if err != nil || !left.Cancelled {
		t.Fatalf("Ann leaves: %+v, %v", left, err)
	}
	if err := <-read; refuse.Status(err) != http.StatusGone {
		t.Fatalf("the read that waited for the table: %v, want 410", err)
	}
}

// TestVacate: a player taken out of play gives up their seats at the
// tables whose game has not begun (a table where nobody else sits is
// cancelled, for the reason given; one where another waits opens the
// seat again), and keeps their seats at games under way.
func TestVacate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	played, ps := f.playing(ctx, CreateRequest{})
	ann := &auth.Principal{Identity: ps[0].Identity}
	alone, err := f.s.Create(ctx, ann, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	waiting, err := f.s.Create(ctx, ann, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.Join(ctx, nil, waiting.Table, JoinRequest{Name: "Cat"}); err != nil {
		t.Fatal(err)
	}
	if err := f.s.Vacate(ctx, ann.Identity, "Ann's account was closed"); err != nil {
		t.Fatalf("Vacate: %v", err)
	}
	_, err = f.s.View(ctx, nil, alone.Table)
	if refuse.Status(err) != http.StatusGone || !strings.Contains(err.Error(), "Ann's account was closed") {
		t.Errorf("the table Ann waited at alone: %v, want 410 saying why", err)
	}
	u, err := f.s.View(ctx, nil, waiting.Table)
	if err != nil || u.Table.Status != "open" || u.Table.Seats[0].Kind != "open" || u.Table.Seats[1].Name != "Cat" {
		t.Errorf("the table Cat waits at: %+v, %v", u.Table, err)
	}
	u, err = f.s.View(ctx, nil, played)
	if err != nil || u.Table.Status != "playing" || u.Table.Seats[0].Name != "Ann" {
		t.Errorf("the game under way: %+v, %v", u.Table, err)
	}
	if got := f.s.SeatedAt(ann.Identity); len(got) != 1 || got[0].ID != played {
		t.Errorf("Ann's tables after: %+v", got)
	}
}

// TestJoinAsksMayPlay: a join that MayPlay refuses is told why, and the
// seat stays open.
func TestJoinAsksMayPlay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := &fixture{t: t, dir: t.TempDir()}
	var asked []PairedSeat
	f.mayPlay = func(ctx context.Context, others []PairedSeat) error {
		asked = append(asked, others...)
		return refuse.Conflict("%s's account was closed", others[0].Name)
	}
	f.open()
	t.Cleanup(f.close)
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.s.Join(ctx, nil, a.Table, JoinRequest{Name: "Ben"})
	if refuse.Status(err) != http.StatusConflict || !strings.Contains(err.Error(), "Ann's account was closed") {
		t.Fatalf("Ben's join: %v, want 409 saying why", err)
	}
	if len(asked) != 1 || asked[0].Name != "Ann" || !asked[0].Guest {
		t.Errorf("MayPlay was asked about %+v, want Ann, a guest", asked)
	}
	u, err := f.s.View(ctx, nil, a.Table)
	if err != nil || u.Table.Status != "open" || u.Table.Seats[1].Kind != "open" {
		t.Errorf("the table after the refused join: %+v, %v", u.Table, err)
	}
}

// closings stands for the accounts a moderator closed, as the root's
// MayPlay reads them from the store.
type closings struct {
	mu     sync.Mutex
	closed map[string]bool
}

// close closes identity's account and then sweeps its seats, in the order
// the moderation does: the close is stored, then Vacate runs.
func (c *closings) close(ctx context.Context, s *Service, identity string) error {
	c.mu.Lock()
	c.closed[identity] = true
	c.mu.Unlock()
	return s.Vacate(ctx, identity, "a moderator closed the account")
}

// mayPlay is the root's MayPlay on c.
func (c *closings) mayPlay(ctx context.Context, others []PairedSeat) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, o := range others {
		if !o.Guest && c.closed[o.Identity] {
			return refuse.Conflict("%s's account was closed by a moderator", o.Name)
		}
	}
	return nil
}

// TestCloseRacesASeating: a moderator's close that lands after a join or
// a challenge's acceptance checked its players, but before it seated
// them, leaves the closed account at no table: the sweep found no seat
// then, so the seating itself refuses it, in the player's words.
func TestCloseRacesASeating(t *testing.T) {
	t.Parallel()
	const ann, rob = "ann-id", "rob-id"
	tests := []struct {
		name string
		// annAt counts the tables Ann is left at: her own, or none
		// when the table was made for the two of them.
		annAt int
		// seat seats Robin beside Ann, closing Robin's account (c.close)
		// after the checks a request makes before it reaches the table.
		seat func(ctx context.Context, f *fixture, c *closings) error
	}{
		{"join", 1, func(ctx context.Context, f *fixture, c *closings) error {
			made, err := f.s.Create(ctx, &auth.Principal{Identity: ann}, CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
			if err != nil {
				return err
			}
			_, err = f.s.Join(ctx, &auth.Principal{Identity: rob}, made.Table, JoinRequest{})
			return err
		}},
		{"accept", 0, func(ctx context.Context, f *fixture, c *closings) error {
			now := time.Now()
			ch := store.Challenge{ID: "ch", From: ann, To: rob, Game: "guess", Status: store.ChallengeOpen, Created: now, Expires: now.Add(time.Hour)}
			if err := f.db.CreateChallenge(ctx, ch, store.ChallengeCaps{}); err != nil {
				return err
			}
			// The acceptance checked Ann's account and Robin's session
			// before it asked for the table; the close withdraws the
			// challenge only after its sweep of the tables.
			if err := c.close(ctx, f.s, rob); err != nil {
				return err
			}
			_, err := f.s.Pair(ctx, Pairing{Game: servertest.Guess{}, Rules: servertest.Config(100).Rules, Asker: rob, Challenge: ch.ID,
				Seats: []PairedSeat{{Identity: ann, Name: "Ann"}, {Identity: rob, Name: "Robin"}}})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			c := &closings{closed: map[string]bool{}}
			f := &fixture{t: t, dir: t.TempDir(), mayPlay: c.mayPlay}
			// A join asks MayJoin last before it takes the table's lock
			// to seat the joiner: the close lands there.
			f.mayJoin = func(ctx context.Context, joiner string, others []PairedSeat) error {
				if joiner == rob {
					return c.close(ctx, f.s, rob)
				}
				return nil
			}
			f.open()
			t.Cleanup(f.close)
			for _, a := range []struct{ id, name string }{{ann, "Ann"}, {rob, "Robin"}} {
				if _, err := f.db.CreateAccount(ctx, store.Account{Identity: a.id, Name: a.name, Key: a.id, Hash: "x", Created: time.Now()},
					store.Credential{Hash: []byte(a.id), Identity: a.id}, &store.Identity{ID: a.id, Name: a.name, Created: time.Now()}); err != nil {
					t.Fatal(err)
				}
			}
			err := tt.seat(ctx, f, c)
			if refuse.Status(err) != http.StatusConflict || !strings.Contains(err.Error(), "Robin's account was closed by a moderator") {
				t.Errorf("the seating: %v, want 409 saying Robin's account was closed", err)
			}
			if got := f.s.SeatedAt(rob); len(got) != 0 {
				t.Errorf("Robin, closed, sits at %+v", got)
			}
			if got := f.s.SeatedAt(ann); len(got) != tt.annAt {
				t.Errorf("Ann sits at %d tables, want %d", len(got), tt.annAt)
			}
		})
	}
}
