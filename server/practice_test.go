package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/game"
	"parlour/games/salvo"
	"parlour/server"
	"parlour/server/internal/servertest"
	"parlour/store"
)

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
		var created server.Seated
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
		if len(final.Reveal) != 1 || !server.VerifyCommitment(final.Commitments[0], final.Reveal[0].Salt, final.Reveal[0].Setup) {
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
