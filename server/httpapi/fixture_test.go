package httpapi

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/server/analyses"
	"parlour/server/auth"
	"parlour/server/daily"
	"parlour/server/internal/servertest"
	"parlour/server/limit"
	"parlour/server/players"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store/sqlite"
)

// newTestHandler returns a Handler with limits lim over parts of its
// own, built as the composition root builds them on a single node, on a
// fresh SQLite store. (The whole server's tests, clusters included, are
// the root package's.)
func newTestHandler(t testing.TB, lim limit.Limits) (*Handler, *table.Service) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	reg := prometheus.NewRegistry()
	a := auth.New(st, log, 0)
	ts, err := table.New(ctx, table.Config{Store: st, Games: servertest.Registry(), Lexicon: servertest.Lexicon, Logger: log, Auth: a, Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ts.Close()
		st.Close()
	})
	games := servertest.Registry()
	ps, err := players.New(players.Config{Store: st, Tables: ts, Auth: a, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	so := social.New(social.Config{Tables: ts, Players: ps, Store: st, Games: games, Logger: log, Clock: ts.Config().Clock})
	t.Cleanup(so.Close)
	h, err := New(Config{
		Tables: ts, Players: ps, Social: so, Auth: a, Games: games, Store: st, Metrics: reg, Limits: lim, Logger: log,
		Daily:    daily.New(daily.Config{Tables: ts, Store: st, Games: games, Logger: log, Accounts: ps}),
		Analyses: analyses.New(ts, st, games, log),
	})
	if err != nil {
		t.Fatal(err)
	}
	return h, ts
}

// generous lets the tests ask as often as they like.
var generous = limit.Limits{PerIdentity: 1e6, PerIdentityBurst: 1e6, NewGuests: 1e6, NewGuestsBurst: 1e6, SignIns: 1e6, SignInsBurst: 1e6, SignInsPerName: 1e6, SignInsPerNameBurst: 1e6}
