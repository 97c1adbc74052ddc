package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"parlour/game"
	"parlour/server"
)

// TestRecordKeepsTheNotation: a Quizl announcement written with a seat
// number or the start of a name is played, and the record keeps it as
// RECORDS.md writes it, with the whole name, so that it replays anywhere.
func TestRecordKeepsTheNotation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := &person{e: e, name: "Ann", gname: "quizl"}
	var seated struct {
		Table string `json:"table"`
		Token string `json:"token"`
	}
	if st, b := ann.post("/api/v1/tables", map[string]any{"game": "quizl", "seats": []string{"me", "open", "open"}, "name": "Ann"}, &seated); st != 201 {
		t.Fatalf("create: %d %s", st, b)
	}
	ann.table, ann.token = seated.Table, seated.Token
	people := []*person{ann}
	// Guests may not pass for the computer: these names only share a word
	// and a bracket.
	for _, name := range []string{"Robot (strong)", "Robot (easy)"} {
		p := &person{e: e, name: name, gname: "quizl", table: ann.table}
		if st, b := p.post("/api/v1/tables/"+ann.table+"/join", map[string]any{"name": name}, &seated); st != 200 {
			t.Fatalf("join: %d %s", st, b)
		}
		p.token = seated.Token
		people = append(people, p)
	}
	for _, p := range people {
		if st, b := p.post("/api/v1/tables/"+ann.table+"/setup", map[string]any{"auto": true}, nil); st != 200 {
			t.Fatalf("setup: %d %s", st, b)
		}
	}
	for i, c := range []struct {
		who  int
		move string
		want string
	}{
		{0, "say 1 CRANE", "say Robot (strong) CRANE"},
		{1, "say robot (e psalm", "say Robot (easy) PSALM"},
		{2, "say ann blimp", "say Ann BLIMP"},
	} {
		if st, b := people[c.who].post("/api/v1/tables/"+ann.table+"/moves", map[string]any{"move": c.move}, nil); st != 200 {
			t.Fatalf("%q: %d %s", c.move, st, b)
		}
		var rec game.Record
		raw := ann.get("/api/v1/tables/" + ann.table + "/record")
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatal(err)
		}
		if got := rec.Moves[i].Move; got != c.want {
			t.Errorf("%q is kept as %q, want %q", c.move, got, c.want)
		}
	}
	st, b := people[0].post("/api/v1/tables/"+ann.table+"/moves", map[string]any{"move": "say rob CRANE"}, nil)
	if st != 422 || !strings.Contains(b, `could be Robot (strong) or Robot (easy)`) {
		t.Errorf("an ambiguous name: %d %s", st, b)
	}
}

// TestCountsInMessages: a refusal that counts says "1 seat", not "1 seats"
// (Nymphabet takes two players or more).
func TestCountsInMessages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := &person{e: e, name: "Ann"}
	for _, c := range []struct {
		seats []string
		want  string
	}{
		{[]string{"me"}, "you asked for 1 seat"},
		{[]string{}, "you asked for 0 seats"},
	} {
		st, b := p.post("/api/v1/tables", map[string]any{"game": "nymphabet", "seats": c.seats}, nil)
		if st != 400 || !strings.Contains(b, c.want) {
			t.Errorf("%d seats: %d %s, want %q", len(c.seats), st, b, c.want)
		}
	}
	// An account that still sits at tables under way cannot be deleted:
	// the refusal counts them.
	var sess server.Session
	if st, b := p.post("/api/v1/accounts", map[string]string{"name": "Ann", "password": "correct horse battery"}, &sess); st != 201 {
		t.Fatalf("sign up: %d %s", st, b)
	}
	p.token = sess.Token
	for _, want := range []string{"you hold a seat at 1 table whose game has not begun (", "you hold a seat at 2 tables whose game has not begun ("} {
		if st, b := p.post("/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, nil); st != 201 {
			t.Fatalf("create: %d %s", st, b)
		}
		st, b := p.do("DELETE", "/api/v1/account", strings.NewReader(`{"password": "correct horse battery"}`))
		if st != 409 || !strings.Contains(string(b), want) {
			t.Errorf("deleting the account: %d %s, want %q", st, b, want)
		}
	}
}
