package server

import (
	"encoding/json"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server/table"
)

// TestDeletedPlayerNamedInMoves: a Quizl game of three names the player
// an announcement is for in its moves ("say Pam CRANE"). Once Pam deletes
// her account her seats are "deleted player", in those moves too: the
// game's record still reads and replays, its analysis answers, and the
// other players' archives hold it, where the moves naming a player who
// was no longer there made the table unreadable.
func TestDeletedPlayerNamedInMoves(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	pam, quin, rex := signUp(t, srv.URL, "Pam"), signUp(t, srv.URL, "Quin"), signUp(t, srv.URL, "Rex")
	var seats [3]table.Seated
	if st, body := pam.do("POST", "/api/v1/tables", `{"game": "quizl", "seats": ["me", "open", "open"]}`, &seats[0]); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	id := seats[0].Table
	for i, c := range []*client{quin, rex} {
		if st, body := c.do("POST", "/api/v1/tables/"+id+"/join", `{}`, &seats[i+1]); st != 200 {
			t.Fatalf("join: %d %s", st, body)
		}
	}
	at := func(i int) *client { return &client{t: t, base: srv.URL, token: seats[i].Token} }
	for i := range seats {
		if st, body := at(i).do("POST", "/api/v1/tables/"+id+"/setup", `{"auto": true}`, nil); st != 200 {
			t.Fatalf("setup: %d %s", st, body)
		}
	}
	for _, m := range []struct {
		seat int
		move string
	}{{0, "say Quin crane"}, {1, "say Pam crane"}, {2, "say pa crane"}, {0, "resign"}, {1, "resign"}, {2, "resign"}} {
		if st, body := at(m.seat).do("POST", "/api/v1/tables/"+id+"/moves", map[string]string{"move": m.move}, nil); st != 200 {
			t.Fatalf("%s: %d %s", m.move, st, body)
		}
	}
	// Analysed before too: what is kept of it must not keep the name.
	if st, body := quin.do("GET", "/api/v1/tables/"+id+"/analysis", nil, nil); st != 200 {
		t.Fatalf("the analysis: %d %s", st, body)
	}
	if st, body := pam.do("DELETE", "/api/v1/account", `{"password": "`+testPassword+`"}`, nil); st != 204 {
		t.Fatalf("delete: %d %s", st, body)
	}

	var rec game.Record
	if st, body := quin.do("GET", "/api/v1/tables/"+id+"/record", nil, &rec); st != 200 {
		t.Fatalf("the record after Pam's deletion: %d %s", st, body)
	}
	var said []string
	for _, m := range rec.Moves {
		said = append(said, m.By+": "+m.Move)
	}
	want := "deleted player: say Quin CRANE|Quin: say deleted player CRANE|Rex: say deleted player CRANE|deleted player: resign|Quin: resign|Rex: resign"
	if got := strings.Join(said, "|"); got != want {
		t.Errorf("the moves after Pam's deletion:\n got %s\nwant %s", got, want)
	}
	if _, _, _, err := game.Replay(games.Registry(), &rec, lexicon.Default()); err != nil {
		t.Errorf("the record does not replay: %v", err)
	}
	for _, format := range []string{"text", "json"} {
		if st, body := quin.do("GET", "/api/v1/tables/"+id+"/analysis?format="+format, nil, nil); st != 200 || strings.Contains(body, "Pam") {
			t.Errorf("the analysis (%s) after Pam's deletion: %d %s", format, st, body)
		}
	}
	st, body := quin.do("GET", "/api/v1/players/Quin/games/export", nil, nil)
	var line map[string]json.RawMessage
	if st != 200 || json.Unmarshal([]byte(body), &line) != nil || line["error"] != nil || strings.Contains(body, "Pam") {
		t.Errorf("Quin's archive: %d %s", st, body)
	}
}
