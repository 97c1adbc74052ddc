package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parlour/game"
	"parlour/lexicon"
	"parlour/store"
	"parlour/store/sqlite"
)

type fixture struct {
	t   *testing.T
	dir string
	// kind, when set, is the store the fixture runs on, at where;
	// otherwise it is SQLite in dir, and db is set.
	kind  *StoreKind
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
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, dir: t.TempDir()}
	f.open()
	t.Cleanup(f.close)
	return f
}

// newFixtureOn is newFixture on a fresh store of kind k.
func newFixtureOn(t *testing.T, k StoreKind) *fixture {
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
	s, err := New(context.Background(), Config{Store: db, Games: testRegistry(), NewBot: guessBots, Lexicon: testLexicon, BaseURL: "http://test", BotTimeout: 5 * time.Second, IdleEvict: f.idleEvict, MaxWait: f.maxWait, OpenExpiry: f.openExpiry})
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

func (f *fixture) principal(tok string) *Principal {
	f.t.Helper()
	p, err := f.s.Authenticate(context.Background(), tok)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

func wantStatus(t *testing.T, err error, status int) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want status %d", status)
	}
	if got := StatusOf(err); got != status {
		t.Fatalf("error %q has status %d, want %d", err, got, status)
	}
}

func setupOf(n int) json.RawMessage { return json.RawMessage(fmt.Sprintf(`{"number": %d}`, n)) }

// bisect returns the next guess from a seat's view.
func bisect(t *testing.T, u Update, maxN int) string {
	t.Helper()
	m, err := guessBot{}.Move(context.Background(), game.Config{Rules: game.Rules{"max": maxN}}, u.Seat, u.View)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTwoPeoplePlayToTheEnd(t *testing.T) {
	EachStore(t, func(t *testing.T, k StoreKind) {
		ctx := context.Background()
		f := newFixtureOn(t, k)
		ann, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Rules: map[string]json.RawMessage{"max": json.RawMessage("1000")}, Seats: []string{"me", "open"}, Name: "Ann"})
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
		_, err = f.s.Move(ctx, pa, ann.Table, MoveRequest{Move: "guess 5"})
		wantStatus(t, err, http.StatusConflict)
		ben, err := f.s.Join(ctx, nil, ann.Table, JoinRequest{Name: "Ann"})
		if err != nil {
			t.Fatal(err)
		}
		pb := f.principal(ben.Token)
		if _, err := f.s.Join(ctx, nil, ann.Table, JoinRequest{}); StatusOf(err) != http.StatusConflict {
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
		if _, err := f.s.Setup(ctx, pa, ann.Table, SetupRequest{Setup: setupOf(1001)}); StatusOf(err) != http.StatusUnprocessableEntity {
			t.Fatalf("bad setup: %v", err)
		}
		if _, err := f.s.Setup(ctx, pa, ann.Table, SetupRequest{Setup: setupOf(777)}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.Setup(ctx, pb, ann.Table, SetupRequest{Setup: setupOf(888)}); err != nil {
			t.Fatal(err)
		}
		u, _ = f.s.View(ctx, pa, ann.Table)
		if u.Table.Status != store.Playing || len(u.Table.Commitments) != 2 || u.Table.Reveal != nil {
			t.Fatalf("after setups: %+v", u.Table)
		}
		if _, err := f.s.Move(ctx, pb, ann.Table, MoveRequest{Move: "guess 5"}); !strings.Contains(fmt.Sprint(err), "not your turn") || StatusOf(err) != http.StatusConflict {
			t.Fatalf("out of turn: %v", err)
		}
		if _, err := f.s.Move(ctx, pa, ann.Table, MoveRequest{Move: "guess lots"}); StatusOf(err) != http.StatusUnprocessableEntity {
			t.Fatalf("illegal move: %v", err)
		}
		stale := 0
		if _, err := f.s.Move(ctx, pa, ann.Table, MoveRequest{Move: "guess 5", Version: &stale}); StatusOf(err) != http.StatusConflict {
			t.Fatalf("stale version: %v", err)
		}
		players := []*Principal{pa, pb}
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
			res, err := f.s.Move(ctx, p, ann.Table, MoveRequest{Move: bisect(t, u, 1000), Version: &v})
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
			if !VerifyCommitment(u.Table.Commitments[i], r.Salt, r.Setup) {
				t.Fatalf("commitment %d does not verify", i)
			}
		}
		rec, err := f.s.Record(ctx, nil, ann.Table)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := game.Replay(testRegistry(), rec, nil); err != nil {
			t.Fatalf("the finished record does not replay: %v", err)
		}
		if _, err := f.s.Move(ctx, pa, ann.Table, MoveRequest{Move: "guess 5"}); StatusOf(err) != http.StatusConflict {
			t.Fatalf("move after the end: %v", err)
		}
	})
}

