package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"parlour/account"
	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/server/daily"
	"parlour/server/internal/servertest"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
	"parlour/store/postgres/pgtest"
	"parlour/store/sqlite"
)

type fixture struct {
	t   *testing.T
	dir string
	// kind, when set, is the store the fixture runs on, at where;
	// otherwise it is SQLite in dir, and db is set.
	kind  *servertest.StoreKind
	where string
	db    *sqlite.Store
	st    store.Store // the store the service runs on (db, or kind's)
	s     *Service
	// idleEvict is the service's Config.IdleEvict (0: the default).
	idleEvict time.Duration
	// maxWait is the service's Config.MaxWait (0: the default).
	maxWait time.Duration
	// openExpiry is the service's Config.OpenExpiry (0: the default).
	openExpiry time.Duration
	// wrap, when set, wraps the store the service is given.
	wrap func(store.Store) store.Store
	// tune, when set, changes the service's Config before it is built.
	tune func(*Config)
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, dir: t.TempDir()}
	f.open()
	t.Cleanup(f.close)
	return f
}

// newFixtureOn is newFixture on a fresh store of kind k.
func newFixtureOn(t *testing.T, k servertest.StoreKind) *fixture {
	f := &fixture{t: t, dir: t.TempDir(), kind: &k, where: k.Fresh(t)}
	f.open()
	t.Cleanup(f.close)
	return f
}

func (f *fixture) open() {
	f.t.Helper()
	var db store.Store
	var err error
	if f.kind != nil {
		db, err = f.kind.Open(context.Background(), f.where, false)
	} else {
		f.db, err = sqlite.Open(context.Background(), filepath.Join(f.dir, "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
		db = f.db
	}
	if err != nil {
		f.t.Fatal(err)
	}
	if f.wrap != nil {
		db = f.wrap(db)
	}
	cfg := Config{Store: db, Games: servertest.Registry(), NewBot: servertest.Bots, Lexicon: servertest.Lexicon, BaseURL: "http://test", BotTimeout: 5 * time.Second, IdleEvict: f.idleEvict, MaxWait: f.maxWait, OpenExpiry: f.openExpiry}
	if f.tune != nil {
		f.tune(&cfg)
	}
	s, err := New(context.Background(), cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	f.st, f.s = db, s
}

func (f *fixture) close() {
	if f.s != nil {
		f.s.Close()
		if f.st != nil {
			f.st.Close()
		} else {
			f.db.Close() // a fixture of its own making (accounts, invites)
		}
		f.s = nil
	}
}

func (f *fixture) restart() {
	f.close()
	f.open()
}

func (f *fixture) principal(tok string) *auth.Principal {
	f.t.Helper()
	p, err := f.s.auth.Authenticate(context.Background(), tok)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

// annAndBen seats Ann and then Ben, both guests, at a new table of the
// fake game for two, and returns Ann's seat and both principals.
func (f *fixture) annAndBen(ctx context.Context) (table.Seated, *auth.Principal, *auth.Principal) {
	f.t.Helper()
	a, err := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		f.t.Fatal(err)
	}
	b, err := f.s.Join(ctx, nil, a.Table, table.JoinRequest{Name: "Ben"})
	if err != nil {
		f.t.Fatal(err)
	}
	return a, f.principal(a.Token), f.principal(b.Token)
}

func wantStatus(t *testing.T, err error, status int) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want status %d", status)
	}
	if got := refuse.Status(err); got != status {
		t.Fatalf("error %q has status %d, want %d", err, got, status)
	}
}

func setupOf(n int) json.RawMessage { return json.RawMessage(fmt.Sprintf(`{"number": %d}`, n)) }

// bisect returns the next guess from a seat's view.
func bisect(t *testing.T, u table.Update, maxN int) string {
	t.Helper()
	m, err := servertest.GuessBot{}.Move(context.Background(), game.Config{Rules: game.Rules{"max": maxN}}, u.Seat, u.View)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTwoPeoplePlayToTheEnd(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		ctx := context.Background()
		f := newFixtureOn(t, k)
		ann, err := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Rules: map[string]json.RawMessage{"max": json.RawMessage("1000")}, Seats: []string{"me", "open"}, Name: "Ann"})
		if err != nil {
			t.Fatal(err)
		}
		if ann.Seat != 0 || ann.Invite != "http://test/t/"+ann.Table || len(ann.Token) < 40 {
			t.Fatalf("create answered %+v", ann)
		}
		lobby, _ := f.s.Lobby(ctx, store.Open, 10)
		if len(lobby) != 1 || lobby[0].ID != ann.Table {
			t.Fatalf("lobby = %+v", lobby)
		}
		pa := f.principal(ann.Token)
		_, err = f.s.Move(ctx, pa, ann.Table, table.MoveRequest{Move: "guess 5"})
		wantStatus(t, err, http.StatusConflict)
		ben, err := f.s.Join(ctx, nil, ann.Table, table.JoinRequest{Name: "Ann"})
		if err != nil {
			t.Fatal(err)
		}
		pb := f.principal(ben.Token)
		if _, err := f.s.Join(ctx, nil, ann.Table, table.JoinRequest{}); refuse.Status(err) != http.StatusConflict {
			t.Fatalf("joining a full table: %v", err)
		}
		u, _ := f.s.View(ctx, pb, ann.Table)
		if u.Table.Seats[1].Name != "Ann 2" || u.Table.Status != store.Setup {
			t.Fatalf("after join: %+v", u.Table)
		}
		// The view names the table's lexicon, for the client's own checks.
		if u.Table.Lexicon != "test" {
			t.Errorf("the view names lexicon %q, want the table's, %q", u.Table.Lexicon, "test")
		}
		if _, err := f.s.Setup(ctx, pa, ann.Table, table.SetupRequest{Setup: setupOf(1001)}); refuse.Status(err) != http.StatusUnprocessableEntity {
			t.Fatalf("bad setup: %v", err)
		}
		if _, err := f.s.Setup(ctx, pa, ann.Table, table.SetupRequest{Setup: setupOf(777)}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.Setup(ctx, pb, ann.Table, table.SetupRequest{Setup: setupOf(888)}); err != nil {
			t.Fatal(err)
		}
		u, _ = f.s.View(ctx, pa, ann.Table)
		if u.Table.Status != store.Playing || len(u.Table.Commitments) != 2 || u.Table.Reveal != nil {
			t.Fatalf("after setups: %+v", u.Table)
		}
		if _, err := f.s.Move(ctx, pb, ann.Table, table.MoveRequest{Move: "guess 5"}); !strings.Contains(fmt.Sprint(err), "not your turn") || refuse.Status(err) != http.StatusConflict {
			t.Fatalf("out of turn: %v", err)
		}
		if _, err := f.s.Move(ctx, pa, ann.Table, table.MoveRequest{Move: "guess lots"}); refuse.Status(err) != http.StatusUnprocessableEntity {
			t.Fatalf("illegal move: %v", err)
		}
		stale := 0
		if _, err := f.s.Move(ctx, pa, ann.Table, table.MoveRequest{Move: "guess 5", Version: &stale}); refuse.Status(err) != http.StatusConflict {
			t.Fatalf("stale version: %v", err)
		}
		players := []*auth.Principal{pa, pb}
		for turn := 0; ; turn++ {
			if turn > 40 {
				t.Fatal("the game does not end")
			}
			p := players[turn%2]
			u, _ := f.s.View(ctx, p, ann.Table)
			if u.Table.Status == store.Finished {
				break
			}
			b, _ := json.Marshal(u)
			other := []string{"888", "777"}[turn%2]
			if indexNumber(string(b), other) >= 0 {
				t.Fatalf("seat %d sees the other seat's secret %s: %s", turn%2, other, b)
			}
			v := u.Version
			res, err := f.s.Move(ctx, p, ann.Table, table.MoveRequest{Move: bisect(t, u, 1000), Version: &v})
			if err != nil {
				t.Fatal(err)
			}
			if res.Version != v+1 || len(res.Events) < 2 {
				t.Fatalf("move answered %+v", res)
			}
		}
		u, _ = f.s.View(ctx, nil, ann.Table)
		if u.Table.Result == nil || len(u.Table.Reveal) != 2 {
			t.Fatalf("finished table: %+v", u.Table)
		}
		for i, r := range u.Table.Reveal {
			if !table.VerifyCommitment(u.Table.Commitments[i], r.Salt, r.Setup) {
				t.Fatalf("commitment %d does not verify", i)
			}
		}
		rec, err := f.s.Record(ctx, nil, ann.Table)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := game.Replay(servertest.Registry(), rec, nil); err != nil {
			t.Fatalf("the finished record does not replay: %v", err)
		}
		if _, err := f.s.Move(ctx, pa, ann.Table, table.MoveRequest{Move: "guess 5"}); refuse.Status(err) != http.StatusConflict {
			t.Fatalf("move after the end: %v", err)
		}
	})
}

