package server

import (
	"fmt"
	"testing"
)

// TestMoveAskedAgain: a move conditional on a version, asked again after
// it was made (its answer was lost), is answered as made, with the same
// version and nothing changed; a different move, or another seat's, at
// that version is refused as stale.
func TestMoveAskedAgain(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, generous)
	a, ann, ben := annAndBen(t, srv.URL)
	for _, c := range []*client{ann, ben} {
		if st, body := c.do("POST", "/api/v1/tables/"+a.Table+"/setup", `{"auto": true}`, nil); st != 200 {
			t.Fatalf("setup: %d %s", st, body)
		}
	}
	var u Update
	ann.do("GET", "/api/v1/tables/"+a.Table, nil, &u)
	v := u.Version
	move := fmt.Sprintf(`{"move": "guess 1", "version": %d}`, v)
	var first, again MoveResult
	if st, body := ann.do("POST", "/api/v1/tables/"+a.Table+"/moves", move, &first); st != 200 || first.Repeated {
		t.Fatalf("the move: %d %s", st, body)
	}
	if st, body := ann.do("POST", "/api/v1/tables/"+a.Table+"/moves", move, &again); st != 200 || !again.Repeated || again.Version != first.Version || again.Status != first.Status {
		t.Fatalf("the same move asked again: %d %s; want 200, repeated, version %d", st, body, first.Version)
	}
	for _, tc := range []struct {
		what, body string
		c          *client
	}{
		{"another move at the same version", fmt.Sprintf(`{"move": "guess 2", "version": %d}`, v), ann},
		{"the same move by another seat", move, ben},
		{"the move at an earlier version", fmt.Sprintf(`{"move": "guess 1", "version": %d}`, v-1), ann},
	} {
		if st, body := tc.c.do("POST", "/api/v1/tables/"+a.Table+"/moves", tc.body, nil); st != 409 {
			t.Errorf("%s: %d %s, want 409", tc.what, st, body)
		}
	}
	var after Update
	ann.do("GET", "/api/v1/tables/"+a.Table, nil, &after)
	if after.Version != first.Version {
		t.Errorf("the table is at version %d after the repeats, want %d", after.Version, first.Version)
	}
	var rec struct{ Moves []struct{ Move string } }
	ann.do("GET", "/api/v1/tables/"+a.Table+"/record", nil, &rec)
	if len(rec.Moves) != 1 {
		t.Errorf("the record holds %d moves, want 1", len(rec.Moves))
	}
}

// annAndBen makes a two-seat guess table on the server at base for Ann
// and seats Ben at it, and returns the table as Ann was seated and a
// client acting for each.
func annAndBen(t *testing.T, base string) (Seated, *client, *client) {
	t.Helper()
	ann, ben := &client{t: t, base: base}, &client{t: t, base: base}
	var a, b Seated
	if st, body := ann.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"], "name": "Ann"}`, &a); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	if st, body := ben.do("POST", "/api/v1/tables/"+a.Table+"/join", `{"name": "Ben"}`, &b); st != 200 {
		t.Fatalf("join: %d %s", st, body)
	}
	ann.token, ben.token = a.Token, b.Token
	return a, ann, ben
}