func TestRecordHidesOtherSetups(t *testing.T) {
	EachStore(t, func(t *testing.T, k StoreKind) {
		ctx := context.Background()
		f := newFixtureOn(t, k)
		a, _ := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
		b, _ := f.s.Join(ctx, nil, a.Table, JoinRequest{})
		pa, pb := f.principal(a.Token), f.principal(b.Token)
		f.s.Setup(ctx, pa, a.Table, SetupRequest{Setup: setupOf(41)})
		f.s.Setup(ctx, pb, a.Table, SetupRequest{Setup: setupOf(42)})
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
	EachStore(t, func(t *testing.T, k StoreKind) {
		ctx := context.Background()
		f := newFixtureOn(t, k)
		a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "computer:strong"}})
		if err != nil {
			t.Fatal(err)
		}
		pa := f.principal(a.Token)
		// The computer bisects (50, 25, 12...): 1 outlasts its first five
		// guesses. A number drawn at random was found within the test's
		// two turns three times in a hundred, ending the game early.
		if _, err := f.s.Setup(ctx, pa, a.Table, SetupRequest{Setup: setupOf(1)}); err != nil {
			t.Fatal(err)
		}
		w, err := f.s.Watch(ctx, pa, a.Table, -1)
		if err != nil {
			t.Fatal(err)
		}
		next := func() Update {
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
			if _, err := f.s.Move(ctx, pa, a.Table, MoveRequest{Move: fmt.Sprintf("guess %d", 1+i)}); err != nil {
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
		if u.Version != before || len(u.View.(guessView).Tried) != 2 {
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
				if _, err := f.s.Move(ctx, pa, a.Table, MoveRequest{Move: bisect(t, u, 100)}); err != nil && StatusOf(err) != http.StatusConflict {
					t.Fatal(err)
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatal("the game against the computer did not end")
	})
}

func TestBrokenComputerResigns(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.s.cfg.NewBot = func(g, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
		return guessBot{level: "broken"}, nil
	}
	a, _ := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"computer:easy", "me"}})
	pa := f.principal(a.Token)
	f.s.Setup(ctx, pa, a.Table, SetupRequest{Setup: setupOf(3)})
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		u, _ := f.s.View(ctx, pa, a.Table)
		if u.Table.Status == store.Finished {
			// It resigned before its first move: the game is aborted.
			if u.Table.Result.Status != game.Aborted || len(u.Table.Result.Winners) != 0 || u.Table.Aborted == nil || u.Table.Aborted.Seat != 0 || u.Table.Aborted.Why != AbortResign {
				t.Fatalf("result %+v, %+v", u.Table.Result, u.Table.Aborted)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the broken computer never resigned")
}

func TestSolitaire(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}})
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
	if _, err := f.s.Setup(ctx, pa, a.Table, SetupRequest{Setup: setupOf(5)}); StatusOf(err) != http.StatusConflict {
		t.Fatalf("setup at a solitaire table: %v", err)
	}
	for i := 0; i < 12 && u.Table.Status != store.Finished; i++ {
		if _, err := f.s.Move(ctx, pa, a.Table, MoveRequest{Move: bisect(t, u, 100)}); err != nil {
			t.Fatal(err)
		}
		u, _ = f.s.View(ctx, pa, a.Table)
	}
	if u.Table.Status != store.Finished || len(u.Table.Reveal) != 1 {
		t.Fatalf("solitaire did not finish: %+v", u.Table)
	}
}

