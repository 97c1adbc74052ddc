package seek

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/game"
	"parlour/glicko"
	"parlour/internal/cputime"
	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/protocol"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
	"parlour/store/sqlite"
)

// fakeClock is a clock that moves when the test says; it never fires.
type fakeClock struct{ now time.Time }

type noTimer struct{}

func (noTimer) Stop() bool                                       { return true }
func (c *fakeClock) Now() time.Time                              { return c.now }
func (c *fakeClock) AfterFunc(time.Duration, func()) table.Timer { return noTimer{} }

// fakeTables pairs every pairing it is asked for. With hold set, each
// Pair first says so on entered and waits for hold to close, as a table
// whose write takes its time.
type fakeTables struct {
	mu      sync.Mutex
	pairs   []table.Pairing
	creates []table.CreateRequest
	fail    error
	// refuse, when set, may refuse a pairing as the store would.
	refuse  func(table.Pairing) error
	entered chan struct{}
	hold    chan struct{}
}

func (f *fakeTables) Pair(_ context.Context, pr table.Pairing) (table.Seated, error) {
	if f.hold != nil {
		f.entered <- struct{}{}
		<-f.hold
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return table.Seated{}, f.fail
	}
	if f.refuse != nil {
		if err := f.refuse(pr); err != nil {
			return table.Seated{}, err
		}
	}
	f.pairs = append(f.pairs, pr)
	seat := 0
	if pr.Seats[1].Identity == pr.Asker {
		seat = 1
	}
	return table.Seated{Table: fmt.Sprintf("t%d", len(f.pairs)), Seat: seat, Token: "tok"}, nil
}

func (f *fakeTables) CheckPairing(table.Pairing) error { return nil }

func (f *fakeTables) Create(_ context.Context, _ *auth.Principal, req table.CreateRequest) (table.Seated, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.creates = append(f.creates, req)
	return table.Seated{Table: "c1", Token: "tok"}, nil
}

// fakeStreams records the lines told and who holds a stream open.
type fakeStreams struct {
	mu   sync.Mutex
	told map[string][]string // identity -> types
	held map[string]bool
}

func (f *fakeStreams) Tell(identity string, ev social.StreamEvent) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.told[identity] = append(f.told[identity], ev.Type)
}

func (f *fakeStreams) Holding(identity string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.held[identity]
}

// fakePlayers knows accounts (with ratings) and guests by identity.
type fakePlayers struct {
	ratings map[string]float64 // account identity -> rating; NaN: none yet
	unsure  map[string]bool    // accounts whose RD is provisional
	guests  map[string]bool
}

// numbered returns the rating of the benchmark's players, "p" and a
// number (1000 to 1999) or "q" and a number (2500).
func numbered(id string) (float64, bool) {
	var n int
	if _, err := fmt.Sscanf(id, "p%d", &n); err == nil {
		return 1000 + float64(n%1000), true
	}
	if _, err := fmt.Sscanf(id, "q%d", &n); err == nil {
		return 2500, true
	}
	return 0, false
}

func (f fakePlayers) Player(_ context.Context, id string) (Player, error) {
	if _, ok := numbered(id); ok {
		return Player{Identity: id, Name: id, Account: true}, nil
	}
	if _, ok := f.ratings[id]; ok {
		return Player{Identity: id, Name: strings.ToUpper(id[:1]) + id[1:], Account: true}, nil
	}
	if f.guests[id] {
		return Player{Identity: id, Name: "Guest " + id}, nil
	}
	return Player{}, refuse.With(http.StatusUnauthorized, "unknown identity")
}

// Rating gives every rating an RD of 60, settled, but those of unsure,
// whose RD is 200 (as RD grown by time away would be).
func (f fakePlayers) Rating(_ context.Context, id, _ string, _ time.Time) (glicko.Rating, bool, error) {
	if r, ok := numbered(id); ok {
		return glicko.Rating{Value: r, RD: 60, Volatility: glicko.DefaultVolatility}, true, nil
	}
	r, ok := f.ratings[id]
	if !ok || r != r {
		return glicko.Rating{}, false, nil
	}
	rd := 60.0
	if f.unsure[id] {
		rd = 200
	}
	return glicko.Rating{Value: r, RD: rd, Volatility: glicko.DefaultVolatility}, true, nil
}

type env struct {
	s       *Service
	tables  *fakeTables
	streams *fakeStreams
	clock   *fakeClock
}

