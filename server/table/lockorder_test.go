package table

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"parlour/server/internal/servertest"
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
		{"the lobby", func(s *Service) { s.lobbyHere(store.Open, "", 10, apart{}) }},
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

// TestRematchThinksOutsideTheTableLock: while the computer makes the
// hidden setup of a solitaire game's rematch, the finished table's lock
// is free, so that the lobby, the player's tables and the finished game
// itself answer meanwhile rather than wait for the computer; the rematch
// then attacks the setup the computer made.
func TestRematchThinksOutsideTheTableLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f, bot := slowSetupsFixture(t, false)
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := f.s.table(ctx, a.Table)
	if err != nil {
		t.Fatal(err)
	}
	tb.mu.Lock()
	var hiddenSetup servertest.GuessSetup
	err = json.Unmarshal(tb.m.Seats[0].Setup, &hiddenSetup)
	tb.unlock()
	if err != nil {
		t.Fatal(err)
	}
	p := f.principal(a.Token)
	if _, err := f.s.Move(ctx, p, a.Table, MoveRequest{Move: fmt.Sprintf("guess %d", hiddenSetup.Number)}); err != nil {
		t.Fatal(err)
	}

	bot.held.Store(true)
	type rematched struct {
		r   Seated
		err error
	}
	done := make(chan rematched, 1)
	go func() {
		r, err := f.s.Rematch(ctx, p, a.Table)
		done <- rematched{r, err}
	}()
	select {
	case <-bot.thinks:
	case r := <-done:
		t.Fatalf("the rematch did not ask the computer for its setup: %+v", r)
	}
	for _, c := range []struct {
		name string
		read func() error
	}{
		{"the lobby", func() error { _, err := f.s.Lobby(ctx, store.Open, 10); return err }},
		{"the player's tables", func() error { f.s.SeatedAt(p.Identity); return nil }},
		{"the finished game", func() error { _, err := f.s.View(ctx, p, a.Table); return err }},
	} {
		read := make(chan error, 1)
		go func() { read <- c.read() }()
		select {
		case err := <-read:
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		case <-bot.gaveUp:
			t.Fatalf("%s waited for the computer's setup of the rematch until the server gave up on it", c.name)
		case <-time.After(30 * time.Second):
			close(bot.letGo)
			t.Fatalf("%s waited for the computer's setup of the rematch", c.name)
		}
	}
	close(bot.letGo)
	r := <-done
	if r.err != nil {
		t.Fatalf("the rematch: %v", r.err)
	}
	next, err := f.s.table(ctx, r.r.Table)
	if err != nil {
		t.Fatal(err)
	}
	next.mu.Lock()
	defer next.unlock()
	st := next.m.Seats[0]
	var made servertest.GuessSetup
	if err := json.Unmarshal(st.Setup, &made); err != nil || !st.Hidden || next.m.MakerRandom || next.m.Maker != tb.m.Maker || made.Number != hiddenSetup.Number {
		t.Errorf("the rematch's seat: hidden %v, setup %s, maker %q (random %v); want the computer's hidden setup, by %q",
			st.Hidden, st.Setup, next.m.Maker, next.m.MakerRandom, tb.m.Maker)
	}
}
