package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"parlour/server"
)

// TestClaim: at a table without a clock, the others may claim the game
// once the player to move has been away (no stream, no socket, no
// request) for five minutes, and not before; the absent player resigns,
// with a "claim" event saying why. Every refusal is a 4xx that says why
// and changes nothing.
func TestClaim(t *testing.T) {
	server.EachStore(t, func(t *testing.T, k server.StoreKind) {
		e := newClockEnvOn(t, k)
		id, toks := e.table("nymphabet", 2, nil)
		ann, ben := toks[0], toks[1]
		claim := func(token string) (int, string) {
			st, b := e.call("POST", "/api/v1/tables/"+id+"/claim", token, nil)
			return st, string(b)
		}
		// Ann watches the table: she is here, however long she thinks.
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/api/v1/tables/"+id+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+ann)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(res.Body).Decode(&clockUpdate{})
		e.clock.Advance(10 * time.Minute)
		if st, b := claim(ben); st != 409 || !bytes.Contains([]byte(b), []byte("Ann is here")) {
			t.Fatalf("a claim while Ann watches: %d %s", st, b)
		}
		cancel()
		res.Body.Close()
		// She has gone: the stream's end counts as her last visit.
		deadline := time.Now().Add(5 * time.Second)
		for {
			st, b := claim(ben)
			if st == 409 && bytes.Contains([]byte(b), []byte("Ann has been away for 0 seconds")) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after Ann's stream closed: %d %s", st, b)
			}
			time.Sleep(10 * time.Millisecond)
		}
		e.clock.Advance(4 * time.Minute)
		if u := e.view(id, ""); u.Table.Seats[0].AwaySince == nil || !u.Table.Seats[0].AwaySince.Equal(e.clock.Now().Add(-4*time.Minute)) {
			t.Errorf("the table does not say since when Ann is away: %+v", u.Table.Seats)
		}
		for _, c := range []struct {
			name, path, token string
			status            int
			want              string
		}{
			{"4 minutes away", id, ben, 409, "Ann has been away for 4 minutes; you may claim once Ann has been away 5 minutes, in 1 minute"},
			{"the player to move", id, ann, 409, "it is your turn"},
			{"no token", id, "", 401, "seat's token"},
			{"a spectator", id, e.identity("Cat"), 403, "only a player at this table"},
			{"no such table", "nosuchtable00000", ben, 404, "there is no table"},
		} {
			st, b := e.call("POST", "/api/v1/tables/"+c.path+"/claim", c.token, nil)
			if st != c.status || !bytes.Contains(b, []byte(c.want)) {
				t.Errorf("%s: %d %s; want %d saying %q", c.name, st, b, c.status, c.want)
			}
		}
		if n := len(e.record(id, ben).Moves); n != 0 {
			t.Fatalf("refused claims played %d moves", n)
		}
		// Ann's own request just now counts as a visit: five more minutes.
		e.clock.Advance(5 * time.Minute)
		st, b := claim(ben)
		if st != 200 {
			t.Fatalf("a claim after 5 minutes: %d %s", st, b)
		}
		var out struct {
			Status  string `json:"status"`
			Claimed []int  `json:"claimed"`
			Events  []struct {
				Kind string         `json:"kind"`
				Data map[string]any `json:"data"`
			} `json:"events"`
		}
		json.Unmarshal([]byte(b), &out)
		if out.Status != "finished" || len(out.Claimed) != 1 || out.Claimed[0] != 0 || len(out.Events) == 0 || out.Events[0].Kind != "claim" || out.Events[0].Data["away"] != 300.0 || out.Events[0].Data["by"] != 1.0 {
			t.Errorf("the claim's answer: %s", b)
		}
		rec := e.record(id, ben)
		if len(rec.Moves) != 1 || rec.Moves[0].By != "Ann" || rec.Moves[0].Move != "resign" {
			t.Errorf("the record after the claim: %+v", rec.Moves)
		}
		if st, b := claim(ben); st != 409 || !bytes.Contains([]byte(b), []byte("the game is over")) {
			t.Errorf("a claim after the end: %d %s", st, b)
		}
		// A table with a clock has nothing to claim.
		cid, ctoks := e.table("nymphabet", 2, map[string]any{"clock": 3600})
		e.clock.Advance(10 * time.Minute)
		if st, b := e.call("POST", "/api/v1/tables/"+cid+"/claim", ctoks[1], nil); st != 409 || !bytes.Contains(b, []byte("this table has a clock")) {
			t.Errorf("a claim at a table with a clock: %d %s", st, b)
		}
	})
}

// identity makes a guest identity called name and answers its token.
func (e *clockEnv) identity(name string) string {
	e.t.Helper()
	st, b := e.call("POST", "/api/v1/identity", "", map[string]any{"name": name})
	if st != 201 {
		e.t.Fatalf("identity: %d %s", st, b)
	}
	var id struct{ Token string }
	json.Unmarshal(b, &id)
	return id.Token
}