func TestRecordHidesOtherSetups(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		ctx := context.Background()
		f := newFixtureOn(t, k)
		a, _ := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
		b, _ := f.s.Join(ctx, nil, a.Table, table.JoinRequest{})
		pa, pb := f.principal(a.Token), f.principal(b.Token)
		f.s.Setup(ctx, pa, a.Table, table.SetupRequest{Setup: setupOf(41)})
		f.s.Setup(ctx, pb, a.Table, table.SetupRequest{Setup: setupOf(42)})
		rec, _ := f.s.Record(ctx, pa, a.Table)
		if len(rec.Setup) != 1 || rec.Seed != nil {
			t.Fatalf("record for seat 0 = %+v", rec)
		}
		rec, _ = f.s.Record(ctx, nil, a.Table)
		if len(rec.Setup) != 0 {
			t.Fatalf("record for a spectator holds setups: %+v", rec.Setup)
		}
	})
}

func TestComputerSeatAndRestart(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		ctx := context.Background()
		f := newFixtureOn(t, k)
		a, err := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "computer:strong"}})
		if err != nil {
			t.Fatal(err)
		}
		pa := f.principal(a.Token)
		// The computer bisects (50, 25, 12...): 1 outlasts its first five
		// guesses. A number drawn at random was found within the test's
		// two turns three times in a hundred, ending the game early.
		if _, err := f.s.Setup(ctx, pa, a.Table, table.SetupRequest{Setup: setupOf(1)}); err != nil {
			t.Fatal(err)
		}
		w, err := f.s.Watch(ctx, pa, a.Table, -1)
		if err != nil {
			t.Fatal(err)
		}
		next := func() table.Update {
			t.Helper()
			wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			u, err := w.Next(wctx)
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
		u := next()
		for u.Table.Status != store.Playing {
			u = next()
		}
		// Make two moves, each answered by the computer, then restart.
		for i := 0; i < 2; i++ {
			if u.Table.ToMove[0] != 0 {
				u = next()
				continue
			}
			if _, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: fmt.Sprintf("guess %d", 1+i)}); err != nil {
				t.Fatal(err)
			}
			for u = next(); len(u.Table.ToMove) > 0 && u.Table.ToMove[0] != 0; u = next() {
			}
		}
		w.Close()
		before := u.Version
		f.restart()
		pa = f.principal(a.Token)
		u, err = f.s.View(ctx, pa, a.Table)
		if err != nil {
			t.Fatal(err)
		}
		if u.Version != before || len(u.View.(servertest.GuessView).Tried) != 2 {
			t.Fatalf("after restart version %d (want %d), view %+v", u.Version, before, u.View)
		}
		// Resume from an old version: every move since comes back, once.
		w, _ = f.s.Watch(ctx, pa, a.Table, before-3)
		u = next()
		if len(u.Moves) != 3 || u.Moves[0].Version != before-2 || u.Moves[2].Version != before {
			t.Fatalf("resumed moves %+v", u.Moves)
		}
		for _, m := range u.Moves {
			for _, e := range m.Events {
				if !e.Visible(0) {
					t.Fatalf("seat 0 was sent an event for %v", e.To)
				}
			}
		}
		w.Close()
		// Play on against the computer to the end.
		for turn := 0; turn < 60; turn++ {
			u, _ = f.s.View(ctx, pa, a.Table)
			if u.Table.Status == store.Finished {
				return
			}
			if len(u.Table.ToMove) == 1 && u.Table.ToMove[0] == 0 {
				if _, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: bisect(t, u, 100)}); err != nil && refuse.Status(err) != http.StatusConflict {
					t.Fatal(err)
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatal("the game against the computer did not end")
	})
}

