package table

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/refuse"
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
