package table

import (
	"context"
	"net/http"
	"testing"
	"time"

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
	left, err := f.s.leave(ctx, tb, pa)
	tb.mu.Unlock()
	if err != nil || !left.Cancelled {
		t.Fatalf("Ann leaves: %+v, %v", left, err)
	}
	if err := <-read; refuse.Status(err) != http.StatusGone {
		t.Fatalf("the read that waited for the table: %v, want 410", err)
	}
}