func TestBrokenComputerResigns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := &fixture{t: t, dir: t.TempDir(), tune: func(c *Config) {
		c.NewBot = func(g, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
			return servertest.GuessBot{Level: "broken"}, nil
		}
	}}
	f.open()
	t.Cleanup(f.close)
	a, _ := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"computer:easy", "me"}})
	pa := f.principal(a.Token)
	f.s.Setup(ctx, pa, a.Table, table.SetupRequest{Setup: setupOf(3)})
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		u, _ := f.s.View(ctx, pa, a.Table)
		if u.Table.Status == store.Finished {
			// It resigned before its first move: the game is aborted.
			if u.Table.Result.Status != game.Aborted || len(u.Table.Result.Winners) != 0 || u.Table.Aborted == nil || u.Table.Aborted.Seat != 0 || u.Table.Aborted.Why != table.AbortResign {
				t.Fatalf("result %+v, %+v", u.Table.Result, u.Table.Aborted)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the broken computer never resigned")
}

func TestSolitaire(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	a, err := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me"}})
	if err != nil {
		t.Fatal(err)
	}
	pa := f.principal(a.Token)
	u, _ := f.s.View(ctx, pa, a.Table)
	if u.Table.Status != store.Playing || u.Setup != nil {
		t.Fatalf("solitaire table %+v, setup %s", u.Table, u.Setup)
	}
	if rec, _ := f.s.Record(ctx, pa, a.Table); len(rec.Setup) != 0 {
		t.Fatalf("the player's record shows the computer's setup: %s", rec.Setup)
	}
	if _, err := f.s.Setup(ctx, pa, a.Table, table.SetupRequest{Setup: setupOf(5)}); refuse.Status(err) != http.StatusConflict {
		t.Fatalf("setup at a solitaire table: %v", err)
	}
	for i := 0; i < 12 && u.Table.Status != store.Finished; i++ {
		if _, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: bisect(t, u, 100)}); err != nil {
			t.Fatal(err)
		}
		u, _ = f.s.View(ctx, pa, a.Table)
	}
	if u.Table.Status != store.Finished || len(u.Table.Reveal) != 1 {
		t.Fatalf("solitaire did not finish: %+v", u.Table)
	}
}

func TestRematchRotatesAndCarriesTheSet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	a, _ := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	b, _ := f.s.Join(ctx, nil, a.Table, table.JoinRequest{Name: "Ben"})
	pa, pb := f.principal(a.Token), f.principal(b.Token)
	f.s.Setup(ctx, pa, a.Table, table.SetupRequest{Setup: setupOf(10)})
	f.s.Setup(ctx, pb, a.Table, table.SetupRequest{Setup: setupOf(20)})
	if _, err := f.s.Rematch(ctx, pa, a.Table); refuse.Status(err) != http.StatusConflict {
		t.Fatalf("rematch before the end: %v", err)
	}
	if _, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: "guess 20"}); err != nil { // Ann guesses Ben's number
		t.Fatal(err)
	}
	ra, err := f.s.Rematch(ctx, pa, a.Table)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := f.s.Rematch(ctx, pb, a.Table)
	if err != nil {
		t.Fatal(err)
	}
	if ra.Table != rb.Table || ra.Seat != 1 || rb.Seat != 0 {
		t.Fatalf("rematch seats: Ann %+v, Ben %+v", ra, rb)
	}
	u, _ := f.s.View(ctx, f.principal(ra.Token), ra.Table)
	if u.Table.Seats[0].Name != "Ben" || u.Table.Set == nil || u.Table.Set.Totals[1] != 1 || u.Table.Set.Games != 1 || u.Table.Prev != a.Table {
		t.Fatalf("rematch table %+v set %+v", u.Table.Seats, u.Table.Set)
	}
	// A seat token of the old table does not act at the new one.
	if _, err := f.s.Setup(ctx, pa, ra.Table, table.SetupRequest{Auto: true}); refuse.Status(err) != http.StatusForbidden {
		t.Fatalf("old token at the rematch: %v", err)
	}
}

func TestCreateRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	for _, tc := range []struct {
		req  table.CreateRequest
		want string
	}{
		{table.CreateRequest{Game: "chess", Seats: []string{"me", "open"}}, "no game"},
		{table.CreateRequest{Game: "guess", Seats: []string{"open", "open"}}, `exactly one "me"`},
		{table.CreateRequest{Game: "guess", Seats: []string{"me", "me"}}, `exactly one "me"`},
		{table.CreateRequest{Game: "guess", Seats: []string{"me", "open", "open", "open"}}, "1 to 3"},
		{table.CreateRequest{Game: "guess", Seats: []string{"me", "robot"}}, "not \"me\""},
		{table.CreateRequest{Game: "guess", Seats: []string{"me", "computer:genius"}}, "not easy"},
		{table.CreateRequest{Game: "guess", Seats: []string{"me"}, Rules: map[string]json.RawMessage{"max": json.RawMessage("5")}}, "out of range"},
		{table.CreateRequest{Game: "guess", Seats: []string{"me"}, Rules: map[string]json.RawMessage{"speed": json.RawMessage("5")}}, "unknown rule option"},
		{table.CreateRequest{Game: "guess", Seats: []string{"me"}, Name: strings.Repeat("x", 41)}, "at most"},
		{table.CreateRequest{Game: "guess", Seats: []string{"me"}, Lexicon: "en"}, "Guess uses no words: leave out the lexicon"},
	} {
		_, err := f.s.Create(ctx, nil, tc.req)
		if err == nil || refuse.Status(err) != http.StatusBadRequest || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Create(%+v) = %v, want a 400 saying %q", tc.req, err, tc.want)
		}
	}
	if l, _ := f.s.Lobby(ctx, store.Open, 10); len(l) != 0 {
		t.Fatalf("refused creates left tables: %+v", l)
	}
	// A game with words refuses a lexicon the server does not have, a
	// path included.
	g := newGamesFixture(t)
	for _, name := range []string{"/etc/passwd", "../en", "klingon"} {
		if _, err := g.s.Create(ctx, nil, table.CreateRequest{Game: "nymphabet", Seats: []string{"me", "open"}, Lexicon: name}); refuse.Status(err) != http.StatusBadRequest || !strings.Contains(err.Error(), "no lexicon") {
			t.Errorf("a Nymphabet table with the lexicon %q: %v, want a 400 saying there is no such lexicon", name, err)
		}
	}
}

func TestForgedTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	a, _ := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	forged := []byte(a.Token)
	forged[3] ^= 1
	for _, tok := range []string{"", "abc", string(forged), a.Token + "x", strings.Repeat("A", 43)} {
		if _, err := f.s.auth.Authenticate(ctx, tok); refuse.Status(err) != http.StatusUnauthorized {
			t.Errorf("token %q: %v", tok, err)
		}
	}
	// Another table's seat token is a spectator here.
	b, _ := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	if _, err := f.s.Setup(ctx, f.principal(b.Token), a.Table, table.SetupRequest{Auto: true}); refuse.Status(err) != http.StatusForbidden {
		t.Fatalf("foreign seat token: %v", err)
	}
	if _, err := f.s.View(ctx, nil, "nosuchtable"); refuse.Status(err) != http.StatusNotFound {
		t.Fatalf("missing table: %v", err)
	}
	if _, err := f.s.Join(ctx, f.principal(a.Token), a.Table, table.JoinRequest{}); refuse.Status(err) != http.StatusConflict {
		t.Fatalf("joining one's own table: %v", err)
	}
}

func TestFailedStoreChangesNothing(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		ctx := context.Background()
		f := newFixtureOn(t, k)
		a, _ := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me"}})
		pa := f.principal(a.Token)
		before, _ := f.s.View(ctx, pa, a.Table)
		f.st.Close() // every write now fails
		_, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: "guess 50"})
		wantStatus(t, err, http.StatusServiceUnavailable)
		after, _ := f.s.View(ctx, pa, a.Table)
		if after.Version != before.Version || len(after.View.(servertest.GuessView).Tried) != 0 {
			t.Fatalf("a move that was not stored changed the table: %+v", after.View)
		}
		if errors.Is(err, store.ErrNotFound) {
			t.Fatal("unexpected")
		}
	})
}

// TestRecordSameAfterRestart plays a game partway, reads its record and
// its table as a seat sees them, restarts the service on the same store,
// and reads them again: byte for byte the same, times included (the
// server keeps times to the microsecond, as PostgreSQL does).
func TestRecordSameAfterRestart(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		ctx := context.Background()
		f := newFixtureOn(t, k)
		a, pa, pb := f.annAndBen(ctx)
		for _, s := range []struct {
			p *auth.Principal
			n int
		}{{pa, 41}, {pb, 42}} {
			if _, err := f.s.Setup(ctx, s.p, a.Table, table.SetupRequest{Setup: setupOf(s.n)}); err != nil {
				t.Fatal(err)
			}
		}
		for i, g := range []string{"guess 50", "guess 50", "guess 25"} {
			p := pa
			if i%2 == 1 {
				p = pb
			}
			if _, err := f.s.Move(ctx, p, a.Table, table.MoveRequest{Move: g}); err != nil {
				t.Fatal(err)
			}
		}
		read := func() (rec, view []byte) {
			t.Helper()
			r, err := f.s.Record(ctx, pa, a.Table)
			if err != nil {
				t.Fatal(err)
			}
			u, err := f.s.View(ctx, pa, a.Table)
			if err != nil {
				t.Fatal(err)
			}
			rec, _ = json.Marshal(r)
			for i := range u.Table.Seats {
				// Who is here is not kept.
				u.Table.Seats[i].AwaySince, u.Table.Seats[i].ClaimAt, u.Table.Seats[i].ClaimIn, u.Table.Seats[i].AbsentSince = nil, nil, nil, nil
			}
			view, _ = json.Marshal(u.Table)
			return rec, view
		}
		rec, view := read()
		f.restart()
		pa = f.principal(a.Token)
		rec2, view2 := read()
		if string(rec) != string(rec2) {
			t.Errorf("the record changed over a restart:\n%s\n%s", rec, rec2)
		}
		if string(view) != string(view2) {
			t.Errorf("the table changed over a restart:\n%s\n%s", view, view2)
		}
	})
}

// fillingStore is a store whose disk fills up: after room writes, every
// write is refused for lack of space (room < 0: never).
type fillingStore struct {
	store.Store
	mu     sync.Mutex
	room   int
	writes int
}

func (f *fillingStore) write() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.room >= 0 && f.writes >= f.room {
		return fmt.Errorf("fake disk: %w", store.ErrNoSpace)
	}
	f.writes++
	return nil
}

func (f *fillingStore) fill(room int) {
	f.mu.Lock()
	f.room, f.writes = room, 0
	f.mu.Unlock()
}

func (f *fillingStore) CreateIdentity(ctx context.Context, id store.Identity, c store.Credential) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.CreateIdentity(ctx, id, c)
}

func (f *fillingStore) AddCredential(ctx context.Context, c store.Credential) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.AddCredential(ctx, c)
}

func (f *fillingStore) CreateTable(ctx context.Context, t store.Table) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.CreateTable(ctx, t)
}

func (f *fillingStore) UpdateTable(ctx context.Context, id string, st store.Status, meta []byte) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.UpdateTable(ctx, id, st, meta)
}

func (f *fillingStore) AppendMove(ctx context.Context, id string, m store.Move, u *store.Update) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.AppendMove(ctx, id, m, u)
}

func (f *fillingStore) Write(ctx context.Context, b store.Batch) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.Write(ctx, b)
}

