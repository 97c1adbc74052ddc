package tournament_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/table"
	"parlour/server/table/tabletest"
	"parlour/server/tournament"
	"parlour/store"
	"parlour/store/sqlite"
)

// events is an event service and the table service under it, on a
// SQLite store of the test's own and a clock the test moves, from
// 2026-05-01 18:00 UTC; the tables' ends reach the events (observer).
type events struct {
	st     *sqlite.Store
	clock  *tabletest.Clock
	tables *table.Service
	ts     *tournament.Service
	// obs hands the tables' ends to ts, or to the service that takes
	// its place (a restart).
	obs *observer
}

// newEvents builds events; tune, when set, changes the event service's
// config (its Store, Tables and Games set) before the service is made.
func newEvents(t *testing.T, tune func(*tournament.Config)) *events {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &events{st: st, clock: tabletest.NewClock(time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC))}
	obs := &observer{}
	e.obs = obs
	if e.tables, err = table.New(ctx, table.Config{Store: st, Games: servertest.Registry(), Lexicon: servertest.Lexicon, Clock: e.clock, Observers: []table.Observer{obs}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.tables.Close)
	cfg := tournament.Config{Store: st, Tables: e.tables, Games: servertest.Registry()}
	if tune != nil {
		tune(&cfg)
	}
	if e.ts, err = tournament.New(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.ts.Close)
	obs.ts = e.ts
	return e
}

// restart makes a new event service on st (the store the events were
// built on, or one standing in for it) and the same tables, as after a
// restart of the server, and has the tables' ends reach it. The old
// service must have been closed.
func (e *events) restart(t *testing.T, st store.Store) *tournament.Service {
	t.Helper()
	ts, err := tournament.New(context.Background(), tournament.Config{Store: st, Tables: e.tables, Games: servertest.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ts.Close)
	e.obs.ts = ts
	return ts
}
