package server

import (
	"encoding/json"
	"testing"

	"parlour/server/table"
)

// TestRatedSaidEverywhere: every answer of the API that describes a table
// says "rated": true for a rated table and leaves it out for another, so
// that a client can say so before anyone sits down: the lobby, the table,
// the invite code's lookup, a player's tables, and a challenge.
func TestRatedSaidEverywhere(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann, ben := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Ben")
	open := map[string]table.Seated{}
	for _, rated := range []bool{true, false} {
		var s table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": rated}, &s); st != 201 {
			t.Fatalf("create (rated %v): %d %s", rated, st, body)
		}
		if s.Code == "" {
			t.Fatalf("no invite code for a two-seat table: %+v", s)
		}
		open[map[bool]string{true: "rated", false: "unrated"}[rated]] = s
	}
	// said reads the "rated" of a JSON object as the wire has it.
	said := func(raw json.RawMessage) any {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		return m["rated"]
	}
	check := func(where, id string, got any) {
		t.Helper()
		want := any(nil)
		if id == open["rated"].Table {
			want = true
		}
		if got != want {
			t.Errorf("%s of the %s table says rated %v, want %v", where, map[bool]string{true: "rated", false: "unrated"}[want == true], got, want)
		}
	}

	var lobby struct{ Tables []json.RawMessage }
	if st, body := ben.do("GET", "/api/v1/tables?status=open", nil, &lobby); st != 200 {
		t.Fatalf("lobby: %d %s", st, body)
	}
	seen := 0
	for _, raw := range lobby.Tables {
		var row struct{ ID string }
		json.Unmarshal(raw, &row)
		if row.ID == open["rated"].Table || row.ID == open["unrated"].Table {
			check("the lobby's row", row.ID, said(raw))
			seen++
		}
	}
	if seen != 2 {
		t.Fatalf("the lobby lists %d of the two tables: %d rows", seen, len(lobby.Tables))
	}
	for _, s := range open {
		var u struct{ Table json.RawMessage }
		if st, body := ben.do("GET", "/api/v1/tables/"+s.Table, nil, &u); st != 200 {
			t.Fatalf("table: %d %s", st, body)
		}
		check("the table's information", s.Table, said(u.Table))
		var in struct{ Info json.RawMessage }
		if st, body := ben.do("GET", "/api/v1/invites/"+s.Code, nil, &in); st != 200 {
			t.Fatalf("invite: %d %s", st, body)
		}
		check("the invite code's lookup", s.Table, said(in.Info))
	}
	var mine struct{ Tables []json.RawMessage }
	if st, body := ann.do("GET", "/api/v1/identity/tables", nil, &mine); st != 200 {
		t.Fatalf("Ann's tables: %d %s", st, body)
	}
	if len(mine.Tables) != 2 {
		t.Fatalf("Ann's tables: %d, want 2", len(mine.Tables))
	}
	for _, raw := range mine.Tables {
		var row struct{ ID string }
		json.Unmarshal(raw, &row)
		check("Ann's list of tables", row.ID, said(raw))
	}

	for _, rated := range []bool{true, false} {
		var c json.RawMessage
		if st, body := ann.do("POST", "/api/v1/challenges", map[string]any{"to": "Ben", "game": "nymphabet", "rated": rated}, &c); st != 201 {
			t.Fatalf("challenge: %d %s", st, body)
		}
		if got := said(c); got != rated {
			t.Errorf("a challenge made rated %v says rated %v", rated, got)
		}
	}
	var l struct{ In []json.RawMessage }
	if st, body := ben.do("GET", "/api/v1/challenges", nil, &l); st != 200 || len(l.In) != 2 {
		t.Fatalf("Ben's challenges: %d %s", st, body)
	}
	for _, raw := range l.In {
		if said(raw) == nil {
			t.Errorf("a challenge in the list leaves rated out: %s", raw)
		}
	}
}
