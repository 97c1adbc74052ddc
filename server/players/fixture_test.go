package players

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/table"
	"parlour/store/sqlite"
)

// testPassword is a password every check accepts.
const testPassword = "a long secret phrase"

// fixture is a players service, with the table service under it, on a
// SQLite store of its own.
type fixture struct {
	t      *testing.T
	db     *sqlite.Store
	auth   *auth.Auth
	tables *table.Service
	s      *Service
}

// newFixture builds a fixture; tune, when set, changes the players'
// config before the service is built.
func newFixture(t *testing.T, tune func(*Config)) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, db: db, auth: auth.New(db, slog.New(slog.DiscardHandler), 0)}
	f.tables, err = table.New(ctx, table.Config{Store: db, Games: servertest.Registry(), NewBot: servertest.Bots,
		Lexicon: servertest.Lexicon, BaseURL: "http://test", Auth: f.auth})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		f.tables.Close()
		db.Close()
	})
	cfg := Config{Store: db, Tables: f.tables, Auth: f.auth}
	if tune != nil {
		tune(&cfg)
	}
	if f.s, err = New(cfg); err != nil {
		t.Fatal(err)
	}
	return f
}

// principal resolves tok as the doors would.
func (f *fixture) principal(tok string) *auth.Principal {
	f.t.Helper()
	p, err := f.auth.Authenticate(context.Background(), tok)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

// signUp makes an account called name and returns its principal.
func (f *fixture) signUp(name string) *auth.Principal {
	f.t.Helper()
	sess, err := f.s.SignUp(context.Background(), nil, name, testPassword)
	if err != nil {
		f.t.Fatal(err)
	}
	return f.principal(sess.Token)
}

// fakePeers records what the players' side asks of the other nodes.
type fakePeers struct {
	mu        sync.Mutex
	forgotten [][]byte
	seated    []table.SeatedTable
	err       error
}

func (p *fakePeers) ForgetEverywhere(ctx context.Context, hashes [][]byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.forgotten = append(p.forgotten, hashes...)
}

func (p *fakePeers) SeatedElsewhere(ctx context.Context, identity string) ([]table.SeatedTable, error) {
	return p.seated, p.err
}
