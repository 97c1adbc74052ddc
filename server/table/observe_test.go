package table

import (
	"context"
	"sync"
	"testing"

	"parlour/server/internal/servertest"
	"parlour/store"
)

// reader is an Observer that reads the table it hears of, which it could
// not do were it called with the table's lock held.
type reader struct {
	s        *Service
	mu       sync.Mutex
	started  []string
	finished []string
	notes    []GameNote
}

func (r *reader) Started(n GameNote) {
	if _, err := r.s.View(context.Background(), nil, n.Table); err != nil {
		panic(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.started = append(r.started, n.Table)
	r.notes = append(r.notes, n)
}

func (r *reader) Finished(n GameNote, end *store.GameEnd) {
	if _, err := r.s.View(context.Background(), nil, n.Table); err != nil {
		panic(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finished = append(r.finished, n.Table)
}

// TestObserversOutsideTheLock: the observers hear that a game started
// (its last seat taken) and finished, once each, in that order, and may
// read the table as they hear of it; the note marks the guests' seats.
func TestObserversOutsideTheLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := &reader{}
	f := &fixture{t: t, dir: t.TempDir(), observers: []Observer{r}}
	f.open()
	t.Cleanup(f.close)
	r.s = f.s
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.started) != 0 {
		t.Fatalf("a table with an open seat was heard of as started: %v", r.started)
	}
	b, err := f.s.Join(ctx, nil, a.Table, JoinRequest{Name: "Ben"})
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := f.principal(a.Token), f.principal(b.Token)
	for _, p := range []struct {
		seat  *Seated
		setup string
	}{{&a, `{"number": 3}`}, {&b, `{"number": 7}`}} {
		if _, err := f.s.Setup(ctx, f.principal(p.seat.Token), a.Table, SetupRequest{Setup: []byte(p.setup)}); err != nil {
			t.Fatal(err)
		}
	}
	// Ann resigns: the game ends.
	u, err := f.s.View(ctx, pa, a.Table)
	if err != nil {
		t.Fatal(err)
	}
	who := pa
	if len(u.Table.ToMove) == 1 && u.Table.ToMove[0] == 1 {
		who = pb
	}
	if _, err := f.s.Move(ctx, who, a.Table, MoveRequest{Move: bisect(t, u, servertest.Config(100).Rules.Int("max"))}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.Move(ctx, pb, a.Table, MoveRequest{Move: "resign"}); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.started) != 1 || r.started[0] != a.Table || len(r.finished) != 1 || r.finished[0] != a.Table {
		t.Fatalf("heard started %v and finished %v, want table %s once each", r.started, r.finished, a.Table)
	}
	// Ann and Ben sat down as guests, whom nobody follows.
	if n := r.notes[0]; len(n.Seats) != 2 || n.Seats[0] == "" || len(n.Guests) != 2 || !n.Guests[0] || !n.Guests[1] {
		t.Fatalf("the start's note: seats %q, guests %v; want two guests", n.Seats, n.Guests)
	}
}

// turns is a TurnObserver that keeps the seats it hears are to move;
// deaf, it says it does not hear them.
type turns struct {
	reader
	turns [][]int
	deaf  bool
}

func (r *turns) HearsTurns() bool { return !r.deaf }

func (r *turns) Turn(n GameNote, seats []int) {
	if _, err := r.s.View(context.Background(), nil, n.Table); err != nil {
		panic(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.turns = append(r.turns, seats)
}

// TestTurnObserver: a TurnObserver hears whose turn it is when play starts
// (the last setup in) and after each move of a game under way, and not
// after the move that ends it. One that does not hear turns is told none,
// and hears the game's start and end as any Observer.
func TestTurnObserver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, deaf := &turns{}, &turns{deaf: true}
	f := &fixture{t: t, dir: t.TempDir(), observers: []Observer{r, deaf}}
	f.open()
	t.Cleanup(f.close)
	r.s, deaf.s = f.s, f.s
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.s.Join(ctx, nil, a.Table, JoinRequest{Name: "Ben"})
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := f.principal(a.Token), f.principal(b.Token)
	if _, err := f.s.Setup(ctx, pa, a.Table, SetupRequest{Setup: []byte(`{"number": 3}`)}); err != nil {
		t.Fatal(err)
	}
	if len(r.turns) != 0 {
		t.Fatalf("turns heard before play started: %v", r.turns)
	}
	if _, err := f.s.Setup(ctx, pb, a.Table, SetupRequest{Setup: []byte(`{"number": 7}`)}); err != nil {
		t.Fatal(err)
	}
	u, err := f.s.View(ctx, pa, a.Table)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.turns) != 1 || len(r.turns[0]) != len(u.Table.ToMove) || int(u.Table.ToMove[0]) != r.turns[0][0] {
		t.Fatalf("at the start heard %v, want the seats to move %v", r.turns, u.Table.ToMove)
	}
	who := pa
	if len(u.Table.ToMove) == 1 && u.Table.ToMove[0] == 1 {
		who = pb
	}
	if _, err := f.s.Move(ctx, who, a.Table, MoveRequest{Move: bisect(t, u, servertest.Config(100).Rules.Int("max"))}); err != nil {
		t.Fatal(err)
	}
	if len(r.turns) != 2 {
		t.Fatalf("after a move heard %v, want a second turn", r.turns)
	}
	if _, err := f.s.Move(ctx, pb, a.Table, MoveRequest{Move: "resign"}); err != nil {
		t.Fatal(err)
	}
	if len(r.turns) != 2 || len(r.finished) != 1 {
		t.Fatalf("after the game ended heard turns %v and finished %v, want no new turn and one end", r.turns, r.finished)
	}
	if len(deaf.turns) != 0 || len(deaf.started) != 1 || len(deaf.finished) != 1 {
		t.Fatalf("the observer deaf to turns heard turns %v, starts %v and ends %v; want no turn, one start, one end", deaf.turns, deaf.started, deaf.finished)
	}
}
