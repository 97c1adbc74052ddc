package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/game"
	"parlour/games/salvo"
	"parlour/server/internal/servertest"
	"parlour/server/players"
	"parlour/server/table"
	"parlour/store"
)

// TestMakerRefusedAtCreate: a maker of the setup is refused where it has
// no meaning, saying why in the game's own terms.
func TestMakerRefusedAtCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		body, want string
	}{
		{`{"game": "nymphabet", "seats": ["me", "open"], "maker": "easy"}`, "Nymphabet has no setup for the computer to make"},
		{`{"game": "quizl", "seats": ["me", "open"], "maker": "easy"}`, "only a one-seat Quizl table has its setup made by the computer"},
		{`{"game": "quizl", "seats": ["me"], "maker": "wily"}`, `is not easy, medium or strong`},
	} {
		resp, err := http.Post(e.srv.URL+"/api/v1/tables", "application/json", strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: %d %s, want a 400 saying %q", tc.body, resp.StatusCode, b, tc.want)
		}
	}
}

// TestWordFightShapeRefusedAtCreate: a Word Fight table whose shape holds
// no word is refused when it is created, saying why, and nothing is left
// in the lobby.
func TestWordFightShapeRefusedAtCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		rules, want string
	}{
		{`{"width": 5, "height": 5, "shape": "#####/#####/#####/#####/#####"}`, "masks every square"},
		{`{"width": 5, "height": 5, "shape": "#.#.#/.#.#./#.#.#/.#.#./#.#.#"}`, "no two usable squares side by side"},
		{`{"shape": "#..../...../...../...../....#"}`, "set width 5 and height 5"},
	} {
		body := `{"game": "wordfight", "seats": ["me", "open"], "rules": ` + tc.rules + `}`
		resp, err := http.Post(e.srv.URL+"/api/v1/tables", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var out struct{ Error string }
		json.Unmarshal(b, &out)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(out.Error, tc.want) {
			t.Errorf("rules %s: %d %s, want a 400 saying %q", tc.rules, resp.StatusCode, b, tc.want)
		}
	}
	if l, err := e.svc.Lobby(t.Context(), store.Open, 10); err != nil || len(l) != 0 {
		t.Fatalf("refused tables in the lobby: %+v, %v", l, err)
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
		{[]string{"me"}, "Nymphabet seats 2 players; you asked for 1 seat"},
		{[]string{}, `list the table's seats, yours among them: \"seats\": [\"me\", \"open\"]`},
		{nil, "(Nymphabet seats 2 players)"},
	} {
		st, b := p.post("/api/v1/tables", map[string]any{"game": "nymphabet", "seats": c.seats}, nil)
		if st != 400 || !strings.Contains(b, c.want) {
			t.Errorf("%d seats: %d %s, want %q", len(c.seats), st, b, c.want)
		}
	}
	// An account that still sits at tables under way cannot be deleted:
	// the refusal counts them.
	var sess players.Session
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

// TestSalvoPractice opens a one-seat Salvo table through the API, as the
// home page's "Practice" does ("seats": ["me"]), and plays it to the end
// with a computer player's brain over HTTP: the server hides a fleet the
// computer made, no byte the player receives before the end names a ship
// of it, and the finished record replays and opens its commitment.
func TestSalvoPractice(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		e := newEnvOn(t, k)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		p := &person{e: e, door: "http", name: "Ann", gname: "salvo"}
		var created table.Seated
		if st, b := p.post("/api/v1/tables", map[string]any{"game": "salvo", "seats": []string{"me"}, "name": "Ann"}, &created); st != 201 {
			t.Fatalf("create: %d %s", st, b)
		}
		p.table, p.token, p.seat = created.Table, created.Token, created.Seat
		var u wireUpdate
		json.Unmarshal(p.get("/api/v1/tables/"+p.table), &u)
		if u.Table.Status != store.Playing || len(u.Table.Seats) != 1 || !slices.Equal(u.Table.ToMove, []game.Seat{0}) {
			t.Fatalf("the practice table: %+v", u.Table)
		}
		var v salvo.View
		if err := json.Unmarshal(u.View, &v); err != nil {
			t.Fatal(err)
		}
		if !v.Practice || v.Fleet != nil || v.Target != 1 || v.Shots != salvo.MaxShots {
			t.Fatalf("the player's view: %s", u.View)
		}
		if st, b := p.post("/api/v1/tables/"+p.table+"/setup", map[string]any{"auto": true}, nil); st != 409 {
			t.Errorf("a setup at a practice table: %d %s", st, b)
		}
		var mid game.Record
		json.Unmarshal(p.get("/api/v1/tables/"+p.table+"/record"), &mid)
		if len(mid.Setup) != 0 || len(mid.Players) != 1 {
			t.Errorf("the record before the end: players %v, setups %s", mid.Players, mid.Setup)
		}
		if err := p.play(ctx); err != nil {
			t.Fatal(err)
		}

		var rec game.Record
		json.Unmarshal(p.get("/api/v1/tables/"+p.table+"/record"), &rec)
		_, st, _, err := game.Replay(e.reg, &rec, e.lex)
		if err != nil || st.Result().Status != game.Finished {
			t.Fatalf("the record does not replay to the end: %v", err)
		}
		final := p.final.Table
		if len(final.Reveal) != 1 || !table.VerifyCommitment(final.Commitments[0], final.Reveal[0].Salt, final.Reveal[0].Setup) {
			t.Fatalf("the reveal %+v does not open the commitment %v", final.Reveal, final.Commitments)
		}
		var hidden salvo.Setup
		if err := json.Unmarshal(rec.Setup["Ann"], &hidden); err != nil || len(hidden.Fleet) != salvo.FleetSize {
			t.Fatalf("the record's setup %s: %v", rec.Setup["Ann"], err)
		}
		// Every message before the one that ends the game keeps the fleet.
		sc := bufio.NewScanner(strings.NewReader(p.got.String()))
		sc.Buffer(nil, 4<<20)
		lines := 0
		for sc.Scan() {
			line := sc.Text()
			if strings.Contains(line, `"status":"finished"`) {
				break
			}
			lines++
			for _, ship := range hidden.Fleet {
				if strings.Contains(line, `"`+ship+`"`) {
					t.Errorf("the player received the hidden %s before the end: %s", ship, line)
				}
			}
			if strings.Contains(line, `"kind":"hits"`) {
				t.Errorf("the player was told which shots hit: %s", line)
			}
		}
		if lines < 5 {
			t.Errorf("only %d messages before the end", lines)
		}
		t.Logf("practice: %d moves, result %+v", len(rec.Moves), final.Result)
	})
}

