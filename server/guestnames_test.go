package server

import (
	"strings"
	"testing"

	"parlour/server/table"
)

// TestGuestNames: a guest may not take the house's, the computer's or a
// deleted player's name, nor an account's, in any case or spelt to look
// the same; whichever way a guest names itself (a new identity, a new
// table, a join), the refusal says why and nothing is made.
func TestGuestNames(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	signUp(t, srv.URL, "Albertine")
	signUp(t, srv.URL, "bob")
	anon := &client{t: t, base: srv.URL}
	for _, c := range []struct {
		name   string
		status int    // 0: accepted
		want   string // a part of the refusal
	}{
		{"admin", 400, `\"admin\" is reserved: it is kept for the house`},
		{"Parlour", 400, "kept for the house"},
		{"adm1n", 400, `it reads as \"admin\"`},
		{"ＡＤＭＩＮ", 400, "kept for the house"},
		{"Computer (strong)", 400, "a computer player's name"},
		{"C0mputer (Easy)", 400, "a computer player's name"},
		{"deleted player", 400, "what deleted accounts are called"},
		{"Guest 0042", 400, "what guests are called"},
		{"spectator", 400, "reserved"},
		{"Albertine", 409, `\"Albertine\" is the name of a player with an account`},
		{"albertine", 409, `looks like \"Albertine\", the name of a player with an account`},
		{"ALBERTINE", 409, "the name of a player with an account"},
		{"Albert1ne", 409, "the name of a player with an account"},
		{"Älbertine", 409, "the name of a player with an account"},
		{"аlbertine", 409, "the name of a player with an account"}, // a Cyrillic а
		{"B0B", 409, `looks like \"bob\"`},
		{"b o b", 409, `looks like \"bob\"`},
		{"Albert", 0, ""},
		{"Bobby", 0, ""},
		{"Zoë", 0, ""},
	} {
		var open table.Seated
		if st, body := anon.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Host"}, &open); st != 201 {
			t.Fatalf("create: %d %s", st, body)
		}
		for _, how := range []struct {
			what, path string
			body       map[string]any
			ok         int
		}{
			{"identity", "/api/v1/identity", map[string]any{"name": c.name}, 201},
			{"create", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": c.name}, 201},
			{"join", "/api/v1/tables/" + open.Table + "/join", map[string]any{"name": c.name}, 200},
		} {
			st, body := anon.do("POST", how.path, how.body, nil)
			switch {
			case c.status == 0 && st != how.ok:
				t.Errorf("%s as %q: %d %s, want %d", how.what, c.name, st, body, how.ok)
			case c.status != 0 && (st != c.status || !strings.Contains(body, c.want)):
				t.Errorf("%s as %q: %d %s, want %d saying %s", how.what, c.name, st, body, c.status, c.want)
			}
		}
	}
}
