package server_test

import (
	"encoding/json"
	"testing"
	"time"

	"parlour/server/table"
)

// TestRematchAfterAnAbortedRematch: a rematch that ended without a
// result (the other player aborted it, or their time ran out before they
// moved) was no game: asked for again from the finished table, the
// rematch is a new game, not the aborted one. A rematch that was played
// stays the table's rematch.
func TestRematchAfterAnAbortedRematch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// end ends the first rematch, id, whose tokens are toks (Ben
		// in seat 0, to move first).
		end     func(e *clockEnv, id string, toks []string)
		another bool
	}{
		{name: "aborted by the other", another: true, end: func(e *clockEnv, id string, toks []string) {
			if st, b := e.call("POST", "/api/v1/tables/"+id+"/abort", toks[0], nil); st != 200 {
				t.Fatalf("abort: %d %s", st, b)
			}
		}},
		{name: "the other's time ran out", another: true, end: func(e *clockEnv, id string, toks []string) {
			e.clock.Advance(31 * time.Second)
		}},
		{name: "played", another: false, end: func(e *clockEnv, id string, toks []string) {
			e.play(id, toks, "0:abdicated", "1:eight", "0:resign")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newClockEnv(t)
			id, toks := e.table("nymphabet", 2, map[string]any{"clock": 30})
			e.play(id, toks, "0:abdicated", "1:eight", "0:resign")
			rematch := func(tok string) table.Seated {
				t.Helper()
				st, b := e.call("POST", "/api/v1/tables/"+id+"/rematch", tok, nil)
				if st != 200 {
					t.Fatalf("rematch: %d %s", st, b)
				}
				var s table.Seated
				json.Unmarshal(b, &s)
				return s
			}
			first := rematch(toks[0])
			tc.end(e, first.Table, []string{rematch(toks[1]).Token, first.Token})
			if v := e.view(first.Table, ""); v.Table.Status != "finished" {
				t.Fatalf("the first rematch is %s", v.Table.Status)
			}
			again := rematch(toks[1])
			if got := again.Table != first.Table; got != tc.another {
				t.Fatalf("the rematch asked again: table %s, the first %s; want a new one %v", again.Table, first.Table, tc.another)
			}
			if !tc.another {
				return
			}
			var v struct {
				Seat  int
				Table struct {
					Status  string
					Rematch string
					Seats   []struct{ Name string }
				}
			}
			_, b := e.call("GET", "/api/v1/tables/"+again.Table, again.Token, nil)
			json.Unmarshal(b, &v)
			if v.Table.Status != "playing" || v.Seat != 0 || len(v.Table.Seats) != 2 || v.Table.Seats[0].Name != "Ben" || v.Table.Seats[1].Name != "Ann" {
				t.Fatalf("the new rematch: seat %d of %+v", v.Seat, v.Table)
			}
			_, b = e.call("GET", "/api/v1/tables/"+id, "", nil)
			json.Unmarshal(b, &v)
			if v.Table.Rematch != again.Table {
				t.Errorf("the finished table's rematch is %s, want %s", v.Table.Rematch, again.Table)
			}
		})
	}
}
