package server_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server/internal/servertest"
	"parlour/server/players"
	"parlour/server/table"
)

// rated opens a rated Nymphabet table for the accounts a (seat 0) and b
// (seat 1), plays moves ("seat:move") and answers its id.
func (e *clockEnv) rated(a, b string, moves ...string) string {
	e.t.Helper()
	st, body := e.call("POST", "/api/v1/tables", a, map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": true})
	if st != 201 {
		e.t.Fatalf("create: %d %s", st, body)
	}
	var seated table.Seated
	json.Unmarshal(body, &seated)
	if st, body := e.call("POST", "/api/v1/tables/"+seated.Table+"/join", b, map[string]any{}); st != 200 {
		e.t.Fatalf("join: %d %s", st, body)
	}
	e.play(seated.Table, []string{a, b}, moves...)
	return seated.Table
}

// play makes moves "seat:move" at table id with toks.
func (e *clockEnv) play(id string, toks []string, moves ...string) {
	e.t.Helper()
	for _, m := range moves {
		if st, b := e.call("POST", "/api/v1/tables/"+id+"/moves", toks[m[0]-'0'], map[string]any{"move": m[2:]}); st != 200 {
			e.t.Fatalf("%s: %d %s", m, st, b)
		}
	}
}

// profile answers name's profile.
func (e *clockEnv) profile(name string) players.Profile {
	e.t.Helper()
	st, b := e.call("GET", "/api/v1/players/"+name, "", nil)
	if st != 200 {
		e.t.Fatalf("profile of %s: %d %s", name, st, b)
	}
	var p players.Profile
	json.Unmarshal(b, &p)
	return p
}

// lastResult answers the result of name's latest game in their history.
func (e *clockEnv) lastResult(name string) (string, string) {
	e.t.Helper()
	st, b := e.call("GET", "/api/v1/players/"+name+"/games", "", nil)
	if st != 200 {
		e.t.Fatalf("history of %s: %d %s", name, st, b)
	}
	var h players.History
	json.Unmarshal(b, &h)
	if len(h.Games) == 0 {
		e.t.Fatalf("%s has no history", name)
	}
	return h.Games[0].Table, h.Games[0].Result
}

// TestAbort: a seated player may abort a game while some player has not
// yet moved; it ends without a result, shows as aborted in the table,
// the record and both histories, and changes no rating. Too late, not
// seated, unknown, over, not begun or alone: refused, and nothing
// changes.
func TestAbort(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		e := newClockEnvOn(t, k)
		ann, ben, cy := e.account("Ann"), e.account("Ben"), e.account("Cyd")
		// A rated game played out first, so that there are ratings to
		// keep.
		e.rated(ann, ben, "0:apple", "1:bed", "1:resign")
		over := e.rated(ann, ben, "0:apple", "1:bed", "0:resign")
		before := [2]players.Profile{e.profile("Ann"), e.profile("Ben")}
		if before[0].Ratings["nymphabet-standard"].Games != 2 {
			t.Fatalf("Ann's ratings after two rated games: %+v", before[0].Ratings)
		}
		// Cyd plays alone.
		st, b := e.call("POST", "/api/v1/tables", cy, map[string]any{"game": "quizl", "seats": []string{"me"}})
		if st != 201 {
			t.Fatalf("a table alone: %d %s", st, b)
		}
		var alone table.Seated
		json.Unmarshal(b, &alone)
		solo, soloToks := alone.Table, []string{alone.Token}
		st, b = e.call("POST", "/api/v1/tables", ann, map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}})
		if st != 201 {
			t.Fatalf("open table: %d %s", st, b)
		}
		var open table.Seated
		json.Unmarshal(b, &open)

		for _, tc := range []struct {
			name   string
			moves  []string
			id     string // a table of the case's own when ""
			by     string
			want   int
			reason string // in the refusal
		}{
			{name: "before any move, by the first to move", by: ann, want: 200},
			{name: "before any move, by the other", by: ben, want: 200},
			{name: "by the one who has moved", moves: []string{"0:apple"}, by: ann, want: 200},
			{name: "by the one who has not", moves: []string{"0:apple"}, by: ben, want: 200},
			{name: "after both moved", moves: []string{"0:apple", "1:bed"}, by: ann, want: 409, reason: "can no longer be aborted"},
			{name: "not seated", by: cy, want: 403, reason: "only a player"},
			{name: "no token", by: "", want: 401},
			{name: "unknown table", id: "nosuchtable", by: ann, want: 404},
			{name: "finished", id: over, by: ann, want: 409, reason: "the game is over"},
			{name: "not begun", id: open.Table, by: ann, want: 409, reason: "has not started"},
			{name: "alone", id: solo, by: soloToks[0], want: 409, reason: "resign it instead"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				id := tc.id
				if id == "" {
					id = e.rated(ann, ben, tc.moves...)
				}
				if id == "nosuchtable" {
					if st, b := e.call("POST", "/api/v1/tables/"+id+"/abort", tc.by, nil); st != tc.want {
						t.Fatalf("abort: %d %s, want %d", st, b, tc.want)
					}
					return
				}
				e.clock.Advance(time.Second) // each game ends the latest in the histories
				v0 := e.view(id, "")
				if v0.Table.Abortable != (tc.want == 200 || tc.want == 403 || tc.want == 401) {
					t.Errorf("the table before the abort says abortable %v", v0.Table.Abortable)
				}
				st, b := e.call("POST", "/api/v1/tables/"+id+"/abort", tc.by, nil)
				if st != tc.want || !strings.Contains(string(b), tc.reason) {
					t.Fatalf("abort: %d %s, want %d %q", st, b, tc.want, tc.reason)
				}
				v := e.view(id, "")
				if tc.want != 200 {
					if v.Version != v0.Version || v.Table.Status != v0.Table.Status {
						t.Fatalf("a refused abort changed the table: %+v, was %+v", v.Table, v0.Table)
					}
					return
				}
				var res table.AbortResult
				json.Unmarshal(b, &res)
				if res.Status != "finished" || res.Result.Status != game.Aborted || len(res.Result.Winners) != 0 || res.Version != v0.Version+1 {
					t.Fatalf("abort answered %+v", res)
				}
				abortedBy := 0
				if tc.by == ben {
					abortedBy = 1
				}
				if v.Table.Status != "finished" || v.Table.Result == nil || v.Table.Result.Status != "aborted" || len(v.Table.Result.Winners) != 0 ||
					v.Table.Aborted == nil || v.Table.Aborted.Seat != abortedBy || v.Table.Aborted.Why != table.AbortAsked || len(v.Table.ToMove) != 0 || v.Table.Abortable {
					t.Fatalf("the table after the abort: %+v", v.Table)
				}
				rec := e.record(id, "")
				if rec.Aborted == nil || rec.Aborted.By != []string{"Ann", "Ben"}[abortedBy] || len(rec.Moves) != len(tc.moves) {
					t.Fatalf("the record after the abort: aborted %+v, moves %+v", rec.Aborted, rec.Moves)
				}
				if _, raw := e.call("GET", "/api/v1/tables/"+id+"/record", "", nil); len(tc.moves) == 0 && !strings.Contains(string(raw), `"moves":[]`) {
					t.Errorf("the record of a game aborted before its first move: %s, want an empty list of moves", raw)
				}
				if _, st, _, err := game.Replay(games.Registry(), rec, lexicon.Default()); err != nil || st.Result().Status != game.Aborted {
					t.Fatalf("the record does not replay as aborted: %v", err)
				}
				for i, name := range []string{"Ann", "Ben"} {
					if tbl, r := e.lastResult(name); tbl != id || r != "aborted" {
						t.Errorf("%s's last game: %s %s, want %s aborted", name, tbl, r, id)
					}
					p := e.profile(name)
					if got, was := p.Ratings["nymphabet-standard"], before[i].Ratings["nymphabet-standard"]; got != was {
						t.Errorf("%s's rating changed with an abort: %+v, was %+v", name, got, was)
					}
				}
				if st, b := e.call("POST", "/api/v1/tables/"+id+"/moves", ann, map[string]any{"move": "cat"}); st != 409 {
					t.Errorf("a move after the abort: %d %s", st, b)
				}
				if st, b := e.call("GET", "/api/v1/tables/"+id+"/analysis", "", nil); st != 409 || !strings.Contains(string(b), "aborted") {
					t.Errorf("the analysis of an aborted game: %d %s", st, b)
				}
			})
		}
	})
}