func TestRematchRotatesAndCarriesTheSet(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	a, _ := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	b, _ := f.s.Join(ctx, nil, a.Table, JoinRequest{Name: "Ben"})
	pa, pb := f.principal(a.Token), f.principal(b.Token)
	f.s.Setup(ctx, pa, a.Table, SetupRequest{Setup: setupOf(10)})
	f.s.Setup(ctx, pb, a.Table, SetupRequest{Setup: setupOf(20)})
	if _, err := f.s.Rematch(ctx, pa, a.Table); StatusOf(err) != http.StatusConflict {
		t.Fatalf("rematch before the end: %v", err)
	}
	if _, err := f.s.Move(ctx, pa, a.Table, MoveRequest{Move: "guess 20"}); err != nil { // Ann guesses Ben's number
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
	if _, err := f.s.Setup(ctx, pa, ra.Table, SetupRequest{Auto: true}); StatusOf(err) != http.StatusForbidden {
		t.Fatalf("old token at the rematch: %v", err)
	}
}

func TestCreateRefusals(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for _, tc := range []struct {
		req  CreateRequest
		want string
	}{
		{CreateRequest{Game: "chess", Seats: []string{"me", "open"}}, "no game"},
		{CreateRequest{Game: "guess", Seats: []string{"open", "open"}}, `exactly one "me"`},
		{CreateRequest{Game: "guess", Seats: []string{"me", "me"}}, `exactly one "me"`},
		{CreateRequest{Game: "guess", Seats: []string{"me", "open", "open", "open"}}, "1 to 3"},
		{CreateRequest{Game: "guess", Seats: []string{"me", "robot"}}, "not \"me\""},
		{CreateRequest{Game: "guess", Seats: []string{"me", "computer:genius"}}, "not easy"},
		{CreateRequest{Game: "guess", Seats: []string{"me"}, Rules: map[string]json.RawMessage{"max": json.RawMessage("5")}}, "out of range"},
		{CreateRequest{Game: "guess", Seats: []string{"me"}, Rules: map[string]json.RawMessage{"speed": json.RawMessage("5")}}, "unknown rule option"},
		{CreateRequest{Game: "guess", Seats: []string{"me"}, Name: strings.Repeat("x", 41)}, "at most"},
		{CreateRequest{Game: "guess", Seats: []string{"me"}, Lexicon: "/etc/passwd"}, "no lexicon"},
	} {
		_, err := f.s.Create(ctx, nil, tc.req)
		if err == nil || StatusOf(err) != http.StatusBadRequest || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Create(%+v) = %v, want a 400 saying %q", tc.req, err, tc.want)
		}
	}
	if l, _ := f.s.Lobby(ctx, store.Open, 10); len(l) != 0 {
		t.Fatalf("refused creates left tables: %+v", l)
	}
}

func TestForgedTokens(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	a, _ := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	forged := []byte(a.Token)
	forged[3] ^= 1
	for _, tok := range []string{"", "abc", string(forged), a.Token + "x", strings.Repeat("A", 43)} {
		if _, err := f.s.Authenticate(ctx, tok); StatusOf(err) != http.StatusUnauthorized {
			t.Errorf("token %q: %v", tok, err)
		}
	}
	// Another table's seat token is a spectator here.
	b, _ := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	if _, err := f.s.Setup(ctx, f.principal(b.Token), a.Table, SetupRequest{Auto: true}); StatusOf(err) != http.StatusForbidden {
		t.Fatalf("foreign seat token: %v", err)
	}
	if _, err := f.s.View(ctx, nil, "nosuchtable"); StatusOf(err) != http.StatusNotFound {
		t.Fatalf("missing table: %v", err)
	}
	if _, err := f.s.Join(ctx, f.principal(a.Token), a.Table, JoinRequest{}); StatusOf(err) != http.StatusConflict {
		t.Fatalf("joining one's own table: %v", err)
	}
}

