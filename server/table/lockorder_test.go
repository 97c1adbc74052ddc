package table

import (
	"context"
	"testing"
	"time"

	"parlour/store"
)

// TestListsNeverWaitForATableUnderTheServiceLock: a table may hold its
// lock and then take the service's, as a rematch does to insert its new
// table after the computer has hidden its setup. Whatever walks the
// tables (the seats of a player, the lobby, a renamed account, the close)
// takes each table's lock after letting go of the service's, so that the
// two never wait for each other: under the service's lock, waiting for a
// table held so would never end, and every lookup would wait behind it.
func TestListsNeverWaitForATableUnderTheServiceLock(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		walk func(*Service)
	}{
		{"the seats of a player", func(s *Service) { s.SeatedAt("nobody") }},
		{"the lobby", func(s *Service) { s.lobbyHere(store.Open, "", 10) }},
		{"a renamed account", func(s *Service) { s.Renamed("nobody", "Nobody", true) }},
		{"the rated games under way", func(s *Service) { s.ratedUnderWay() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			a, err := f.s.Create(context.Background(), nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
			if err != nil {
				t.Fatal(err)
			}
			f.s.mu.RLock()
			tb := f.s.tables[a.Table]
			f.s.mu.RUnlock()
			// The table holds its lock, as a rematch does while the
			// computer hides its setup.
			tb.mu.Lock()
			walked := make(chan struct{})
			go func() {
				c.walk(f.s)
				close(walked)
			}()
			// Until the walk holds the service's lock, or has let go of
			// it to wait for the table's (a second at most).
			for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				if !f.s.mu.TryLock() {
					break
				}
				f.s.mu.Unlock()
			}
			// The table, still holding its lock, takes the service's.
			locked := make(chan struct{})
			go func() {
				f.s.mu.Lock()
				close(locked)
				f.s.mu.Unlock()
			}()
			var stuck bool
			select {
			case <-locked:
			case <-time.After(30 * time.Second):
				stuck = true
			}
			// Let go of the table either way, so that a walk stuck
			// behind it ends and the fixture can close.
			tb.unlock()
			<-locked
			<-walked
			if stuck {
				t.Fatal("the walk held the service's lock while it waited for the table's, and the table waited for the service's")
			}
		})
	}
}
