package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"parlour/game"
	"parlour/lexicon"
	"parlour/store"
	"parlour/store/sqlite"
)

// TestSolitaireMaker: a solitaire table's setup is made by the computer
// of the level asked (strong by default), the table says which, a
// rematch keeps it, and a maker is refused where it has no meaning.
func TestSolitaireMaker(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for _, tc := range []struct{ ask, want string }{{"easy", "easy"}, {" Medium ", "medium"}, {"", "strong"}} {
		a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}, Maker: tc.ask})
		if err != nil {
			t.Fatalf("maker %q: %v", tc.ask, err)
		}
		pa := f.principal(a.Token)
		u, _ := f.s.View(ctx, pa, a.Table)
		if s := u.Table.Solitaire; s == nil || s.Maker != tc.want || s.Random {
			t.Fatalf("maker %q: the table says %+v, want %s", tc.ask, s, tc.want)
		}
		if tc.ask != "easy" {
			continue
		}
		for i := 0; i < 12 && u.Table.Status != store.Finished; i++ {
			if _, err := f.s.Move(ctx, pa, a.Table, MoveRequest{Move: bisect(t, u, 100)}); err != nil {
				t.Fatal(err)
			}
			u, _ = f.s.View(ctx, pa, a.Table)
		}
		r, err := f.s.Rematch(ctx, pa, a.Table)
		if err != nil {
			t.Fatal(err)
		}
		u, _ = f.s.View(ctx, f.principal(r.Token), r.Table)
		if s := u.Table.Solitaire; s == nil || s.Maker != "easy" {
			t.Errorf("the rematch's maker: %+v, want easy", s)
		}
	}
	for _, req := range []CreateRequest{
		{Game: "guess", Seats: []string{"me"}, Maker: "wily"},
		{Game: "guess", Seats: []string{"me", "open"}, Maker: "easy"},
	} {
		if _, err := f.s.Create(ctx, nil, req); StatusOf(err) != http.StatusBadRequest {
			t.Errorf("%+v: %v, want a bad request", req, err)
		}
	}
	a, _ := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	if u, _ := f.s.View(ctx, f.principal(a.Token), a.Table); u.Table.Solitaire != nil {
		t.Errorf("a two-seat table says who made a solitaire setup: %+v", u.Table.Solitaire)
	}
}

// TestSolitaireMakerFallback: when the computer makes no setup, the table
// falls back to a random one and says so.
func TestSolitaireMakerFallback(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	failing := func(name, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
		return failingSetup{guessBot{level: level}}, nil
	}
	s, err := New(ctx, Config{Store: db, Games: testRegistry(), NewBot: failing, Lexicon: testLexicon, BaseURL: "http://test", BotTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}, Maker: "medium"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Authenticate(ctx, a.Token)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := s.View(ctx, p, a.Table)
	if sol := u.Table.Solitaire; sol == nil || sol.Maker != "medium" || !sol.Random {
		t.Errorf("the table says %+v, want medium fallen back to random", sol)
	}
	if u.Table.Status != store.Playing {
		t.Errorf("status %s, want playing on the random setup", u.Table.Status)
	}
}

type failingSetup struct{ guessBot }

func (failingSetup) Setup(context.Context, game.Config, game.Seat) (json.RawMessage, error) {
	return nil, errors.New("no setup today")
}