func TestFailedStoreChangesNothing(t *testing.T) {
	EachStore(t, func(t *testing.T, k StoreKind) {
		ctx := context.Background()
		f := newFixtureOn(t, k)
		a, _ := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}})
		pa := f.principal(a.Token)
		before, _ := f.s.View(ctx, pa, a.Table)
		f.st.Close() // every write now fails
		_, err := f.s.Move(ctx, pa, a.Table, MoveRequest{Move: "guess 50"})
		wantStatus(t, err, http.StatusServiceUnavailable)
		after, _ := f.s.View(ctx, pa, a.Table)
		if after.Version != before.Version || len(after.View.(guessView).Tried) != 0 {
			t.Fatalf("a move that was not stored changed the table: %+v", after.View)
		}
		if errors.Is(err, store.ErrNotFound) {
			t.Fatal("unexpected")
		}
	})
}

func TestFinishedTablesLeaveMemory(t *testing.T) {
	ctx := context.Background()
	// The janitor must not get there first: this test says when it is.
	f := &fixture{t: t, dir: t.TempDir(), idleEvict: time.Hour}
	f.open()
	t.Cleanup(f.close)
	play := func() (string, *Principal) {
		t.Helper()
		a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}})
		if err != nil {
			t.Fatal(err)
		}
		pa := f.principal(a.Token)
		u, _ := f.s.View(ctx, pa, a.Table)
		for i := 0; i < 12 && u.Table.Status != store.Finished; i++ {
			if _, err := f.s.Move(ctx, pa, a.Table, MoveRequest{Move: bisect(t, u, 100)}); err != nil {
				t.Fatal(err)
			}
			u, _ = f.s.View(ctx, pa, a.Table)
		}
		if u.Table.Status != store.Finished {
			t.Fatalf("the game did not finish: %+v", u.Table)
		}
		return a.Table, pa
	}
	done, pd := play()
	watched, pw := play()
	w, err := f.s.Watch(ctx, pw, watched, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	live, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	inMemory := func(id string) bool {
		f.s.mu.RLock()
		defer f.s.mu.RUnlock()
		_, ok := f.s.tables[id]
		return ok
	}

	f.s.evict(time.Now()) // too soon: the players may still look
	if !inMemory(done) {
		t.Fatal("a table that has just finished left memory")
	}
	f.s.evict(time.Now().Add(f.s.cfg.IdleEvict + time.Second))
	for id, want := range map[string]bool{done: false, watched: true, live.Table: true} {
		if got := inMemory(id); got != want {
			t.Errorf("table %s in memory = %v, want %v", id, got, want)
		}
	}
	// An evicted table is read back from the store, whole.
	u, err := f.s.View(ctx, pd, done)
	if err != nil || u.Table.Status != store.Finished || len(u.Table.Reveal) != 1 {
		t.Fatalf("evicted table read back: %+v, %v", u.Table, err)
	}
}

// TestRecordSameAfterRestart plays a game partway, reads its record and
// its table as a seat sees them, restarts the service on the same store,
// and reads them again: byte for byte the same, times included (the
// server keeps times to the microsecond, as PostgreSQL does).
func TestRecordSameAfterRestart(t *testing.T) {
	EachStore(t, func(t *testing.T, k StoreKind) {
		ctx := context.Background()
		f := newFixtureOn(t, k)
		a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.s.Join(ctx, nil, a.Table, JoinRequest{Name: "Ben"})
		if err != nil {
			t.Fatal(err)
		}
		pa, pb := f.principal(a.Token), f.principal(b.Token)
		for _, s := range []struct {
			p *Principal
			n int
		}{{pa, 41}, {pb, 42}} {
			if _, err := f.s.Setup(ctx, s.p, a.Table, SetupRequest{Setup: setupOf(s.n)}); err != nil {
				t.Fatal(err)
			}
		}
		for i, g := range []string{"guess 50", "guess 50", "guess 25"} {
			p := pa
			if i%2 == 1 {
				p = pb
			}
			if _, err := f.s.Move(ctx, p, a.Table, MoveRequest{Move: g}); err != nil {
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
