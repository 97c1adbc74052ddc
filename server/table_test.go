package server

import (
	"context"
	"slices"
	"strings"
	"testing"

	"parlour/games"
	"parlour/server/table"
)

// TestSeatPlayers: each seat says whether an account, a guest or the
// computer sits there, and each chat line whether its writer has an
// account, so that clients can mark guests' names wherever they show.
func TestSeatPlayers(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	alb := signUp(t, srv.URL, "Albertine")
	var made, joined table.Seated
	if st, body := alb.do("POST", "/api/v1/tables", map[string]any{"game": "quizl", "seats": []string{"me", "open", "computer:easy"}}, &made); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	ann := &client{t: t, base: srv.URL}
	if st, body := ann.do("POST", "/api/v1/tables/"+made.Table+"/join", map[string]any{"name": "Ann"}, &joined); st != 200 {
		t.Fatalf("join: %d %s", st, body)
	}
	ann.token = joined.Token
	cat := &client{t: t, base: srv.URL}
	var id table.Identity
	if st, body := cat.do("POST", "/api/v1/identity", map[string]any{"name": "Cat"}, &id); st != 201 {
		t.Fatalf("identity: %d %s", st, body)
	}
	cat.token = id.Token
	// A guest that new writes to spectators once it has played a game.
	playNymphabet(t, cat, &client{t: t, base: srv.URL}, map[string]any{}, 1)
	for _, w := range []struct {
		c       *client
		channel string
	}{{alb, "players"}, {ann, "players"}, {cat, "spectators"}} {
		if st, body := w.c.do("POST", "/api/v1/tables/"+made.Table+"/chat", map[string]any{"channel": w.channel, "text": "hello"}, nil); st != 201 {
			t.Fatalf("chat: %d %s", st, body)
		}
	}
	var u table.Update
	if st, body := alb.do("GET", "/api/v1/tables/"+made.Table, nil, &u); st != 200 {
		t.Fatalf("view: %d %s", st, body)
	}
	for i, want := range []struct{ name, player string }{{"Albertine", "account"}, {"Ann", "guest"}, {"Computer (easy)", "computer"}} {
		if s := u.Table.Seats[i]; s.Name != want.name || s.Player != want.player {
			t.Errorf("seat %d: %s, %q; want %s, %q", i, s.Name, s.Player, want.name, want.player)
		}
	}
	// The spectators' lines show at the end; the players' now.
	var page table.ChatPage
	if st, body := cat.do("GET", "/api/v1/tables/"+made.Table+"/chat?since=0", nil, &page); st != 200 {
		t.Fatalf("chat page: %d %s", st, body)
	}
	if len(page.Chat) != 1 || page.Chat[0].Name != "Cat" || page.Chat[0].Player != "guest" {
		t.Errorf("the spectators' chat: %+v", page.Chat)
	}
	if st, body := alb.do("GET", "/api/v1/tables/"+made.Table+"/chat?since=0", nil, &page); st != 200 {
		t.Fatalf("chat page: %d %s", st, body)
	}
	got := map[string]string{}
	for _, l := range page.Chat {
		got[l.Name] = l.Player
	}
	if got["Albertine"] != "account" || got["Ann"] != "guest" || len(got) != 2 {
		t.Errorf("the players' chat says who has an account: %v", got)
	}
	// A server that reads the chat afresh from the store still knows.
	ctx := context.Background()
	s2, err := New(ctx, Config{Store: f.db, Games: games.Registry(), NewBot: games.NewBot, BaseURL: "http://test"})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	p, err := s2.auth.Authenticate(ctx, alb.token)
	if err != nil {
		t.Fatal(err)
	}
	if page, err = s2.ChatSince(ctx, p, made.Table, 0, 100); err != nil {
		t.Fatal(err)
	}
	if len(page.Chat) != 2 {
		t.Errorf("afresh, the players' chat holds %d lines", len(page.Chat))
	}
	for _, l := range page.Chat {
		if want := map[string]string{"Albertine": "account", "Ann": "guest"}[l.Name]; l.Player != want {
			t.Errorf("afresh, %s's line says %q, want %q", l.Name, l.Player, want)
		}
	}
}

// TestComputerSeatNames: a computer seat is named by its level, and where
// the table seats more than one of that level, by its seat as well, as an
// open seat is; a guest may not take such a name to pass for one.
func TestComputerSeatNames(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	for _, tc := range []struct {
		seats []string
		want  []string
	}{
		{[]string{"me", "computer:easy"}, []string{"Ann", "Computer (easy)"}},
		{[]string{"me", "computer:easy", "computer:strong"}, []string{"Ann", "Computer (easy)", "Computer (strong)"}},
		{[]string{"me", "computer:easy", "computer:easy"}, []string{"Ann", "Computer 2 (easy)", "Computer 3 (easy)"}},
		{[]string{"computer:medium", "open", "me", "computer:medium", "computer:easy"},
			[]string{"Computer 1 (medium)", "Seat 2", "Ann", "Computer 4 (medium)", "Computer (easy)"}},
		{[]string{"me", "computer:easy", "computer:easy", "computer:easy", "computer:easy", "computer:easy", "computer:easy", "computer:easy"},
			[]string{"Ann", "Computer 2 (easy)", "Computer 3 (easy)", "Computer 4 (easy)", "Computer 5 (easy)", "Computer 6 (easy)", "Computer 7 (easy)", "Computer 8 (easy)"}},
	} {
		c := &client{t: t, base: srv.URL}
		var made table.Seated
		if st, body := c.do("POST", "/api/v1/tables", map[string]any{"game": "wordfight", "seats": tc.seats, "name": "Ann"}, &made); st != 201 {
			t.Fatalf("%v: create: %d %s", tc.seats, st, body)
		}
		var u table.Update
		if st, body := c.do("GET", "/api/v1/tables/"+made.Table, nil, &u); st != 200 {
			t.Fatalf("%v: view: %d %s", tc.seats, st, body)
		}
		var got []string
		for _, s := range u.Table.Seats {
			got = append(got, s.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("seats %v are named %q, want %q", tc.seats, got, tc.want)
		}
	}
	var made table.Seated
	c := &client{t: t, base: srv.URL}
	if st, body := c.do("POST", "/api/v1/tables", map[string]any{"game": "wordfight", "seats": []string{"me", "open"}, "name": "Ann"}, &made); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	if st, body := (&client{t: t, base: srv.URL}).do("POST", "/api/v1/tables/"+made.Table+"/join", map[string]any{"name": "Computer 2 (easy)"}, nil); st != 400 || !strings.Contains(string(body), "computer player") {
		t.Errorf("a guest joining as Computer 2 (easy): %d %s, want 400, a computer player's name", st, body)
	}
}