// TestRematchAfterSignUp: a guest who signs up after a game sits at its
// rematch under the account's name, marked as an account, not as the
// guest they were.
func TestRematchAfterSignUp(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := &person{e: e}
	var id struct{ Token string }
	if st, b := p.post("/api/v1/identity", map[string]any{"name": "Wanderer"}, &id); st != 201 {
		t.Fatalf("guest identity: %d %s", st, b)
	}
	p.token = id.Token
	var s table.Seated
	if st, b := p.post("/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "computer:easy"}}, &s); st != 201 {
		t.Fatalf("create: %d %s", st, b)
	}
	if st, b := p.post("/api/v1/tables/"+s.Table+"/moves", map[string]any{"move": "resign"}, nil); st != 200 {
		t.Fatalf("resign: %d %s", st, b)
	}
	var sess players.Session
	if st, b := p.post("/api/v1/accounts", map[string]string{"name": "Annabel", "password": "correct horse battery"}, &sess); st != 201 {
		t.Fatalf("sign up: %d %s", st, b)
	}
	p.token = sess.Token
	var next table.Seated
	if st, b := p.post("/api/v1/tables/"+s.Table+"/rematch", map[string]any{}, &next); st != 200 && st != 201 {
		t.Fatalf("rematch: %d %s", st, b)
	}
	var got struct {
		Table table.Info `json:"table"`
	}
	if err := json.Unmarshal(p.get("/api/v1/tables/"+next.Table), &got); err != nil {
		t.Fatal(err)
	}
	seat := got.Table.Seats[next.Seat]
	if seat.Name != "Annabel" || seat.Player != "account" {
		t.Errorf("the rematch seats the new account as %q (%s), want Annabel (account)", seat.Name, seat.Player)
	}
	// The finished game keeps the seat as it was played.
	if err := json.Unmarshal(p.get("/api/v1/tables/"+s.Table), &got); err != nil {
		t.Fatal(err)
	}
	if seat := got.Table.Seats[s.Seat]; seat.Name != "Wanderer" || seat.Player != "guest" {
		t.Errorf("the finished game's seat: %q (%s), want Wanderer (guest)", seat.Name, seat.Player)
	}
}
