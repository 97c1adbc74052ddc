package server

import (
	"strings"
	"sync"
	"testing"

	"parlour/server/table"
)

// TestRematchKeepsBlockedPlayersApart: a rematch seats every player of
// the game together again, so a block between any two of them keeps it
// from being made, whoever asks; the asker who is not party to the block
// is not told whose it is. A block made once the rematch was offered
// keeps its players from taking their seats at it.
func TestRematchKeepsBlockedPlayersApart(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann, bob, cat := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Bob"), signUp(t, srv.URL, "Cat")

	var made table.Seated
	if st, body := cat.do("POST", "/api/v1/tables", map[string]any{"game": "quizl", "seats": []string{"me", "open", "open"}}, &made); st != 201 {
		t.Fatalf("Cat's table: %d %s", st, body)
	}
	toks := []string{made.Token}
	for _, c := range []*client{ann, bob} {
		var s table.Seated
		if st, body := c.do("POST", "/api/v1/tables/"+made.Table+"/join", map[string]any{}, &s); st != 200 {
			t.Fatalf("join: %d %s", st, body)
		}
		toks = append(toks, s.Token)
	}
	for _, tok := range toks {
		if st, body := (&client{t: t, base: srv.URL, token: tok}).do("POST", "/api/v1/tables/"+made.Table+"/setup", map[string]any{"auto": true}, nil); st != 200 {
			t.Fatalf("setup: %d %s", st, body)
		}
	}
	if st, body := (&client{t: t, base: srv.URL, token: made.Token}).do("POST", "/api/v1/tables/"+made.Table+"/abort", nil, nil); st != 200 {
		t.Fatalf("abort: %d %s", st, body)
	}
	if st, body := ann.do("POST", "/api/v1/blocks", map[string]any{"name": "Bob"}, nil); st != 201 {
		t.Fatalf("Ann blocks Bob: %d %s", st, body)
	}
	for _, c := range []struct {
		who    string
		c      *client
		status int
		says   string
	}{
		{"Cat", cat, 409, "two of this game's other players do not take games together"},
		{"Ann", ann, 409, "you have blocked Bob"},
		{"Bob", bob, 403, "Ann is not taking a rematch from you"},
	} {
		if st, body := c.c.do("POST", "/api/v1/tables/"+made.Table+"/rematch", map[string]any{}, nil); st != c.status || !strings.Contains(body, c.says) {
			t.Errorf("%s's rematch: %d %s, want %d saying %q", c.who, st, body, c.status, c.says)
		}
	}
	var u table.Update
	if st, body := cat.do("GET", "/api/v1/tables/"+made.Table, nil, &u); st != 200 || u.Table.Rematch != "" {
		t.Errorf("the table after the refused rematches: %d %s, want no rematch", st, body)
	}

	// Offered before the block, the rematch is not taken across it.
	done := playNymphabet(t, ann, cat, map[string]any{}, 0)
	if st, body := ann.do("POST", "/api/v1/tables/"+done+"/rematch", map[string]any{}, nil); st != 200 && st != 201 {
		t.Fatalf("Ann's rematch: %d %s", st, body)
	}
	if st, body := cat.do("POST", "/api/v1/blocks", map[string]any{"name": "Ann"}, nil); st != 201 {
		t.Fatalf("Cat blocks Ann: %d %s", st, body)
	}
	if st, body := cat.do("POST", "/api/v1/tables/"+done+"/rematch", map[string]any{}, nil); st != 409 || !strings.Contains(body, "you have blocked Ann") {
		t.Errorf("Cat taking the rematch offered before her block: %d %s, want 409", st, body)
	}
}

// TestJoinsAtOnceKeepBlockedPlayersApart: a player and the one they
// block joining one table at the same moment are never both seated: the
// second seated is checked against the first.
func TestJoinsAtOnceKeepBlockedPlayersApart(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann, bob, cat := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Bob"), signUp(t, srv.URL, "Cat")
	if st, body := ann.do("POST", "/api/v1/blocks", map[string]any{"name": "Bob"}, nil); st != 201 {
		t.Fatalf("Ann blocks Bob: %d %s", st, body)
	}
	for round := range 20 {
		var made table.Seated
		if st, body := cat.do("POST", "/api/v1/tables", map[string]any{"game": "quizl", "seats": []string{"me", "open", "open"}}, &made); st != 201 {
			t.Fatalf("Cat's table: %d %s", st, body)
		}
		statuses := make([]int, 2)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, c := range []*client{ann, bob} {
			wg.Go(func() {
				<-start
				statuses[i], _ = c.do("POST", "/api/v1/tables/"+made.Table+"/join", map[string]any{}, nil)
			})
		}
		close(start)
		wg.Wait()
		if statuses[0] == 200 && statuses[1] == 200 {
			t.Fatalf("round %d: Ann and Bob, whom she blocks, both seated at %s", round+1, made.Table)
		}
	}
}
