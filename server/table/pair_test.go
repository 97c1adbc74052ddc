package table

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/store"
)

// heard is an Observer that keeps what it hears.
type heard struct {
	mu      sync.Mutex
	started []GameNote
}

func (h *heard) Started(n GameNote) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.started = append(h.started, n)
}

func (h *heard) Finished(GameNote, *store.GameEnd) {}

// TestPair: a pairing seats its players under their names (made unique),
// answers the asker's seat with its token, and is heard of as started
// once; one that may not be made (a rated table of an unrated game, a
// challenge no longer open) makes nothing.
func TestPair(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := &heard{}
	f := &fixture{t: t, dir: t.TempDir(), observers: []Observer{h}}
	f.open()
	t.Cleanup(f.close)
	for _, id := range []string{"ann-id", "ann2-id"} {
		if err := f.db.CreateIdentity(ctx, store.Identity{ID: id, Name: "Ann", Created: time.Now()}, store.Credential{Hash: []byte(id), Identity: id}); err != nil {
			t.Fatal(err)
		}
	}
	pr := Pairing{Game: servertest.Guess{}, Rules: servertest.Config(100).Rules, Asker: "ann2-id",
		Seats: []PairedSeat{{Identity: "ann-id", Name: "Ann"}, {Identity: "ann2-id", Name: "Ann"}}}
	seated, err := f.s.Pair(ctx, pr)
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.s.auth.Authenticate(ctx, seated.Token)
	if err != nil || p.Identity != "ann2-id" || p.Table != seated.Table || p.Seat != seated.Seat {
		t.Fatalf("the asker's token stands for %+v, %v; seated %+v", p, err, seated)
	}
	u, err := f.s.View(ctx, p, seated.Table)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, st := range u.Table.Seats {
		names[st.Name] = true
	}
	if len(u.Table.Seats) != 2 || len(names) != 2 || u.Table.Rated {
		t.Fatalf("seats %+v, rated %v: want two players under two names, unrated", u.Table.Seats, u.Table.Rated)
	}
	h.mu.Lock()
	if len(h.started) != 1 || h.started[0].Table != seated.Table || len(h.started[0].Seats) != 2 {
		t.Errorf("the observer heard %+v, want the one table started", h.started)
	}
	h.mu.Unlock()

	before := f.s.InMemory()
	for _, c := range []struct {
		name   string
		change func(*Pairing)
		status int
		is     error
	}{
		{"a rated table of a game that is not rated", func(p *Pairing) { p.Rated = true }, http.StatusBadRequest, nil},
		{"a challenge no longer open", func(p *Pairing) { p.Challenge = "no-such-challenge" }, 0, store.ErrChallengeNotOpen},
	} {
		bad := pr
		c.change(&bad)
		_, err := f.s.Pair(ctx, bad)
		switch {
		case err == nil:
			t.Errorf("%s: made a table", c.name)
		case c.is != nil && !errors.Is(err, c.is):
			t.Errorf("%s: %v, want %v", c.name, err, c.is)
		case c.status != 0 && refuse.Status(err) != c.status:
			t.Errorf("%s: %v (status %d), want %d", c.name, err, refuse.Status(err), c.status)
		}
	}
	if n := f.s.InMemory(); n != before {
		t.Errorf("refused pairings left %d tables in memory, want %d", n, before)
	}
	h.mu.Lock()
	if len(h.started) != 1 {
		t.Errorf("refused pairings were heard of: %s", fmt.Sprint(h.started))
	}
	h.mu.Unlock()
}