func newEnv(t testing.TB) *env {
	return newHeldEnv(t, nil, time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
}

// newHeldEnv is newEnv whose book is held in held over a stop, its
// clock at now.
func newHeldEnv(t testing.TB, held store.HeldSeeks, now time.Time) *env {
	e := &env{tables: &fakeTables{}, streams: &fakeStreams{told: map[string][]string{}, held: map[string]bool{}},
		clock: &fakeClock{now: now}}
	players := fakePlayers{
		ratings: map[string]float64{"ann": 1500, "ben": 1520, "cat": 1900, "dan": 1100, "eve": 1480, "new": math.NaN(), "fay": 1700},
		unsure:  map[string]bool{"fay": true},
		guests:  map[string]bool{"gus": true, "gia": true},
	}
	e.s = New(Config{Tables: e.tables, Streams: e.streams, Players: players, Games: game.NewRegistry(servertest.Guess{}, servertest.TailGuess{}, servertest.WordGuess{}), Clock: e.clock,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Held: held})
	return e
}

func (e *env) seek(who string, body string) (Answer, error) {
	var req protocol.SeekRequest
	req, err := protocol.DecodeSeekRequest(strings.NewReader(body), 4096)
	if err != nil {
		return Answer{}, err
	}
	return e.s.Seek(context.Background(), &auth.Principal{Identity: who}, req)
}

func (e *env) must(t *testing.T, who, body, status string) Answer {
	t.Helper()
	a, err := e.seek(who, body)
	if err != nil {
		t.Fatalf("%s seeks %s: %v", who, body, err)
	}
	if a.Status != status {
		t.Fatalf("%s seeks %s: status %q, want %q", who, body, a.Status, status)
	}
	return a
}

// TestSeekMatching: seeks pair only on the same terms (game, rules,
// clock, rated, word list), oldest first, never with the seeker's own,
// and with both rating ranges met.
func TestSeekMatching(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		first, then string // seeks of ann, then of ben
		pair        bool
	}{
		{"same terms", `{"game":"guess"}`, `{"game":"guess"}`, true},
		{"game named in another case", `{"game":"guess"}`, `{"game":" Guess "}`, true},
		{"default rule given", `{"game":"guess"}`, `{"game":"guess","rules":{"max":100}}`, true},
		{"other rule", `{"game":"guess"}`, `{"game":"guess","rules":{"max":50}}`, false},
		{"other game", `{"game":"guess"}`, `{"game":"tailguess"}`, false},
		{"rated and casual", `{"game":"guess","rated":true}`, `{"game":"guess"}`, false},
		{"rated both", `{"game":"guess","rated":true}`, `{"game":"guess","rated":true}`, true},
		{"same clock", `{"game":"guess","clock":60}`, `{"game":"guess","clock": 60 }`, true},
		{"clock in the rules", `{"game":"guess","clock":60}`, `{"game":"guess","rules":{"clock":60}}`, true},
		{"clock as its object", `{"game":"guess","clock":60}`, `{"game":"guess","clock":{"kind":"turn","seconds":60}}`, true},
		{"clock as players write it", `{"game":"guess","clock":"3+2"}`, `{"game":"guess","clock":{"increment":2,"kind":"fischer","initial":180}}`, true},
		{"other fischer clock", `{"game":"guess","clock":"3+2"}`, `{"game":"guess","clock":"3+0"}`, false},
		{"other clock", `{"game":"guess","clock":60}`, `{"game":"guess","clock":120}`, false},
		{"clock and none", `{"game":"guess","clock":60}`, `{"game":"guess"}`, false},
		{"other word list", `{"game":"wordguess","lexicon":"en-large"}`, `{"game":"wordguess"}`, false},
		{"default word list named", `{"game":"wordguess","lexicon":"en"}`, `{"game":"wordguess"}`, true},
		{"word list in another case", `{"game":"wordguess","lexicon":"EN-Large"}`, `{"game":"wordguess","lexicon":"en-large"}`, true},
		{"default word list in capitals", `{"game":"wordguess","lexicon":"EN"}`, `{"game":"wordguess"}`, true},
		{"ben within ann's range", `{"game":"guess","rating_range":{"within":50}}`, `{"game":"guess"}`, true},
		{"ben outside ann's range", `{"game":"guess","rating_range":{"min":1000,"max":1510}}`, `{"game":"guess"}`, false},
		{"ann outside ben's range", `{"game":"guess"}`, `{"game":"guess","rating_range":{"min":1501}}`, false},
		{"ann within ben's range", `{"game":"guess"}`, `{"game":"guess","rating_range":{"max":1500}}`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.must(t, "ann", c.first, "waiting")
			a, err := e.seek("ben", c.then)
			if err != nil {
				t.Fatal(err)
			}
			if got := a.Status == "paired"; got != c.pair {
				t.Fatalf("paired %v, want %v (%+v)", got, c.pair, a)
			}
			want := 2
			if c.pair {
				want = 0
				pr := e.tables.pairs[0]
				if pr.Asker != "ben" || pr.Seats[0].Identity != "ann" || pr.Seats[1].Identity != "ben" || a.Table.Token == "" {
					t.Fatalf("pairing %+v, answer %+v", pr, a.Table)
				}
				if got := e.streams.told["ann"]; len(got) != 2 || got[1] != "seekGone" {
					t.Fatalf("ann's stream heard %v", got)
				}
				if m, err := e.s.Get(context.Background(), &auth.Principal{Identity: "ann"}, e.tables.pairs[0].Seats[0].Identity); err == nil {
					t.Fatalf("a seek read by its player's identity instead of its id: %+v", m)
				}
			}
			if got := e.s.Len(); got != want {
				t.Fatalf("%d seeks wait, want %d", got, want)
			}
		})
	}
}

// TestSeekOldestFirst: of several seeks that match, the oldest pairs,
// and its player reads the table from its seek.
func TestSeekOldestFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Ann (1500) takes Ben (1520) but not Eve (1480), who waits too.
	first := e.must(t, "ann", `{"game":"guess","rating_range":{"min":1510}}`, "waiting")
	e.must(t, "eve", `{"game":"guess"}`, "waiting")
	e.must(t, "ben", `{"game":"guess"}`, "paired")
	if got := e.tables.pairs[0].Seats[0].Identity; got != "ann" {
		t.Fatalf("paired with %s, want ann", got)
	}
	m, err := e.s.Get(context.Background(), &auth.Principal{Identity: "ann"}, first.Seek.ID)
	if err != nil || m.Status != "paired" || m.Pairing.Table != "t1" || m.Pairing.Seat != 0 {
		t.Fatalf("ann reads %+v, %v", m, err)
	}
	if _, err := e.s.Get(context.Background(), &auth.Principal{Identity: "ben"}, first.Seek.ID); refuse.Status(err) != http.StatusNotFound {
		t.Fatalf("ben reads ann's seek: %v", err)
	}
	if l := list(t, e.s, ""); len(l) != 1 || l[0].Player != "Eve" {
		t.Fatalf("list %+v", l)
	}
}

// TestSeekRefusals: what a seek may not ask for is refused in words, and
// nothing waits after.
func TestSeekRefusals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, who, body string
		status          int
		says            string
	}{
		{"no game", "ann", `{}`, 400, "which game"},
		{"unknown game", "ann", `{"game":"chess"}`, 400, "chess"},
		{"impossible clock", "ann", `{"game":"guess","clock":3}`, 400, "clock"},
		{"negative clock", "ann", `{"game":"guess","clock":-60}`, 400, "clock"},
		{"clock not a number", "ann", `{"game":"guess","clock":"fast"}`, 400, "clock"},
		{"clock twice", "ann", `{"game":"guess","clock":60,"rules":{"clock":60}}`, 400, "once"},
		{"bad rule", "ann", `{"game":"guess","rules":{"max":5}}`, 400, "max"},
		{"unknown field", "ann", `{"game":"guess","colour":"red"}`, 400, "colour"},
		{"mode of a game without", "ann", `{"game":"guess","mode":"fast"}`, 400, "no modes"},
		{"unknown lexicon", "ann", `{"game":"guess","lexicon":"klingon"}`, 400, "lexicon"},
		{"guest rated", "gus", `{"game":"guess","rated":true}`, 403, "accounts"},
		{"guest rating range", "gus", `{"game":"guess","rating_range":{"within":100}}`, 403, "guest"},
		{"range both ways", "ann", `{"game":"guess","rating_range":{"within":100,"min":3}}`, 400, "not both"},
		{"range upside down", "ann", `{"game":"guess","rating_range":{"min":1800,"max":1200}}`, 400, "above"},
		{"empty range", "ann", `{"game":"guess","rating_range":{}}`, 400, "needs"},
		{"rated with the computer", "ann", `{"game":"guess","rated":true,"opponent":"computer"}`, 400, "between people"},
		{"unknown opponent", "ann", `{"game":"guess","opponent":"bot"}`, 400, "opponent"},
		{"unknown identity", "zed", `{"game":"guess"}`, 401, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			_, err := e.seek(c.who, c.body)
			if refuse.Status(err) != c.status || err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("got %v (status %d), want %d saying %q", err, refuse.Status(err), c.status, c.says)
			}
			if n := e.s.Len(); n != 0 || len(e.tables.pairs)+len(e.tables.creates) != 0 {
				t.Fatalf("%d seeks wait, %d tables made after a refusal", n, len(e.tables.pairs))
			}
		})
	}
}

