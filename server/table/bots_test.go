package table

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"parlour/game"
	"parlour/lexicon"
	"parlour/server/internal/servertest"
)

// TestStopWhileTheComputerSetsUp: a server that stops while a computer
// seat thinks over its setup stores none on the way out; the next server
// asks the computer again, and the seat plays the computer's own setup,
// not a random one made as the first server closed.
func TestStopWhileTheComputerSetsUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f, bot := slowSetupsFixture(t, true)
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "computer"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	<-bot.thinks
	f.close() // the computer gives up as the server stops
	bot.held.Store(false)
	f.open()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		tb, err := f.s.table(ctx, a.Table)
		if err != nil {
			t.Fatal(err)
		}
		tb.mu.Lock()
		setup := tb.m.Seats[1].Setup
		tb.unlock()
		if setup != nil {
			var made servertest.GuessSetup
			if err := json.Unmarshal(setup, &made); err != nil || made.Number != 100/3 {
				t.Errorf("the computer's seat plays %s; want the computer's own setup, number %d", setup, 100/3)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the next server made no setup for the computer's seat")
		}
	}
}

// slowSetups is Guess's computer, whose setups wait while held is set
// until let go: a computer thinking for seconds over a solitaire game's
// hidden setup.
type slowSetups struct {
	servertest.GuessBot
	held   *atomic.Bool
	thinks chan struct{}
	letGo  chan struct{}
	// gaveUp is closed when the server stopped waiting for the setup.
	gaveUp chan struct{}
}

func (b slowSetups) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	if b.held.Load() {
		b.thinks <- struct{}{}
		select {
		case <-b.letGo:
		case <-ctx.Done():
			close(b.gaveUp)
			return nil, ctx.Err()
		}
	}
	return b.GuessBot.Setup(ctx, cfg, seat)
}

// slowSetupsFixture is a table service whose computer players are
// slowSetups, held from the start or not.
func slowSetupsFixture(t *testing.T, held bool) (*fixture, slowSetups) {
	bot := slowSetups{held: new(atomic.Bool), thinks: make(chan struct{}, 1), letGo: make(chan struct{}), gaveUp: make(chan struct{})}
	bot.held.Store(held)
	f := &fixture{t: t, dir: t.TempDir(), newBot: func(gameName, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
		if _, err := servertest.Bots(gameName, level, seed, lex); err != nil {
			return nil, err
		}
		b := bot
		b.GuessBot.Level = level
		return b, nil
	}}
	f.open()
	t.Cleanup(f.close)
	return f, bot
}