// TestFullDiskLeavesNothingHalfMade lets the disk fill after each number of
// writes in turn while a guest creates a table, a guest joins it and a new
// identity is made: each request either succeeds whole or answers 503 and
// leaves nothing behind.
func TestFullDiskLeavesNothingHalfMade(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		ctx := context.Background()
		db, _ := k.OpenFresh(t)
		fs := &fillingStore{Store: db, room: -1}
		s, err := New(ctx, Config{Store: fs, Games: servertest.Registry(), NewBot: servertest.Bots, Lexicon: servertest.Lexicon, BotTimeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for room := range 8 {
			fs.fill(-1)
			before, _ := db.Recent(ctx, store.Open, 100)
			fs.fill(room)
			a, err := s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open", "open"}, Name: "Ann"})
			if err != nil {
				wantStatus(t, err, http.StatusServiceUnavailable)
				if !strings.Contains(err.Error(), "nothing changed") {
					t.Errorf("room for %d writes: create said %q", room, err)
				}
				if after, _ := db.Recent(ctx, store.Open, 100); len(after) != len(before) {
					t.Errorf("room for %d writes: a refused create left a table", room)
				}
				continue
			}
			if _, err := s.auth.Authenticate(ctx, a.Token); err != nil {
				t.Fatalf("room for %d writes: the creator's token: %v", room, err)
			}
			b, err := s.Join(ctx, nil, a.Table, table.JoinRequest{Name: "Ben"})
			u, verr := s.View(ctx, nil, a.Table)
			if verr != nil {
				t.Fatal(verr)
			}
			if err != nil {
				wantStatus(t, err, http.StatusServiceUnavailable)
				if u.Table.Seats[1].Kind != "open" {
					t.Errorf("room for %d writes: a refused join took seat 1: %+v", room, u.Table.Seats[1])
				}
				stored, _ := db.Table(ctx, a.Table)
				if strings.Contains(string(stored.Meta), "Ben") {
					t.Errorf("room for %d writes: a refused join is stored: %s", room, stored.Meta)
				}
			} else if _, err := s.auth.Authenticate(ctx, b.Token); err != nil {
				t.Errorf("room for %d writes: Ben holds a seat without a token: %v", room, err)
			}
			if _, err := s.NewIdentity(ctx, "Cy"); err != nil {
				wantStatus(t, err, http.StatusServiceUnavailable)
			}
		}
		// With room again, everything works.
		fs.fill(-1)
		solo, err := s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me"}})
		if err != nil {
			t.Fatal(err)
		}
		p, _ := s.auth.Authenticate(ctx, solo.Token) // solitaire: play has started
		// A move the full disk refuses says so, and changes nothing.
		fs.fill(0)
		_, err = s.Move(ctx, p, solo.Table, table.MoveRequest{Move: "guess 50"})
		wantStatus(t, err, http.StatusServiceUnavailable)
		if !strings.Contains(err.Error(), "run out of room") {
			t.Errorf("a move refused for want of room said %q", err)
		}
		fs.fill(-1)
		if _, err := s.Move(ctx, p, solo.Table, table.MoveRequest{Move: "guess 50"}); err != nil {
			t.Fatalf("the move again, with room: %v", err)
		}
	})
}

// TestFullDiskAttack fills the disk under a server of one's choosing
// whose data lies on a small file system of its own (skipped unless PARLOUR_ATTACK_URL names the server and
// PARLOUR_ATTACK_FILL a directory on that file system, writable here).
// It opens PARLOUR_ATTACK_TABLES (100) two-seat tables with room to spare,
// fills the file system with a file of its own, then makes
// PARLOUR_ATTACK_ROUNDS (100) rounds of a create, a new identity and a
// guest's join of one of those tables, counting the answers of each by
// status and the half-made seats: a seat taken by a join that was
// refused, or whose token the server does not know. With
// PARLOUR_ATTACK_GIVE set, it gives that many bytes of its file back
// before each round, so that the disk fills again between the writes of
// one request. It then removes its file. For example, as root:
//
//	mkdir -p /tmp/fulldisk && mount -t tmpfs -o size=6m tmpfs /tmp/fulldisk
//	parlour serve --addr 127.0.0.1:8099 --data /tmp/fulldisk/d &
//	PARLOUR_ATTACK_URL=http://127.0.0.1:8099 PARLOUR_ATTACK_FILL=/tmp/fulldisk \
//	    go test ./server -run TestFullDiskAttack -v
//	umount /tmp/fulldisk
func TestFullDiskAttack(t *testing.T) {
	// Not parallel: it loads a server outside the test and measures its
	// answers, which another test running at once would disturb.
	c := newAttackClient(t)
	dir := os.Getenv("PARLOUR_ATTACK_FILL")
	if dir == "" {
		t.Skip("set PARLOUR_ATTACK_FILL to a directory on the server's data file system")
	}
	count := func(name string, def int) int {
		if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
			return n
		}
		return def
	}
	nTables, rounds := count("PARLOUR_ATTACK_TABLES", 100), count("PARLOUR_ATTACK_ROUNDS", 100)
	create := map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "name": "Host", "private": true}
	// The tables made on the full disk are in the lobby, so that one
	// stored without its creator's token shows.
	lobbyCreate := map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "name": "Cal"}
	var tables []string
	for i := range nTables {
		var s table.Seated
		if st, err := c.do("POST", "/api/v1/tables", "", create, &s); err != nil || st != http.StatusCreated {
			t.Fatalf("table %d, before the disk is full: %d %v", i, st, err)
		}
		tables = append(tables, s.Table)
	}
	filler, err := os.CreateTemp(dir, "filler")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(filler.Name())
	defer filler.Close()
	for _, size := range []int{1 << 16, 512} {
		block := make([]byte, size)
		for {
			if _, err := filler.Write(block); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
	}
	size, err := filler.Seek(0, io.SeekCurrent)
	if err != nil {
		t.Fatal(err)
	}
	give := int64(count("PARLOUR_ATTACK_GIVE", 0))
	answers := map[string]map[int]int{"create": {}, "identity": {}, "join": {}}
	halfMade, tokenless := 0, 0
	for i := range min(rounds, len(tables)) {
		if give > 0 {
			// Room comes back a little at a time: some of a request's
			// writes fit, and the next may not.
			size = max(size-give, 0)
			if err := filler.Truncate(size); err != nil {
				t.Fatal(err)
			}
		}
		var s table.Seated
		st, err := c.do("POST", "/api/v1/tables", "", lobbyCreate, &s)
		if err != nil {
			t.Fatal(err)
		}
		answers["create"][st]++
		if st == http.StatusCreated {
			if vst, _ := c.do("GET", "/api/v1/tables/"+s.Table, s.Token, nil, nil); vst == http.StatusUnauthorized {
				tokenless++
			}
		}
		if st, err = c.do("POST", "/api/v1/identity", "", map[string]string{"name": "Cy"}, nil); err != nil {
			t.Fatal(err)
		}
		answers["identity"][st]++
		var j table.Seated
		if st, err = c.do("POST", "/api/v1/tables/"+tables[i]+"/join", "", map[string]string{"name": "Ben"}, &j); err != nil {
			t.Fatal(err)
		}
		answers["join"][st]++
		var v attackView
		if vst, err := c.do("GET", "/api/v1/tables/"+tables[i], "", nil, &v); err != nil || vst != http.StatusOK {
			t.Fatalf("view: %d %v", vst, err)
		}
		taken := len(v.Table.Seats) > 1 && v.Table.Seats[1].Kind != "open"
		switch {
		case taken && st >= 300:
			halfMade++ // a seat, and no token for it
		case taken:
			if vst, _ := c.do("GET", "/api/v1/tables/"+tables[i], j.Token, nil, nil); vst == http.StatusUnauthorized {
				halfMade++
			}
		}
	}
	var lobby struct {
		Tables []struct {
			Seats []struct {
				Name string `json:"name"`
			} `json:"seats"`
		} `json:"tables"`
	}
	if st, err := c.do("GET", "/api/v1/tables?limit=500", "", nil, &lobby); err != nil || st != http.StatusOK {
		t.Fatalf("lobby: %d %v", st, err)
	}
	listed := 0
	for _, tb := range lobby.Tables {
		if len(tb.Seats) > 0 && tb.Seats[0].Name == "Cal" {
			listed++
		}
	}
	t.Logf("on a full disk (%d bytes given back a round), answers by status: create %v, new identity %v, guest join %v",
		give, answers["create"], answers["identity"], answers["join"])
	t.Logf("half-made seats: %d joined (taken, no token), %d created (tables in the lobby %d, creates answered 201 %d), %d created answered 201 whose token is unknown",
		halfMade, listed-answers["create"][http.StatusCreated], listed, answers["create"][http.StatusCreated], tokenless)
}