// TestSeekGuestCasual: a guest's casual seek waits and pairs with an
// account's casual seek, seated as a guest; it does not pair with a seek
// that has a rating range.
func TestSeekGuestCasual(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must(t, "ann", `{"game":"guess","rating_range":{"within":300}}`, "waiting")
	e.must(t, "gus", `{"game":"guess"}`, "waiting")
	e.must(t, "gia", `{"game":"guess"}`, "paired")
	pr := e.tables.pairs[0]
	if pr.Seats[0].Identity != "gus" || !pr.Seats[0].Guest || !pr.Seats[1].Guest || pr.Rated {
		t.Fatalf("pairing %+v", pr)
	}
	if l := list(t, e.s, "guess"); len(l) != 1 || l[0].Player != "Ann" || l[0].RatingRange == nil || l[0].RatingRange.Min != 1200 || l[0].RatingRange.Max != 1800 {
		t.Fatalf("list %+v", l)
	}
}

// TestSeekOutOfRange: a list read with an identity marks the seeks whose
// rating range leaves the reader out, as an accept would find it: a
// guest has no rating, an account new to the pool the rating everyone
// starts with; neither a seek without a range nor the reader's own is
// marked, nor any in a list read without an identity.
func TestSeekOutOfRange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must(t, "ann", `{"game":"guess","rating_range":{"within":100}}`, "waiting") // 1400 to 1600
	e.must(t, "eve", `{"game":"guess","clock":60}`, "waiting")
	for _, c := range []struct {
		who string
		out bool // Ann's seek marked
	}{
		{"ben", false}, // 1520
		{"new", false}, // 1500, new to the pool
		{"cat", true},  // 1900
		{"dan", true},  // 1100
		{"gus", true},  // a guest
		{"ann", false}, // her own
		{"", false},    // no identity
	} {
		var p *auth.Principal
		if c.who != "" {
			p = &auth.Principal{Identity: c.who}
		}
		l, err := e.s.List(context.Background(), p, "guess")
		if err != nil || len(l) != 2 {
			t.Fatalf("%s lists %+v, %v", c.who, l, err)
		}
		for _, sk := range l {
			if want := c.out && sk.Player == "Ann"; sk.OutOfRange != want {
				t.Errorf("%s reads %s's seek out of range %v, want %v", c.who, sk.Player, sk.OutOfRange, want)
			}
		}
		if c.out {
			// What the list said is what an accept finds.
			ann := l[0]
			if ann.Player != "Ann" {
				ann = l[1]
			}
			if _, err := e.s.Accept(context.Background(), p, ann.ID); refuse.Status(err) != http.StatusForbidden || !strings.Contains(err.Error(), "seeks opponents rated 1400 to 1600") {
				t.Errorf("%s accepts the seek marked out of range: %v", c.who, err)
			}
		}
	}
}

// TestSeekOnePerGame: a second seek for the same game while one waits is
// refused; one for another game waits beside it; after a cancel, the
// game may be sought again.
func TestSeekOnePerGame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := &auth.Principal{Identity: "ann"}
	a := e.must(t, "ann", `{"game":"guess"}`, "waiting")
	if _, err := e.seek("ann", `{"game":"guess","clock":60}`); refuse.Status(err) != http.StatusConflict || !strings.Contains(err.Error(), "already") {
		t.Fatalf("second seek: %v", err)
	}
	e.must(t, "ann", `{"game":"tailguess"}`, "waiting")
	if err := e.s.Cancel(context.Background(), &auth.Principal{Identity: "ben"}, a.Seek.ID); refuse.Status(err) != http.StatusNotFound {
		t.Fatalf("ben cancels ann's seek: %v", err)
	}
	if err := e.s.Cancel(context.Background(), ann, a.Seek.ID); err != nil {
		t.Fatal(err)
	}
	if err := e.s.Cancel(context.Background(), ann, a.Seek.ID); refuse.Status(err) != http.StatusNotFound {
		t.Fatalf("canceled twice: %v", err)
	}
	e.must(t, "ann", `{"game":"guess","clock":60}`, "waiting")
	if got := e.streams.told["ann"]; strings.Join(got, " ") != "seek seek seekGone seek" {
		t.Fatalf("ann's stream heard %v", got)
	}
}

// TestSeekExpiry: a seek lasts while its player holds a stream open or
// asks about it within Window; a player gone has their seek dropped (and
// told so), and it pairs with nobody.
func TestSeekExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := &auth.Principal{Identity: "ann"}
	a := e.must(t, "ann", `{"game":"guess"}`, "waiting")
	e.streams.held["eve"] = true
	e.must(t, "eve", `{"game":"tailguess"}`, "waiting")
	e.clock.now = e.clock.now.Add(Window - time.Second)
	if _, err := e.s.Get(context.Background(), ann, a.Seek.ID); err != nil { // Ann's page polls
		t.Fatal(err)
	}
	e.clock.now = e.clock.now.Add(Window)
	e.s.Sweep()
	if l := list(t, e.s, ""); len(l) != 2 {
		t.Fatalf("after a poll within the window: %+v", l)
	}
	e.clock.now = e.clock.now.Add(Window)
	e.s.Sweep()
	if l := list(t, e.s, ""); len(l) != 1 || l[0].Player != "Eve" {
		t.Fatalf("Ann gone, Eve streaming: %+v", l)
	}
	if got := e.streams.told["ann"]; strings.Join(got, " ") != "seek seekGone" {
		t.Fatalf("ann's stream heard %v", got)
	}
	if _, err := e.s.Get(context.Background(), ann, a.Seek.ID); refuse.Status(err) != http.StatusNotFound {
		t.Fatalf("ann reads her dropped seek: %v", err)
	}
	// Eve closes her page: her seek is found gone by the next seek that
	// would match it, which waits instead.
	e.streams.held["eve"] = false
	e.must(t, "ben", `{"game":"tailguess"}`, "waiting")
	if n := e.s.Len(); n != 1 || len(e.tables.pairs) != 0 {
		t.Fatalf("%d seeks, %d pairings", n, len(e.tables.pairs))
	}
	// Ann comes back and seeks again: her old seek is no obstacle.
	e.must(t, "ann", `{"game":"guess"}`, "waiting")
}

// TestSeekAccept: a listed seek is accepted by another player on its
// terms; not by its own player, a guest for a rated one, or somebody
// outside its range.
func TestSeekAccept(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	a := e.must(t, "ann", `{"game":"guess","rated":true,"rating_range":{"within":100},"clock":60}`, "waiting")
	for who, status := range map[string]int{"ann": 400, "gus": 403, "cat": 403, "dan": 403, "nobody": 401} {
		if _, err := e.s.Accept(ctx, &auth.Principal{Identity: who}, a.Seek.ID); refuse.Status(err) != status {
			t.Fatalf("%s accepts: %v, want %d", who, err, status)
		}
	}
	// Ben's own seek for the game, on other terms, goes with his
	// acceptance: he plays now.
	own := e.must(t, "ben", `{"game":"guess","clock":120}`, "waiting")
	got, err := e.s.Accept(ctx, &auth.Principal{Identity: "ben"}, a.Seek.ID)
	if err != nil || got.Status != "paired" || got.Table.Seat != 1 {
		t.Fatalf("ben accepts: %+v, %v", got, err)
	}
	pr := e.tables.pairs[0]
	if !pr.Rated || pr.Rules.Int(game.ClockOption) != 60 || pr.Asker != "ben" {
		t.Fatalf("pairing %+v", pr)
	}
	if _, err := e.s.Accept(ctx, &auth.Principal{Identity: "eve"}, a.Seek.ID); refuse.Status(err) != http.StatusConflict || !strings.Contains(err.Error(), "taken meanwhile") {
		t.Fatalf("accepted twice: %v, want 409", err)
	}
	if n := e.s.Len(); n != 0 {
		t.Fatalf("%d seeks wait after Ben's acceptance", n)
	}
	if m, err := e.s.Get(ctx, &auth.Principal{Identity: "ben"}, own.Seek.ID); err != nil || m.Status != "paired" || m.Pairing.Table != got.Table.Table {
		t.Fatalf("Ben's own seek reads %+v, %v", m, err)
	}
}

