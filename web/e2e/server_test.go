// Package e2e drives Parlour's browser client in real Chromium against a
// real server on a loopback port: people play whole games against each
// other from separate browser contexts, and the tests check what each
// screen shows after every move, what each browser received, and how
// fast a move reaches the other screen.
package e2e

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"parlour/games"
	"parlour/server"
	"parlour/store/sqlite"
	"parlour/web"
)

// startServer runs the table service with its embedded store in a
// temporary directory, its API and the browser client on one loopback
// port, as parlour serve does, and returns the base URL.
func startServer(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatalf("opening the store: %v", err)
	}
	ts := httptest.NewUnstartedServer(nil)
	base := "http://" + ts.Listener.Addr().String()
	svc, err := server.New(ctx, server.Config{Store: st, Games: games.Registry(), NewBot: games.NewBot, BaseURL: base})
	if err != nil {
		t.Fatalf("starting the table service: %v", err)
	}
	api := server.NewHandler(svc, server.Limits{})
	api.ServeStatic(web.Handler())
	ts.Config.Handler = api
	ts.Config.ConnContext = api.ConnContext
	ts.Start()
	t.Cleanup(func() {
		api.CloseSockets("the test is over")
		ts.Close()
		svc.Close()
		st.Close()
	})
	return base
}