// gatedBot is servertest.GuessBot whose moves wait until gate is closed.
type gatedBot struct {
	servertest.GuessBot
	gate <-chan struct{}
}

func (b gatedBot) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	select {
	case <-b.gate:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	return b.GuessBot.Move(ctx, cfg, seat, view)
}

// TestStoreOutage stops the PostgreSQL server under a running service
// (as an operator would, and as a crash does) and starts it again:
// meanwhile what needs the store (a move, an unknown table, a token not
// yet seen, a new table) is answered 503 at once, what does not (a live
// table's view) is answered as ever, and a computer seat whose move could
// not be saved neither resigns nor stalls; once PostgreSQL is back the
// same service serves everything again by itself, and the computer plays
// its move.
func TestStoreOutage(t *testing.T) {
	// Not parallel: it stops the test run's PostgreSQL, which the other tests share.
	if servertest.PG() == nil {
		pgtest.Missing(t) // skips, or fails under CI
	}
	k, _ := servertest.StoreKindNamed("postgres")
	for _, down := range []struct {
		name string
		stop func()
	}{{"stopped", servertest.PG().Stop}, {"crashed", servertest.PG().Crash}} {
		t.Run(down.name, func(t *testing.T) {
			ctx := context.Background()
			gate := make(chan struct{})
			f := &fixture{t: t, dir: t.TempDir(), kind: &k, where: k.Fresh(t), tune: func(c *Config) {
				c.NewBot = func(g, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
					return gatedBot{servertest.GuessBot{Level: level}, gate}, nil
				}
			}}
			f.open()
			t.Cleanup(f.close)
			srv := startServer(t, f, generous)
			a, ann, ben := annAndBen(t, srv.URL)
			// Numbers nobody guesses below, so that no guess ends the
			// game.
			for i, c := range []*client{ann, ben} {
				if st, body := c.do("POST", "/api/v1/tables/"+a.Table+"/setup", map[string]any{"setup": setupOf(41 + i)}, nil); st != 200 {
					t.Fatalf("setup: %d %s", st, body)
				}
			}
			if st, body := ann.do("POST", "/api/v1/tables/"+a.Table+"/moves", `{"move": "guess 50"}`, nil); st != 200 {
				t.Fatalf("move: %d %s", st, body)
			}
			// A table against the computer, whose answer waits for the gate.
			cara := &client{t: t, base: srv.URL}
			var c table.Seated
			if st, body := cara.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "computer:easy"], "name": "Cara", "rules": {"max": 1000}}`, &c); st != 201 {
				t.Fatalf("create against the computer: %d %s", st, body)
			}
			cara.token = c.Token
			// A number the computer's first guess (it bisects: 500) cannot
			// be: an automatic one was, one time in a thousand, and ended
			// the game on the guess the test waits to see stored.
			if st, body := cara.do("POST", "/api/v1/tables/"+c.Table+"/setup", map[string]any{"setup": setupOf(1)}, nil); st != 200 {
				t.Fatalf("setup: %d %s", st, body)
			}
			waitFor := func(what string, d time.Duration, ok func() bool) time.Duration {
				t.Helper()
				start := time.Now()
				for !ok() {
					if time.Since(start) > d {
						t.Fatalf("%s: not after %v", what, d)
					}
					time.Sleep(20 * time.Millisecond)
				}
				return time.Since(start)
			}
			var cv struct{ Table table.Info }
			waitFor("the table against the computer starts", 5*time.Second, func() bool {
				cara.do("GET", "/api/v1/tables/"+c.Table, nil, &cv)
				return cv.Table.Status == store.Playing
			})
			if len(cv.Table.ToMove) != 1 || cv.Table.ToMove[0] != 0 {
				t.Fatalf("the person does not move first: %+v", cv.Table)
			}
			if st, body := cara.do("POST", "/api/v1/tables/"+c.Table+"/moves", `{"move": "guess 50"}`, nil); st != 200 {
				t.Fatalf("move against the computer: %d %s", st, body)
			}

			down.stop()
			t.Cleanup(func() { servertest.PG().Restart(context.Background()) }) // should the test stop half way
			close(gate)                                                         // the computer moves, and cannot save it

			start := time.Now()
			for _, tc := range []struct {
				what, method, path, body string
				c                        *client
				want                     int
			}{
				{"Ben's move", "POST", "/api/v1/tables/" + a.Table + "/moves", `{"move": "guess 50"}`, ben, 503},
				{"a live table", "GET", "/api/v1/tables/" + a.Table, "", ben, 200},
				{"a table not in memory", "GET", "/api/v1/tables/" + auth.NewID(), "", ann, 503},
				{"a new table", "POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &client{t: t, base: srv.URL}, 503},
			} {
				var in any
				if tc.body != "" {
					in = tc.body
				}
				st, body := tc.c.do(tc.method, tc.path, in, nil)
				if st != tc.want {
					t.Errorf("%s while PostgreSQL is %s: %d %s, want %d", tc.what, down.name, st, body, tc.want)
				}
				if st == 503 && !strings.Contains(body, "try again") {
					t.Errorf("%s: the 503 does not say to try again: %s", tc.what, body)
				}
			}
			sum := account.HashToken(ben.token)
			f.s.auth.Forget(sum[:])
			if st, body := ben.do("POST", "/api/v1/tables/"+a.Table+"/moves", `{"move": "guess 50"}`, nil); st != 503 {
				t.Errorf("a token not seen since PostgreSQL went away: %d %s, want 503", st, body)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("the answers while PostgreSQL was away took %v", d)
			}
			time.Sleep(2 * table.StoreRetry) // the computer tries, and tries again

			if err := servertest.PG().Restart(ctx); err != nil {
				t.Fatal(err)
			}
			back := time.Now()
			took := waitFor("Ben's move after PostgreSQL is back", 30*time.Second, func() bool {
				st, _ := ben.do("POST", "/api/v1/tables/"+a.Table+"/moves", `{"move": "guess 50"}`, nil)
				return st == 200
			})
			waitFor("the computer's move after PostgreSQL is back", 30*time.Second, func() bool {
				cara.do("GET", "/api/v1/tables/"+c.Table, nil, &cv)
				return len(cv.Table.ToMove) == 1 && cv.Table.ToMove[0] == 0
			})
			var rec game.Record
			cara.do("GET", "/api/v1/tables/"+c.Table+"/record", nil, &rec)
			if cv.Table.Status != store.Playing || len(rec.Moves) != 2 || !strings.HasPrefix(rec.Moves[1].Move, "guess ") {
				t.Errorf("the game against the computer after the outage: %s, moves %+v; want it playing, the computer's guess stored", cv.Table.Status, rec.Moves)
			}
			if st, body := ann.do("GET", "/api/v1/tables/"+auth.NewID(), nil, nil); st != 404 {
				t.Errorf("an unknown table after the outage: %d %s", st, body)
			}
			var d table.Seated
			if st, body := (&client{t: t, base: srv.URL}).do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &d); st != 201 {
				t.Errorf("a new table after the outage: %d %s", st, body)
			}
			t.Logf("PostgreSQL %s: served again %v after its restart (everything in %v)", down.name, took.Round(time.Millisecond), time.Since(back).Round(time.Millisecond))
		})
	}
}

// TestStoreOutageReads stops PostgreSQL under a running service and asks
// for everything a player reads: profiles, game histories, leaderboards,
// keys, invites, daily puzzles, the lobby, tables and their records and
// chat. What needs the store is answered 503, saying in a player's words
// that it could not be read and to try again (never 500, never a signed
// out 401); what does not (a live table's view) is answered as ever.
// Once PostgreSQL is back, the same service answers everything again by
// itself.
func TestStoreOutageReads(t *testing.T) {
	// Not parallel: it stops the test run's PostgreSQL, which the other tests share.
	if servertest.PG() == nil {
		pgtest.Missing(t) // skips, or fails under CI
	}
	k, _ := servertest.StoreKindNamed("postgres")
	ctx := context.Background()
	f := &fixture{t: t, dir: t.TempDir(), kind: &k, where: k.Fresh(t)}
	st, err := k.Open(ctx, f.where, false)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(ctx, Config{Store: st, Games: games.Registry(), NewBot: games.NewBot, BaseURL: "http://test"})
	if err != nil {
		t.Fatal(err)
	}
	f.st, f.s = st, s
	t.Cleanup(f.close)
	srv := startServer(t, f, generous)

	ann, ben := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Ben")
	finished := playNymphabet(t, ann, ben, map[string]any{"rated": true}, 1)
	_, text := newKey(t, "ann@laptop")
	if st, body := ann.do("POST", "/api/v1/keys", map[string]string{"key": text, "password": testPassword}, nil); st != 201 {
		t.Fatalf("add a key: %d %s", st, body)
	}
	var live table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, &live); st != 201 {
		t.Fatalf("a live table: %d %s", st, body)
	}
	if st, body := ann.do("POST", "/api/v1/tables/"+live.Table+"/chat", map[string]any{"channel": "players", "text": "hello"}, nil); st != 200 && st != 201 {
		t.Fatalf("chat: %d %s", st, body)
	}
	var d daily.Today
	if st, body := ann.do("GET", "/api/v1/daily/quizl", nil, &d); st != 200 {
		t.Fatalf("the daily puzzle: %d %s", st, body)
	}
	// An event that asks for rated games: its page tells a reader not in
	// it their count, from the store, and is read from memory without it.
	var club struct{ ID string }
	if st, body := ann.do("POST", "/api/v1/tournaments", map[string]any{"kind": "arena", "game": "nymphabet", "clock": 60, "minutes": 60, "min_rated_games": 3,
		"starts": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}, &club); st != 201 {
		t.Fatalf("an event: %d %s", st, body)
	}
	// A seek waiting: the list, read as a player whose blocks are in the
	// store, is answered from memory without it, whole.
	var seek struct{ ID string }
	if st, body := ann.do("POST", "/api/v1/seeks", map[string]any{"game": "salvo"}, &seek); st != 201 && st != 200 {
		t.Fatalf("a seek: %d %s", st, body)
	}
	// The finished table leaves memory, so that reading it needs the store.
	f.s.Drop(finished)

	// A session cookie whose token the service has not seen since it
	// started: checking it needs the store.
	var cookie players.Session
	if st, body := (&client{t: t, base: srv.URL}).do("POST", "/api/v1/sessions", map[string]string{"name": "Ben", "password": testPassword}, &cookie); st != 200 && st != 201 {
		t.Fatalf("sign in: %d %s", st, body)
	}
	withCookie := func(path string) (int, string) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: cookie.Token})
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}

	reads := []struct {
		what, path string
		c          *client
		live       bool // answered from memory: 200 even while the store is away
	}{
		{"a profile", "/api/v1/players/Ann", ann, false},
		{"a player's games", "/api/v1/players/Ann/games", ann, false},
		{"a player's daily puzzles", "/api/v1/players/Ann/daily", ann, false},
		{"a leaderboard", "/api/v1/leaderboards/nymphabet-standard", ann, false},
		{"one's keys", "/api/v1/keys", ann, false},
		{"an invite code", "/api/v1/invites/" + url.PathEscape(live.Code), ben, false},
		{"the daily puzzle", "/api/v1/daily/quizl", ben, false},
		{"the daily leaderboard", "/api/v1/daily/quizl/" + d.Day + "/leaderboard", ben, false},
		{"the finished tables", "/api/v1/tables?status=finished", ben, false},
		{"one's account", "/api/v1/account", ann, false},
		{"one's settings", "/api/v1/account/settings", ann, false},
		{"the challenges", "/api/v1/challenges", ann, false},
		{"a player's stream", "/api/v1/stream", ann, false},
		{"who is online", "/api/v1/online", ann, false},
		{"a finished table", "/api/v1/tables/" + finished, ben, false},
		{"a finished table's record", "/api/v1/tables/" + finished + "/record", ben, false},
		{"a finished table's chat", "/api/v1/tables/" + finished + "/chat", ben, false},
		{"a finished table's invite link", "/t/" + finished, ben, false},
		{"the leaderboards", "/api/v1/leaderboards", ann, true},
		{"the open tables", "/api/v1/tables", ben, true},
		{"the seeks", "/api/v1/seeks", ben, true},
		{"an event asking for rated games", "/api/v1/tournaments/" + club.ID, ben, true},
		{"one's tables", "/api/v1/identity/tables", ann, true},
		{"a live table", "/api/v1/tables/" + live.Table, ann, true},
		{"a live table's record", "/api/v1/tables/" + live.Table + "/record", ann, true},
		{"a live table's chat", "/api/v1/tables/" + live.Table + "/chat", ann, true},
	}
	get := func(path string, c *client) (int, string) {
		if path == "/api/v1/stream" {
			// A stream that opens follows for ever: its first lines do.
			return streamOpening(t, srv.URL+path, c.token)
		}
		return c.do("GET", path, nil, nil)
	}
	for _, r := range reads {
		if st, body := get(r.path, r.c); st != 200 {
			t.Fatalf("%s before the outage: %d %s", r.what, st, body)
		}
	}
	if st, body := withCookie("/api/v1/account"); st != 200 {
		t.Fatalf("the account by its cookie: %d %s", st, body)
	}
	// The finished table leaves memory, so that reading it needs the
	// store; the cookie's token is forgotten, as by a restart.
	f.s.Drop(finished)
	sum := account.HashToken(cookie.Token)
	f.s.auth.Forget(sum[:])

	servertest.PG().Stop()
	t.Cleanup(func() { servertest.PG().Restart(context.Background()) }) // should the test stop half way
	start := time.Now()
	for _, r := range reads {
		st, body := get(r.path, r.c)
		switch {
		case r.live && st != 200:
			t.Errorf("%s while PostgreSQL is away: %d %s, want 200 (from memory)", r.what, st, body)
		case r.path == "/api/v1/seeks" && !strings.Contains(body, seek.ID):
			t.Errorf("the seeks while PostgreSQL is away leave out Ann's: %s", body)
		case !r.live && st != 503:
			t.Errorf("%s while PostgreSQL is away: %d %s, want 503", r.what, st, body)
		case !r.live && (!strings.Contains(body, "could not be read just now") || !strings.Contains(body, "try again")):
			t.Errorf("%s while PostgreSQL is away: %s, want it to say it could not be read and to try again", r.what, body)
		}
	}
	if st, body := withCookie("/api/v1/account"); st != 503 || !strings.Contains(body, "try again") {
		t.Errorf("a session cookie while PostgreSQL is away: %d %s, want 503 (the session has not ended)", st, body)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the answers while PostgreSQL was away took %v", d)
	}

	if err := servertest.PG().Restart(ctx); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	for _, r := range reads {
		for {
			st, body := get(r.path, r.c)
			if st == 200 {
				break
			}
			if time.Since(back) > 30*time.Second {
				t.Fatalf("%s after PostgreSQL is back: %d %s", r.what, st, body)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if st, body := withCookie("/api/v1/account"); st != 200 || !strings.Contains(body, `"Ben"`) {
		t.Errorf("the account by its cookie after the outage: %d %s", st, body)
	}
	var p players.Profile
	if st, body := ann.do("GET", "/api/v1/players/Ann", nil, &p); st != 200 || p.Games != 1 || p.Ratings["nymphabet-standard"].Games != 1 {
		t.Errorf("Ann's profile after the outage: %d %s", st, body)
	}
	t.Logf("every read answered again %v after PostgreSQL's restart", time.Since(back).Round(time.Millisecond))
}

// streamOpening opens the player stream at url with token and returns its
// status and, when it opens, its first line.
func streamOpening(t *testing.T, url, token string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	return 200, ""
}