// TestSeekReadWhilePairing: while the table of a pairing is being made,
// the waiting seek's player still reads it as waiting (not as gone, which
// sent their page away from the game it found) and cannot cancel it; then
// it reads as paired. The same whether a matching seek or an acceptance
// paired it.
func TestSeekReadWhilePairing(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"seek", "accept"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ctx := context.Background()
			ann, ben := &auth.Principal{Identity: "ann"}, &auth.Principal{Identity: "ben"}
			a := e.must(t, "ann", `{"game":"guess","rated":true}`, "waiting")
			e.tables.entered, e.tables.hold = make(chan struct{}), make(chan struct{})
			done := make(chan Answer, 1)
			go func() {
				var got Answer
				var err error
				if how == "seek" {
					got, err = e.seek("ben", `{"game":"guess","rated":true}`)
				} else {
					got, err = e.s.Accept(ctx, ben, a.Seek.ID)
				}
				if err != nil {
					t.Errorf("ben: %v", err)
				}
				done <- got
			}()
			<-e.tables.entered
			if m, err := e.s.Get(ctx, ann, a.Seek.ID); err != nil || m.Status != "waiting" {
				t.Errorf("Ann's seek as its table is made: %+v, %v; want waiting", m, err)
			}
			if _, err := e.s.Get(ctx, ben, a.Seek.ID); refuse.Status(err) != http.StatusNotFound {
				t.Errorf("Ben reads Ann's seek: %v, want not found", err)
			}
			if err := e.s.Cancel(ctx, ann, a.Seek.ID); refuse.Status(err) != http.StatusConflict {
				t.Errorf("Ann cancels as its table is made: %v, want a conflict", err)
			}
			if l := list(t, e.s, ""); len(l) != 0 {
				t.Errorf("the seek being paired is listed: %+v", l)
			}
			close(e.tables.hold)
			got := <-done
			if got.Status != "paired" {
				t.Fatalf("ben: %+v, want paired", got)
			}
			if m, err := e.s.Get(ctx, ann, a.Seek.ID); err != nil || m.Status != "paired" || m.Pairing.Table != got.Table.Table {
				t.Errorf("Ann's seek after: %+v, %v; want paired at %s", m, err, got.Table.Table)
			}
		})
	}
}

// TestSeekPairFails: a table that cannot be made leaves the waiting seek
// waiting, and the asker is told why.
func TestSeekPairFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.must(t, "ann", `{"game":"guess","rated":true}`, "waiting")
	e.tables.fail = refuse.TooMany("you two have played 10 rated games together in the last day")
	if _, err := e.seek("ben", `{"game":"guess","rated":true}`); refuse.Status(err) != http.StatusTooManyRequests {
		t.Fatalf("got %v", err)
	}
	if l := list(t, e.s, ""); len(l) != 1 || l[0].Player != "Ann" {
		t.Fatalf("list %+v", l)
	}
}

// TestSeekBlocked: seeks of players who keep away from each other never
// pair.
func TestSeekBlocked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.s.cfg.Blocked = func(a, b string) bool { return a == "ann" && b == "ben" || a == "ben" && b == "ann" }
	a := e.must(t, "ann", `{"game":"guess"}`, "waiting")
	e.must(t, "ben", `{"game":"guess"}`, "waiting")
	if _, err := e.s.Accept(context.Background(), &auth.Principal{Identity: "ben"}, a.Seek.ID); refuse.Status(err) != http.StatusNotFound {
		t.Fatalf("ben accepts: %v", err)
	}
	e.must(t, "eve", `{"game":"guess"}`, "paired")
}

// TestSeekComputer: a seek of the computer makes a table against it at
// once, at the level the player's rating suggests.
func TestSeekComputer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for who, level := range map[string]string{"dan": "easy", "ann": "medium", "cat": "strong", "gus": "medium"} {
		before := len(e.tables.creates)
		e.must(t, who, `{"game":"guess","opponent":"computer","clock":60}`, "computer")
		req := e.tables.creates[before]
		if req.Seats[1] != "computer:"+level || string(req.Rules[game.ClockOption]) != "60" {
			t.Fatalf("%s: %+v", who, req)
		}
	}
	if e.s.Len() != 0 {
		t.Fatal("a seek of the computer waits")
	}
}

func TestLevel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		r     float64
		rated bool
		want  string
	}{{1500, false, "medium"}, {900, false, "medium"}, {1399, true, "easy"}, {1400, true, "medium"}, {1699, true, "medium"}, {1700, true, "strong"}} {
		if got := Level(c.r, c.rated); got != c.want {
			t.Errorf("Level(%v, %v) = %s, want %s", c.r, c.rated, got, c.want)
		}
	}
}

