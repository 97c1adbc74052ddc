package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/table"
)

// TestClaim: at a table without a clock, the others may claim the game
// once the player to move has been away (no stream, no socket, no
// request) for five minutes, and not before; the absent player resigns,
// with a "claim" event saying why. Every refusal is a 4xx that says why
// and changes nothing.
func TestClaim(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		e := newClockEnvOn(t, k)
		id, toks := e.table("nymphabet", 2, nil)
		ann, ben := toks[0], toks[1]
		// A word each first: before then a claim aborts the game (see
		// TestClaimBeforeEveryMoveAborts).
		e.play(id, toks, "0:apple", "1:bed")
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
		if n := len(e.record(id, ben).Moves); n != 2 {
			t.Fatalf("refused claims played %d moves", n-2)
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
		if len(rec.Moves) != 3 || rec.Moves[2].By != "Ann" || rec.Moves[2].Move != "resign" || rec.Aborted != nil {
			t.Errorf("the record after the claim: %+v", rec.Moves)
		}
		e.forfeitAnalysed(id, 3, "claim", "Ann was away on their turn and the game was claimed, so the server resigned for them")
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

// TestClaimBeforeEveryMoveAborts: a claim against a player who walked
// away before every player had moved aborts the game, without a result.
func TestClaimBeforeEveryMoveAborts(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	id, toks := e.table("nymphabet", 2, nil)
	e.clock.Advance(table.DefaultWalkAway)
	st, b := e.call("POST", "/api/v1/tables/"+id+"/claim", toks[1], nil)
	var out struct {
		Status  string `json:"status"`
		Claimed []int  `json:"claimed"`
		Events  []struct {
			Kind string         `json:"kind"`
			Data map[string]any `json:"data"`
		} `json:"events"`
	}
	json.Unmarshal(b, &out)
	if st != 200 || out.Status != "finished" || len(out.Claimed) != 1 || len(out.Events) != 1 || out.Events[0].Kind != "abort" || out.Events[0].Data["why"] != table.AbortClaim {
		t.Fatalf("the claim: %d %s", st, b)
	}
	rec := e.record(id, toks[1])
	if len(rec.Moves) != 0 || rec.Aborted == nil || rec.Aborted.By != "Ann" {
		t.Fatalf("the record after the claim: moves %+v, aborted %+v", rec.Moves, rec.Aborted)
	}
	if u := e.view(id, ""); u.Table.Result == nil || u.Table.Result.Status != "aborted" || u.Table.Aborted == nil || u.Table.Aborted.Why != table.AbortClaim {
		t.Fatalf("the table after the claim: %+v", u.Table)
	}
}

// TestSeatPresence: while a game is played each person's seat says
// whether it is connected and, if not, since when it is absent; a player
// to move who is away at a table without a clock carries when the claim
// becomes valid. The others' watchers are sent an update the moment a
// player comes or goes, though the table's version stays the same.
func TestSeatPresence(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	ctx := context.Background()
	watch := func(id, token string) *table.Watcher {
		t.Helper()
		p, err := e.svc.Auth().Authenticate(ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		w, err := e.svc.Watch(ctx, p, id, -1)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Close)
		return w
	}
	// next is the watcher's next update; the deadline only keeps a
	// missing update from hanging the test.
	next := func(w *table.Watcher, what string) table.Update {
		t.Helper()
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		u, err := w.Next(c)
		if err != nil {
			t.Fatalf("%s: no update came: %v", what, err)
		}
		return u
	}
	type seatWant struct {
		connected   bool
		absentSince time.Time // zero: none
		claimAt     time.Time // zero: none
	}
	check := func(what string, u table.Update, want []seatWant) {
		t.Helper()
		for i, w := range want {
			s := u.Table.Seats[i]
			switch {
			case s.Connected == nil || *s.Connected != w.connected:
				t.Errorf("%s: seat %d connected %v, want %v", what, i, s.Connected, w.connected)
			case (s.AbsentSince == nil) != w.absentSince.IsZero() || s.AbsentSince != nil && !s.AbsentSince.Equal(w.absentSince):
				t.Errorf("%s: seat %d absent since %v, want %v", what, i, s.AbsentSince, w.absentSince)
			case (s.ClaimAt == nil) != w.claimAt.IsZero() || s.ClaimAt != nil && !s.ClaimAt.Equal(w.claimAt):
				t.Errorf("%s: seat %d claim at %v, want %v", what, i, s.ClaimAt, w.claimAt)
			}
		}
	}

	id, toks := e.table("nymphabet", 2, nil) // Ann (seat 0) is to move
	ann, ben := toks[0], toks[1]
	wa, wb := watch(id, ann), watch(id, ben)
	next(wa, "Ann's first update")
	u := next(wb, "Ben's first update")
	check("both here", u, []seatWant{{connected: true}, {connected: true}})
	v := u.Version

	e.clock.Advance(time.Minute)
	left := e.clock.Now()
	wa.Close()
	u = next(wb, "Ann left")
	if u.Version != v {
		t.Errorf("Ann's leaving changed the version: %d, was %d", u.Version, v)
	}
	check("Ann left", u, []seatWant{{absentSince: left, claimAt: left.Add(table.DefaultWalkAway)}, {connected: true}})

	// The time to the claim does not move while she stays away.
	e.clock.Advance(3 * time.Minute)
	p, _ := e.svc.Auth().Authenticate(ctx, ben)
	u, err := e.svc.View(ctx, p, id)
	if err != nil {
		t.Fatal(err)
	}
	check("3 minutes later", u, []seatWant{{absentSince: left, claimAt: left.Add(table.DefaultWalkAway)}, {connected: true}})
	if in := u.Table.Seats[0].ClaimIn; in == nil || *in != 120 {
		t.Errorf("3 minutes later, the claim is in %v seconds, want 120", in)
	}

	wa = watch(id, ann)
	next(wa, "Ann's first update again")
	check("Ann back", next(wb, "Ann back"), []seatWant{{connected: true}, {connected: true}})

	// Ben is not to move: he shows as gone, with nothing to claim.
	e.clock.Advance(time.Minute)
	benLeft := e.clock.Now()
	wb.Close()
	check("Ben left", next(wa, "Ben left"), []seatWant{{connected: true}, {absentSince: benLeft}})

	// At a table with a clock the clock settles the wait: presence, no claim.
	cid, ctoks := e.table("nymphabet", 2, map[string]any{"clock": 3600})
	wc := watch(cid, ctoks[1])
	check("a clock", next(wc, "the clock table"), []seatWant{{absentSince: e.clock.Now()}, {connected: true}})
}
