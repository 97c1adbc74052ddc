package analyses_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/games"
	"parlour/server/analyses"
	"parlour/server/auth"
	"parlour/server/table"
	"parlour/store/sqlite"
)

// fixture is a cache of analyses over a table service playing the real
// games, on a SQLite store in a directory that outlives a restart.
type fixture struct {
	t      *testing.T
	db     *sqlite.Store
	auth   *auth.Auth
	tables *table.Service
	cache  *analyses.Cache
	reg    *prometheus.Registry
}

// newFixture opens the store in dir, with a table service and a cache of
// its own on it.
func newFixture(t *testing.T, dir string) *fixture {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(dir, "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, db: db, auth: auth.New(db, nil, 0), reg: prometheus.NewRegistry()}
	f.tables, err = table.New(context.Background(), table.Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, Auth: f.auth})
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	f.cache = analyses.New(f.tables, db, games.Registry(), nil)
	if err := f.cache.Register(f.reg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.close)
	return f
}

// close stops the table service and closes the store; a second call does
// nothing.
func (f *fixture) close() {
	if f.tables != nil {
		f.tables.Close()
		f.db.Close()
		f.tables = nil
	}
}

// computed reads parlour_analyses_computed_total off the fixture's
// registry, as /metrics shows it.
func (f *fixture) computed() float64 {
	f.t.Helper()
	mfs, err := f.reg.Gather()
	if err != nil {
		f.t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "parlour_analyses_computed_total" {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	f.t.Fatal("no parlour_analyses_computed_total registered")
	return 0
}

// play creates a table of game for seats (one "me"), sets it up when
// setup is given, plays the person's moves (the last with Wait, so that
// the computer answers: a resignation before every player has moved
// aborts the game) and resigns. It returns the table's id.
func (f *fixture) play(game string, seats []string, setup *table.SetupRequest, moves ...string) string {
	f.t.Helper()
	ctx := context.Background()
	a, err := f.tables.Create(ctx, nil, table.CreateRequest{Game: game, Seats: seats})
	if err != nil {
		f.t.Fatal(err)
	}
	p, err := f.auth.Authenticate(ctx, a.Token)
	if err != nil {
		f.t.Fatal(err)
	}
	if setup != nil {
		if _, err := f.tables.Setup(ctx, p, a.Table, *setup); err != nil {
			f.t.Fatalf("setup: %v", err)
		}
	}
	for i, mv := range moves {
		if _, err := f.tables.Move(ctx, p, a.Table, table.MoveRequest{Move: mv, Wait: i == len(moves)-1}); err != nil {
			f.t.Fatalf("%s: %v", mv, err)
		}
	}
	if _, err := f.tables.Move(ctx, p, a.Table, table.MoveRequest{Move: "resign"}); err != nil {
		f.t.Fatalf("resign: %v", err)
	}
	return a.Table
}