// BenchmarkSeekPair measures a seek that pairs at once while 10,000 seeks
// wait, spread over the terms of 2 games, rated and casual, 5 clocks and
// 2 rule sets, ranged so that a third of a bucket's seeks refuse the newcomer:
// the lookup, the scan of its bucket, and the pairing's bookkeeping (the
// table itself is a fake's: making one is the tables' cost, measured by
// their own benchmarks). Each pairing is replaced by a new waiting seek,
// so that 10,000 always wait.
func BenchmarkSeekPair(b *testing.B) {
	e := newEnv(b)
	games := []string{"guess", "tailguess"}
	clocks := []string{"", `,"clock":30`, `,"clock":60`, `,"clock":120`, `,"clock":300`}
	terms := func(i int) string {
		rated := ""
		if i/2%2 == 1 {
			rated = `,"rated":true`
		}
		rules := ""
		if i/4%2 == 1 {
			rules = `,"rules":{"max":50}`
		}
		return fmt.Sprintf(`{"game":%q%s%s%s`, games[i%2], rated, rules, clocks[i/8%5])
	}
	const open = 10000
	for i := range open {
		// The waiting take only the strong (so not each other); every
		// third only the very strong, whom the newcomers are not: they
		// are scanned past.
		rng := `,"rating_range":{"min":2400}`
		if i%3 == 0 {
			rng = `,"rating_range":{"min":3000}`
		}
		if _, err := e.seek(fmt.Sprintf("p%05d", i), terms(i%40)+rng+`}`); err != nil {
			b.Fatal(err)
		}
	}
	if n := e.s.Len(); n != open {
		b.Fatalf("%d seeks wait, not %d", n, open)
	}
	reqs := make([]protocol.SeekRequest, 40)
	for i := range reqs {
		var err error
		if reqs[i], err = protocol.DecodeSeekRequest(strings.NewReader(terms(i)+`}`), 4096); err != nil {
			b.Fatal(err)
		}
	}
	waiting := map[string]*entry{}
	for _, w := range e.s.book.byID {
		waiting[w.identity] = w
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	// The CPU the process spends a pairing, the collector's included: on
	// a shared machine the time a pairing takes counts the waits for a
	// core too.
	cpu, ok := cputime.Process()
	defer func() {
		if end, _ := cputime.Process(); ok {
			b.ReportMetric(float64(end-cpu)/float64(b.N), "cpu-ns/op")
		}
	}()
	for i := range b.N {
		// The newcomers are rated 2500.
		me := &auth.Principal{Identity: fmt.Sprintf("q%d", i)}
		a, err := e.s.Seek(ctx, me, reqs[i%len(reqs)])
		if err != nil || a.Status != "paired" {
			b.Fatalf("seek %d: %+v, %v; %d wait", i, a, err, e.s.Len())
		}
		// The seek that paired waits again, under a new id (a map
		// insert and an append, counted in).
		w := waiting[e.tables.pairs[0].Seats[0].Identity]
		w.seek.ID = auth.NewID()
		e.s.book.add(w)
		e.tables.pairs = e.tables.pairs[:0]
	}
}

// TestSeekOneGameAtATime: while the table of a player's pairing is being
// made, nothing else pairs them: not an acceptance of their other seek,
// not their own acceptance of another's, not a new seek of theirs. Of
// two players accepting each other's seeks at once, one table is made.
func TestSeekOneGameAtATime(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		// second is tried while Ben's acceptance of Ann's seek (clock
		// 60) is being made; ben is Ben's own seek (clock 120), eve
		// Eve's (clock 300).
		second func(e *env, ben, eve string) (Answer, error)
		status int
	}{
		{"Ann accepts Ben's seek", func(e *env, ben, _ string) (Answer, error) {
			return e.s.Accept(context.Background(), &auth.Principal{Identity: "ann"}, ben)
		}, http.StatusConflict},
		{"Cat accepts Ben's seek", func(e *env, ben, _ string) (Answer, error) {
			return e.s.Accept(context.Background(), &auth.Principal{Identity: "cat"}, ben)
		}, http.StatusConflict},
		{"Ann accepts Eve's seek", func(e *env, _, eve string) (Answer, error) {
			return e.s.Accept(context.Background(), &auth.Principal{Identity: "ann"}, eve)
		}, http.StatusConflict},
		{"Ann seeks again", func(e *env, _, _ string) (Answer, error) {
			return e.seek("ann", `{"game":"guess","clock":300}`)
		}, http.StatusConflict},
		{"Ben accepts Eve's seek", func(e *env, _, eve string) (Answer, error) {
			return e.s.Accept(context.Background(), &auth.Principal{Identity: "ben"}, eve)
		}, http.StatusConflict},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			a := e.must(t, "ann", `{"game":"guess","clock":60}`, "waiting")
			b := e.must(t, "ben", `{"game":"guess","clock":120}`, "waiting")
			v := e.must(t, "eve", `{"game":"guess","clock":300}`, "waiting")
			e.tables.entered, e.tables.hold = make(chan struct{}), make(chan struct{})
			first := make(chan error, 1)
			go func() {
				_, err := e.s.Accept(context.Background(), &auth.Principal{Identity: "ben"}, a.Seek.ID)
				first <- err
			}()
			<-e.tables.entered
			second := make(chan error, 1)
			go func() {
				got, err := c.second(e, b.Seek.ID, v.Seek.ID)
				if err == nil {
					err = fmt.Errorf("answered %q", got.Status)
				}
				second <- err
			}()
			select {
			case <-e.tables.entered:
				t.Errorf("a second table is made while the first is")
				close(e.tables.hold)
				<-second
			case err := <-second:
				if refuse.Status(err) != c.status {
					t.Errorf("got %v, want %d", err, c.status)
				}
				close(e.tables.hold)
			}
			if err := <-first; err != nil {
				t.Fatalf("Ben's acceptance: %v", err)
			}
			if len(e.tables.pairs) != 1 {
				t.Errorf("%d tables made, want 1", len(e.tables.pairs))
			}
			if m, err := e.s.Get(context.Background(), &auth.Principal{Identity: "ben"}, b.Seek.ID); err != nil || m.Status != "paired" {
				t.Errorf("Ben's own seek reads %+v, %v; want paired", m, err)
			}
			if l := list(t, e.s, ""); len(l) != 1 || l[0].Player != "Eve" {
				t.Errorf("seeks waiting after: %+v, want Eve's", l)
			}
		})
	}
}

// TestSeekTwiceAtOnce: a player whose seek or acceptance is making a
// table of theirs is refused a second seek or acceptance for the game at
// that moment (a double click, a client's retry), which found two seeks
// to pair with and seated them at two tables; once the first is made, or
// fails, they may seek again.
func TestSeekTwiceAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	eve := &auth.Principal{Identity: "eve"}
	seek := func(e *env, _ string) (Answer, error) {
		return e.seek("eve", `{"game":"guess","rated":true,"clock":51}`)
	}
	accept := func(e *env, id string) (Answer, error) { return e.s.Accept(ctx, eve, id) }
	for _, c := range []struct {
		name          string
		first, second func(e *env, id string) (Answer, error)
		fail          bool // the first table is not made
	}{
		{"seek twice", seek, seek, false},
		{"accept twice", accept, accept, false},
		{"seek then accept", seek, accept, false},
		{"accept then seek", accept, seek, false},
		{"seek twice, the first failing", seek, seek, true},
		{"accept twice, the first failing", accept, accept, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			// Ann and Ben keep apart, so their seeks wait side by side,
			// each matching Eve's.
			e.s.cfg.Blocked = func(a, b string) bool { return a == "ann" && b == "ben" || a == "ben" && b == "ann" }
			a := e.must(t, "ann", `{"game":"guess","rated":true,"clock":51}`, "waiting")
			b := e.must(t, "ben", `{"game":"guess","rated":true,"clock":51}`, "waiting")
			if c.fail {
				e.tables.fail = refuse.Unavailable("the store is away")
			}
			e.tables.entered, e.tables.hold = make(chan struct{}), make(chan struct{})
			first := make(chan error, 1)
			go func() {
				_, err := c.first(e, a.Seek.ID)
				first <- err
			}()
			<-e.tables.entered
			second := make(chan error, 1)
			go func() {
				got, err := c.second(e, b.Seek.ID)
				if err == nil {
					err = fmt.Errorf("answered %q", got.Status)
				}
				second <- err
			}()
			select {
			case <-e.tables.entered:
				t.Errorf("a second table of Eve's is made while the first is")
				close(e.tables.hold)
				<-second
			case err := <-second:
				if refuse.Status(err) != http.StatusConflict || !strings.Contains(err.Error(), "one game at a time") {
					t.Errorf("the second: %v, want a conflict, one game at a time", err)
				}
				close(e.tables.hold)
			}
			err := <-first
			if c.fail {
				if err == nil {
					t.Fatalf("the first was made, want it to fail")
				}
			} else if err != nil {
				t.Fatalf("the first: %v", err)
			}
			e.tables.mu.Lock()
			n := len(e.tables.pairs)
			e.tables.mu.Unlock()
			if want := map[bool]int{false: 1, true: 0}[c.fail]; n != want {
				t.Errorf("%d tables made, want %d", n, want)
			}
			// The first done, Eve is asking no more: she seeks again.
			e.tables.entered, e.tables.hold, e.tables.fail = nil, nil, nil
			if _, err := e.seek("eve", `{"game":"guess","rated":true,"clock":51}`); err != nil {
				t.Errorf("Eve seeks after: %v", err)
			}
		})
	}
}

