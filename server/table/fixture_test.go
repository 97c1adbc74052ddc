package table

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"parlour/game"
	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/store"
	"parlour/store/sqlite"
)

// fixture is a table service on a SQLite store of its own, playing the
// fake game of servertest.
type fixture struct {
	t   *testing.T
	dir string
	db  *sqlite.Store
	s   *Service
	// idleEvict is the service's Config.IdleEvict (0: the default).
	idleEvict time.Duration
	// parkAfter is the service's Config.ParkAfter (0: the default).
	parkAfter time.Duration
	// clock is the service's Config.Clock (nil: the system's).
	clock Clock
	// wrap, when set, wraps the store the service is given.
	wrap func(store.Store) store.Store
	// observers hear of the games that start and finish.
	observers []Observer
	// shut is the read gate (Config.Shut).
	shut Shut
	// place says where the tables run (Config.Placement).
	place Placement
	// chatGate is asked about each chat message (Config.ChatGate).
	chatGate func(ctx context.Context, identity, text string) error
	// mayPlay may refuse a game beside others (Config.MayPlay).
	mayPlay MayPlay
	// mayJoin may refuse a join beside others (Config.MayJoin).
	mayJoin MayJoin
	// newBot makes the computer players (nil: servertest.Bots).
	newBot func(gameName, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error)
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, dir: t.TempDir()}
	f.open()
	t.Cleanup(f.close)
	return f
}

func (f *fixture) open() {
	f.t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(f.dir, "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		f.t.Fatal(err)
	}
	f.db = db
	var st store.Store = db
	if f.wrap != nil {
		st = f.wrap(db)
	}
	bots := f.newBot
	if bots == nil {
		bots = servertest.Bots
	}
	s, err := New(context.Background(), Config{Store: st, Games: servertest.Registry(), NewBot: bots, Lexicon: servertest.Lexicon,
		BaseURL: "http://test", BotTimeout: 5 * time.Second, IdleEvict: f.idleEvict, ParkAfter: f.parkAfter, Clock: f.clock, Observers: f.observers, Shut: f.shut, Placement: f.place, ChatGate: f.chatGate, MayPlay: f.mayPlay, MayJoin: f.mayJoin})
	if err != nil {
		f.t.Fatal(err)
	}
	f.s = s
}

func (f *fixture) close() {
	if f.s != nil {
		f.s.Close()
		f.db.Close()
		f.s = nil
	}
}

// principal resolves tok as the doors would.
func (f *fixture) principal(tok string) *auth.Principal {
	f.t.Helper()
	p, err := f.s.auth.Authenticate(context.Background(), tok)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

// bisect returns the next guess from a seat's view.
func bisect(t *testing.T, u Update, maxN int) string {
	t.Helper()
	m, err := servertest.GuessBot{}.Move(context.Background(), game.Config{Rules: game.Rules{"max": maxN}}, u.Seat, u.View)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