// TestPairEvent: a table paired for a tournament names the event and
// round in its record, and still does once rebuilt from the store.
func TestPairEvent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := &fixture{t: t, dir: t.TempDir()}
	f.open()
	t.Cleanup(f.close)
	for _, id := range []string{"ann-id", "ben-id"} {
		if err := f.db.CreateIdentity(ctx, store.Identity{ID: id, Name: id[:3], Created: time.Now()}, store.Credential{Hash: []byte(id), Identity: id}); err != nil {
			t.Fatal(err)
		}
	}
	ev := &game.Tournament{ID: "t1", Name: "Sunday Swiss", Round: 3}
	seated, err := f.s.Pair(ctx, Pairing{Game: servertest.Guess{}, Rules: servertest.Config(100).Rules, Asker: "ann-id", Event: ev,
		Seats: []PairedSeat{{Identity: "ann-id", Name: "Ann"}, {Identity: "ben-id", Name: "Ben"}}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.s.auth.Authenticate(ctx, seated.Token)
	if err != nil {
		t.Fatal(err)
	}
	for _, when := range []string{"in memory", "rebuilt from the store"} {
		if when == "rebuilt from the store" {
			f.s.Drop(seated.Table)
		}
		rec, err := f.s.Record(ctx, p, seated.Table)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Event == nil || *rec.Event != *ev {
			t.Errorf("%s: the record's event is %+v, want %+v", when, rec.Event, ev)
		}
	}
}

// deserter is an Observer that keeps the desertions it hears.
type deserter struct {
	heard
	seats chan int
}

func (d *deserter) Deserted(_ GameNote, seat int) { d.seats <- seat }

// TestPairedTableLeft: a player who leaves a paired table before play
// begins closes it, saying who left, rather than open the seat to
// anybody; the observers hear who did not show up. A table made for
// whoever comes opens the seat again, as before.
func TestPairedTableLeft(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := &deserter{seats: make(chan int, 1)}
	f := &fixture{t: t, dir: t.TempDir(), observers: []Observer{d}}
	f.open()
	t.Cleanup(f.close)
	for _, id := range []string{"ann-id", "ben-id"} {
		if err := f.db.CreateIdentity(ctx, store.Identity{ID: id, Name: id, Created: time.Now()}, store.Credential{Hash: []byte(id), Identity: id}); err != nil {
			t.Fatal(err)
		}
	}
	seated, err := f.s.Pair(ctx, Pairing{Game: servertest.Guess{}, Rules: servertest.Config(100).Rules, Asker: "ben-id",
		Seats: []PairedSeat{{Identity: "ann-id", Name: "Ann"}, {Identity: "ben-id", Name: "Ben"}}})
	if err != nil {
		t.Fatal(err)
	}
	ben := f.principal(seated.Token)
	l, err := f.s.Leave(ctx, ben, seated.Table)
	if err != nil || !l.Cancelled || l.Seat != seated.Seat {
		t.Fatalf("Ben leaves the paired table: %+v, %v; want it closed", l, err)
	}
	select {
	case seat := <-d.seats:
		if seat != seated.Seat {
			t.Errorf("the observers heard seat %d desert, want %d", seat, seated.Seat)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the observers never heard of the desertion")
	}
	cat := &auth.Principal{Identity: "cat-id"}
	if _, err := f.s.Join(ctx, cat, seated.Table, JoinRequest{Name: "Cat"}); refuse.Status(err) != http.StatusGone || !strings.Contains(err.Error(), "Ben left before the game began") {
		t.Errorf("a stranger joining the closed table: %v, want 410 saying Ben left", err)
	}

	open, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	j, err := f.s.Join(ctx, nil, open.Table, JoinRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if l, err := f.s.Leave(ctx, f.principal(j.Token), open.Table); err != nil || l.Cancelled {
		t.Fatalf("leaving a table made for whoever comes: %+v, %v; want the seat open again", l, err)
	}
	select {
	case seat := <-d.seats:
		t.Errorf("the observers heard seat %d desert a table nobody paired", seat)
	default:
	}
}

// TestPairSetupBy: a pairing that says when its setups are due has its
// table show the time to everyone while it is in setup, kept across the
// table leaving memory, and no longer once play begins; a pairing
// without one shows none.
func TestPairSetupBy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	for _, id := range []string{"ann-id", "ben-id"} {
		if err := f.db.CreateIdentity(ctx, store.Identity{ID: id, Name: id, Created: time.Now()}, store.Credential{Hash: []byte(id), Identity: id}); err != nil {
			t.Fatal(err)
		}
	}
	due := time.Date(2030, 1, 2, 15, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		name string
		by   time.Time
	}{{"with a deadline", due}, {"without", time.Time{}}} {
		pr := Pairing{Game: servertest.Guess{}, Rules: servertest.Config(100).Rules, Asker: "ann-id",
			Seats:   []PairedSeat{{Identity: "ann-id", Name: "Ann"}, {Identity: "ben-id", Name: "Ben"}},
			Event:   &game.Tournament{ID: "e1", Name: "Cup", Round: 1},
			SetupBy: c.by}
		seated, err := f.s.Pair(ctx, pr)
		if err != nil {
			t.Fatal(err)
		}
		shows := func(what string, want *time.Time) {
			t.Helper()
			u, err := f.s.View(ctx, nil, seated.Table)
			if err != nil {
				t.Fatal(err)
			}
			got := u.Table.SetupBy
			if (got == nil) != (want == nil) || got != nil && !got.Equal(*want) {
				t.Errorf("%s, %s: setup_by %v, want %v", c.name, what, got, want)
			}
			b, err := json.Marshal(u.Table)
			if err != nil {
				t.Fatal(err)
			}
			if has := bytes.Contains(b, []byte(`"setup_by"`)); has != (want != nil) {
				t.Errorf("%s, %s: the information reads %s", c.name, what, b)
			}
		}
		var want *time.Time
		if !c.by.IsZero() {
			want = &c.by
		}
		shows("in setup", want)
		f.close()
		f.open()
		shows("in setup, loaded again", want)
		for i, id := range []string{"ann-id", "ben-id"} {
			if _, err := f.s.Setup(ctx, &auth.Principal{Identity: id}, seated.Table, SetupRequest{Setup: []byte(`{"number": 50}`)}); err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				shows("one setup in", want)
			}
		}
		shows("in play", nil)
	}
}