// TestSeekPassesCappedPair: a pairing refused for its two players alone
// (their rated games together for the day) passes on to the next seek
// that matches; with none, the refusal is the answer, and the seek it
// could not pair with waits on.
func TestSeekPassesCappedPair(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		eve     bool // Eve's seek, which Ben may pair with, waits too
		wantEve bool
	}{
		{"another seek matches", true, true},
		{"none other matches", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.tables.refuse = func(pr table.Pairing) error {
				ids := []string{pr.Seats[0].Identity, pr.Seats[1].Identity}
				if slices.Contains(ids, "ann") && slices.Contains(ids, "ben") {
					return refuse.TooMany("you two have played 10 rated games together in the last day: play casual games until the first of them is a day old")
				}
				return nil
			}
			e.must(t, "ann", `{"game":"guess","rated":true}`, "waiting")
			if c.eve {
				// Eve's range leaves Ann (1500) out, and takes Ben (1520).
				e.must(t, "eve", `{"game":"guess","rated":true,"rating_range":{"min":1510}}`, "waiting")
			}
			got, err := e.seek("ben", `{"game":"guess","rated":true}`)
			if c.wantEve {
				if err != nil || got.Status != "paired" || len(e.tables.pairs) != 1 || e.tables.pairs[0].Seats[0].Identity != "eve" {
					t.Fatalf("Ben seeks: %+v, %v, pairs %+v; want paired with Eve", got, err, e.tables.pairs)
				}
			} else if refuse.Status(err) != http.StatusTooManyRequests {
				t.Fatalf("Ben seeks: %+v, %v; want the cap's refusal", got, err)
			}
			if l := list(t, e.s, ""); len(l) != 1 || l[0].Player != "Ann" {
				t.Errorf("seeks waiting after: %+v, want Ann's alone", l)
			}
		})
	}
}

// list is s.List for anybody, failing t on an error.
func list(t *testing.T, s *Service, gameName string) []Seek {
	t.Helper()
	l, err := s.List(context.Background(), nil, gameName)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestSeekProvisional: a seek lists its player's rating as a profile
// shows it: provisional (a question mark) for an account new to the pool
// and for one whose RD is 110 or more, and not for a settled rating nor
// for a guest, who has none.
func TestSeekProvisional(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		who         string
		rating      int
		provisional bool
	}{
		{"ann", 1500, false},
		{"new", 1500, true},
		{"fay", 1700, true},
		{"gus", 0, false},
	} {
		t.Run(c.who, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			a := e.must(t, c.who, `{"game":"guess"}`, "waiting")
			if a.Seek.Rating != c.rating || a.Seek.Provisional != c.provisional {
				t.Errorf("%s's seek: rating %d, provisional %v; want %d, %v", c.who, a.Seek.Rating, a.Seek.Provisional, c.rating, c.provisional)
			}
			list, err := e.s.List(context.Background(), nil, "")
			if err != nil || len(list) != 1 || list[0].Provisional != c.provisional {
				t.Errorf("the lobby lists %+v (%v); want one seek, provisional %v", list, err, c.provisional)
			}
		})
	}
}

// ratingsStore is a store that knows only one identity's ratings.
type ratingsStore struct {
	store.Store
	store.Players
	rs []store.Rating
}

func (f ratingsStore) Ratings(context.Context, string) ([]store.Rating, error) { return f.rs, nil }

// TestStoreRating: the rating a seek shows is the stored one with its RD
// grown by the time since the pool's last game, as a profile's: a rating
// settled a week ago stays settled, and one settled two years ago is
// provisional again.
func TestStoreRating(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name        string
		updated     time.Time
		provisional bool
	}{
		{"a week ago", now.AddDate(0, 0, -7), false},
		{"two years ago", now.AddDate(-2, 0, 0), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st := ratingsStore{rs: []store.Rating{{Identity: "ann", Pool: "guess", Rating: 1712, RD: 60, Volatility: 0.06, Games: 30, Updated: c.updated}}}
			r, ok, err := StorePlayers{Store: st}.Rating(context.Background(), "ann", "guess", now)
			if err != nil || !ok {
				t.Fatalf("Rating: %v, %v", ok, err)
			}
			want := glicko.System{}.Away(glicko.Rating{Value: 1712, RD: 60, Volatility: 0.06}, now.Sub(c.updated))
			if r != want || glicko.Provisional(r) != c.provisional {
				t.Errorf("rating %v, provisional %v; want %v, %v", r, glicko.Provisional(r), want, c.provisional)
			}
		})
	}
}

// TestSeekRenamed: a seek whose player a moderator renames is listed,
// read and refused under the new name; the table it makes seats the
// player as they are then (pair reads them anew).
func TestSeekRenamed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	a := e.must(t, "ann", `{"game":"guess","rating_range":{"within":100}}`, "waiting")
	e.s.Renamed("ann", "Annabel")
	list, err := e.s.List(ctx, nil, "")
	if err != nil || len(list) != 1 || list[0].Player != "Annabel" {
		t.Errorf("the lobby lists %+v (%v), want Annabel's seek", list, err)
	}
	if m, err := e.s.Get(ctx, &auth.Principal{Identity: "ann"}, a.Seek.ID); err != nil || m.Seek.Player != "Annabel" {
		t.Errorf("Ann reads %+v (%v), want her seek as Annabel's", m, err)
	}
	if w := e.s.Waiting(ctx, "ann"); len(w) != 1 || w[0].Player != "Annabel" {
		t.Errorf("Ann's stream opens with %+v, want her seek as Annabel's", w)
	}
	if _, err := e.s.Accept(ctx, &auth.Principal{Identity: "cat"}, a.Seek.ID); err == nil || !strings.HasPrefix(err.Error(), "Annabel seeks opponents rated 1400 to 1600") {
		t.Errorf("Cat's acceptance: %v, want a refusal naming Annabel", err)
	}
}

// fakePeers stands in for the other nodes of a cluster: who holds a
// stream open there, the seeks waiting there, and the games begun told.
type fakePeers struct {
	mu      sync.Mutex
	holding []string
	down    bool // the other nodes do not answer
	waiting map[string]json.RawMessage
	started []string // "identity table"
	asked   []string // the identities each HoldingElsewhere asked about
}

func (f *fakePeers) HoldingElsewhere(_ context.Context, ids []string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, strings.Join(ids, " "))
	if f.down {
		return nil, errors.New("node b did not answer")
	}
	var out []string
	for _, id := range ids {
		if slices.Contains(f.holding, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

func (f *fakePeers) WaitingElsewhere(_ context.Context, identity string) ([]json.RawMessage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return nil, errors.New("node b did not answer")
	}
	if b, ok := f.waiting[identity]; ok {
		return []json.RawMessage{b}, nil
	}
	return nil, nil
}

func (f *fakePeers) StartedElsewhere(ids []string, table string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range ids {
		f.started = append(f.started, id+" "+table)
	}
}

// TestSeekPeers: on a node of a cluster that keeps the seeks, a seek
// waits on while its player holds a stream open on another node, as the
// last sweep found (and as it found before when a node does not answer);
// a game begun here is told to the other nodes, and one begun there
// withdraws the seeks here; a player's stream opening lists their seeks
// on every node; a book taken over by another node is emptied, each
// player told.
func TestSeekPeers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	peers := &fakePeers{holding: []string{"ann"}, waiting: map[string]json.RawMessage{}}
	e.s.cfg.Peers = peers
	e.must(t, "ann", `{"game":"guess"}`, "waiting")
	e.must(t, "ben", `{"game":"tailguess"}`, "waiting")
	e.streams.held["eve"] = true
	eve := e.must(t, "eve", `{"game":"guess","rated":true}`, "waiting")
	e.s.Sweep()
	peers.mu.Lock()
	if len(peers.asked) != 1 || strings.Join(slices.Sorted(strings.FieldsSeq(peers.asked[0])), " ") != "ann ben" {
		t.Errorf("the other nodes were asked about %q, want Ann and Ben (Eve holds a stream here)", peers.asked)
	}
	peers.mu.Unlock()
	e.streams.held["eve"] = false
	if err := e.s.Cancel(context.Background(), &auth.Principal{Identity: "eve"}, eve.Seek.ID); err != nil {
		t.Fatal(err)
	}
	e.clock.now = e.clock.now.Add(2 * Window)
	peers.mu.Lock()
	peers.down = true
	peers.mu.Unlock()
	e.s.Sweep()
	if l := list(t, e.s, ""); len(l) != 1 || l[0].Player != "Ann" {
		t.Fatalf("Ann streaming on another node (which then did not answer), Ben gone: %+v", l)
	}
	peers.mu.Lock()
	peers.down, peers.holding = false, nil
	peers.mu.Unlock()
	e.s.Sweep()
	if n := e.s.Len(); n != 0 {
		t.Fatalf("Ann's stream closed on the other node: %d seeks wait", n)
	}

	// A game begun here is told to the other nodes; one begun there
	// withdraws the seeks of its player here.
	e.clock.now = e.clock.now.Add(time.Minute)
	e.must(t, "ann", `{"game":"guess"}`, "waiting")
	e.s.Started(table.GameNote{Table: "t1", Seats: []string{"cat", "dan"}})
	e.s.Started(table.GameNote{Table: "t2", Seats: []string{"eve", ""}}) // against the computer
	peers.mu.Lock()
	if got := strings.Join(peers.started, ", "); got != "cat t1, dan t1" {
		t.Errorf("games begun told to the other nodes: %q, want cat's and dan's at t1", got)
	}
	peers.mu.Unlock()
	e.s.StartedHere("ann", "t3")
	if n := e.s.Len(); n != 0 {
		t.Fatalf("Ann's game began on another node: %d seeks wait", n)
	}

	// The opening of a stream lists the seeks on every node, oldest
	// first; a node that does not answer leaves its own out.
	there := e.must(t, "ann", `{"game":"tailguess"}`, "waiting")
	e.s.Clear()
	b, _ := json.Marshal([]Seek{*there.Seek})
	peers.mu.Lock()
	peers.waiting["ann"] = b
	peers.mu.Unlock()
	e.clock.now = e.clock.now.Add(time.Second)
	here := e.must(t, "ann", `{"game":"guess"}`, "waiting")
	w := e.s.Waiting(context.Background(), "ann")
	if len(w) != 2 || w[0].ID != there.Seek.ID || w[1].ID != here.Seek.ID {
		t.Errorf("Ann's stream opens with %+v, want the seek on the other node, then hers here", w)
	}
	peers.mu.Lock()
	peers.down = true
	peers.mu.Unlock()
	if w := e.s.Waiting(context.Background(), "ann"); len(w) != 1 || w[0].ID != here.Seek.ID {
		t.Errorf("the other node silent, Ann's stream opens with %+v, want her seek here", w)
	}

	// Clear tells each player their seek went.
	e.s.Clear()
	if n := e.s.Len(); n != 0 {
		t.Fatalf("after the book passed to another node: %d seeks wait", n)
	}
	if got := e.streams.told["ann"]; len(got) < 2 || got[len(got)-1] != "seekGone" {
		t.Errorf("Ann's stream heard %v, want her seek gone last", got)
	}
}

// TestSeekHandedOn: the seeks one node hands on (Hand) wait in another's
// book (Take) as they waited: listed alike, pairing on the same terms and
// rating ranges; one whose player already seeks the game there, or of a
// game the node does not know, is dropped and its player told.
func TestSeekHandedOn(t *testing.T) {
	t.Parallel()
	from, to := newEnv(t), newEnv(t)
	ann := from.must(t, "ann", `{"game":"guess","rating_range":{"min":1400}}`, "waiting")
	from.must(t, "eve", `{"game":"tailguess","rated":true,"rating_range":{"within":50}}`, "waiting")
	from.must(t, "dan", `{"game":"guess","rated":true}`, "waiting")
	to.must(t, "dan", `{"game":"guess","rated":true}`, "waiting") // Dan seeks on the other node too
	// Cat's seek pairs with Fay's on the first node; Cat has yet to read it.
	cat := from.must(t, "cat", `{"game":"guess","clock":60}`, "waiting")
	fay := from.must(t, "fay", `{"game":"guess","clock":60}`, "paired")
	before := list(t, from.s, "")
	hs := from.s.Hand()
	if n := from.s.Len(); n != 0 || len(hs) != 4 {
		t.Fatalf("handed %d seeks, %d left behind; want 3 and Cat's answer, and none", len(hs), n)
	}
	bad := hs[len(hs)-1]
	bad.Seek.ID, bad.Seek.Game, bad.Identity = "zzzzzzzzzzzzzzzz", "chess", "gia"
	if got := to.s.Take(append(hs, bad)); got != 2 {
		t.Fatalf("took %d seeks, want Ann's and Eve's", got)
	}
	if m, err := to.s.Get(context.Background(), &auth.Principal{Identity: "cat"}, cat.Seek.ID); err != nil || m.Status != "paired" || m.Pairing.Table != fay.Table.Table {
		t.Errorf("Cat reads her seek on the node handed it: %+v, %v; want paired at %s", m, err, fay.Table.Table)
	}
	after := list(t, to.s, "")
	for _, sk := range before {
		if sk.Player == "Dan" {
			continue
		}
		if !slices.ContainsFunc(after, func(o Seek) bool {
			a, _ := json.Marshal(o)
			b, _ := json.Marshal(sk)
			return string(a) == string(b)
		}) {
			t.Errorf("%s's seek %+v is not listed alike after the hand-over: %+v", sk.Player, sk, after)
		}
	}
	for _, who := range []string{"dan", "gia"} {
		if got := to.streams.told[who]; len(got) == 0 || got[len(got)-1] != "seekGone" {
			t.Errorf("%s's stream heard %v, want the handed seek gone", who, got)
		}
	}
	// The ranges hold: Dan (1100) may not take Ann's, Fay (1700) may not
	// take Eve's (1430 to 1530); Ben pairs with Ann's on its terms.
	if _, err := to.s.Accept(context.Background(), &auth.Principal{Identity: "dan"}, ann.Seek.ID); refuse.Status(err) != http.StatusForbidden {
		t.Errorf("Dan accepts Ann's seek of 1400 and up: %v, want refused", err)
	}
	to.must(t, "fay", `{"game":"tailguess","rated":true}`, "waiting")
	if a := to.must(t, "ben", `{"game":"guess"}`, "paired"); a.Table == nil {
		t.Errorf("Ben's seek paired without a table")
	}
	if p := to.tables.pairs; len(p) != 1 || p[0].Seats[0].Identity != "ann" {
		t.Errorf("pairings %+v, want Ann's with Ben", p)
	}
}

// TestSeekHeld: the book a server holds in the store as it stops (Hold)
// waits in the next server's (TakeBack) as it waited, listed alike and
// pairing on its terms, each player given Window from the restart to
// come back; seeks held longer than HeldKept ago, or unreadable, are
// dropped, and nothing is taken twice.
func TestSeekHeld(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "parlour.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	stop := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	before := newHeldEnv(t, st, stop)
	ann := before.must(t, "ann", `{"game":"guess","rating_range":{"min":1400}}`, "waiting")
	eve := before.must(t, "eve", `{"game":"tailguess","rated":true}`, "waiting")
	// Cat's seek pairs with Fay's just before the stop, and Cat's page
	// has yet to read it.
	cat := before.must(t, "cat", `{"game":"guess","clock":60}`, "waiting")
	fay := before.must(t, "fay", `{"game":"guess","clock":60}`, "paired")
	listed, _ := json.Marshal(list(t, before.s, ""))
	before.clock.now = stop.Add(-25 * time.Second) // Eve asked last 25 s before the stop
	if _, err := before.s.Get(ctx, &auth.Principal{Identity: "eve"}, eve.Seek.ID); err != nil {
		t.Fatal(err)
	}
	before.clock.now = stop
	if n, err := before.s.Hold(ctx); err != nil || n != 3 {
		t.Fatalf("Hold: %d, %v; want 3 (two waiting, and Cat's answer)", n, err)
	}
	if n := before.s.Len(); n != 0 {
		t.Fatalf("%d seeks left in the book of a server that stopped", n)
	}
	// A seek that comes as the server stops is refused, not lost.
	if _, err := before.seek("ben", `{"game":"guess"}`); refuse.Status(err) != http.StatusServiceUnavailable {
		t.Errorf("a seek after the book was held: %v, want 503", err)
	}
	if got := before.streams.told["ann"]; len(got) != 1 || got[0] != "seek" {
		t.Errorf("Ann's stream heard %v as the server stopped, want only her seek", got)
	}

	// The next server starts two minutes later.
	after := newHeldEnv(t, st, stop.Add(2*time.Minute))
	if n, err := after.s.TakeBack(ctx); err != nil || n != 2 {
		t.Fatalf("TakeBack: %d, %v; want 2", n, err)
	}
	if got, _ := json.Marshal(list(t, after.s, "")); string(got) != string(listed) {
		t.Errorf("listed after the restart:\n%s\nbefore:\n%s", got, listed)
	}
	if m, err := after.s.Get(ctx, &auth.Principal{Identity: "cat"}, cat.Seek.ID); err != nil || m.Status != "paired" || m.Pairing == nil || m.Pairing.Table != fay.Table.Table || m.Pairing.Seat == fay.Table.Seat {
		t.Errorf("Cat reads her seek, paired before the stop: %+v, %v", m, err)
	}
	if n, err := newHeldEnv(t, st, stop.Add(2*time.Minute)).s.TakeBack(ctx); err != nil || n != 0 {
		t.Errorf("a third server took back %d seeks, %v; want none", n, err)
	}
	// Both have Window from the restart, Eve's 25 s before the stop
	// forgotten; Ann comes back and asks, Eve does not.
	after.clock.now = after.clock.now.Add(Window - time.Second)
	if m, err := after.s.Get(ctx, &auth.Principal{Identity: "ann"}, ann.Seek.ID); err != nil || m.Status != "waiting" {
		t.Fatalf("Ann asks about her seek after the restart: %+v, %v", m, err)
	}
	after.s.Sweep()
	if n := after.s.Len(); n != 2 {
		t.Fatalf("%d seeks wait within Window of the restart, want 2", n)
	}
	after.clock.now = after.clock.now.Add(2 * time.Second)
	after.s.Sweep()
	if got := list(t, after.s, ""); len(got) != 1 || got[0].ID != ann.Seek.ID {
		t.Fatalf("after Window, listed %+v; want Ann's alone", got)
	}
	if _, err := after.s.Accept(ctx, &auth.Principal{Identity: "dan"}, ann.Seek.ID); refuse.Status(err) != http.StatusForbidden {
		t.Errorf("Dan (1100) accepts Ann's seek of 1400 and up: %v, want refused", err)
	}
	if a := after.must(t, "ben", `{"game":"guess"}`, "paired"); a.Table == nil {
		t.Errorf("Ben's seek paired without a table")
	}

	// A stop longer than HeldKept drops what it held, as does a seek the
	// server cannot read.
	long := newHeldEnv(t, st, stop)
	long.must(t, "cat", `{"game":"guess"}`, "waiting")
	if n, err := long.s.Hold(ctx); err != nil || n != 1 {
		t.Fatalf("Hold: %d, %v", n, err)
	}
	if err := st.HoldSeeks(ctx, []store.HeldSeek{{ID: "zzzzzzzzzzzzzzzz", Body: []byte("{not json"), Held: stop}}); err != nil {
		t.Fatal(err)
	}
	late := newHeldEnv(t, st, stop.Add(HeldKept+time.Second))
	if n, err := late.s.TakeBack(ctx); err != nil || n != 0 {
		t.Fatalf("TakeBack after %v: %d, %v; want none", HeldKept+time.Second, n, err)
	}
	if left, err := st.TakeSeeks(ctx); err != nil || len(left) != 0 {
		t.Errorf("left held: %+v, %v", left, err)
	}

	// A server without a store to hold them in holds nothing.
	if n, err := newEnv(t).s.Hold(ctx); err != nil || n != 0 {
		t.Errorf("Hold without a store: %d, %v", n, err)
	}
}
