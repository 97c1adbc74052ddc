package server_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/server/table"
)

// lateClock is a clock whose timers never fire by themselves, as one
// late to fire on a busy server: only the time moves.
type lateClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *lateClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *lateClock) AfterFunc(time.Duration, func()) table.Timer { return lateTimer{} }

func (c *lateClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

type lateTimer struct{}

func (lateTimer) Stop() bool { return true }

// TestLateAnswer: in Word Fight, when every player's time to answer a
// word has run out and one of them answers late, the answer is refused
// with what the server played for that player (cannot), though the
// server played for the others too.
func TestLateAnswer(t *testing.T) {
	t.Parallel()
	late := &lateClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	e := &clockEnv{t: t, path: filepath.Join(t.TempDir(), "p.db"), clock: newFakeClock(), late: late}
	e.start()
	t.Cleanup(e.stop)
	id, toks := e.table("wordfight", 2, map[string]any{"clock": 30})
	e.play(id, toks, "0:declare cart", "0:place B2 across", "1:place B2 across", "1:declare dart")
	late.advance(31 * time.Second)
	st, b := e.call("POST", "/api/v1/tables/"+id+"/moves", toks[0], map[string]any{"move": "place D4 down"})
	if want := "your time ran out (30 seconds a turn) before this move came: the server played cannot for you"; st != 409 || !strings.Contains(string(b), want) {
		t.Fatalf("Ann's late answer: %d %s, want 409 %q", st, b, want)
	}
	rec := e.record(id, toks[0])
	var cannot []string
	for _, mv := range rec.Moves[4:] {
		cannot = append(cannot, mv.By+" "+mv.Move)
	}
	// Ben's own answer is his alone until the end: Ann's record hides it.
	if strings.Join(cannot, ", ") != "Ann cannot, Ben answer" {
		t.Errorf("the moves after the deadline: %v, want the server's answer for each", cannot)
	}
}

// TestFlagBeforeTheOthersEnd: once a player's time has run out, the
// clock has ended their turn, even when its timer has not yet played for
// them (a busy server): a resignation or an abort by another player that
// comes after the deadline neither turns the result round nor changes
// why the game was aborted. The clock plays first, and the late request
// is refused with what became of the game.
func TestFlagBeforeTheOthersEnd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		moves  []string
		by     int    // the seat that asks, whose time has not run out
		path   string // "moves" (resign) or "abort"
		reason string // in the refusal
		// What the game should be: the last move of the record and
		// each player's result, or the abort's seat and why.
		last       string
		results    [2]string
		abortedBy  string
		abortedWhy string
	}{
		{name: "the other resigns after the flag", moves: []string{"0:abdicated", "1:eight"}, by: 1, path: "moves",
			reason: "Ann ran out of time", last: "Ann resign", results: [2]string{"loss", "win"}},
		{name: "the other aborts after the flag", moves: []string{"0:abdicated"}, by: 0, path: "abort",
			reason: "Ben ran out of time", results: [2]string{"aborted", "aborted"}, abortedBy: "Ben", abortedWhy: table.AbortTimeout},
		{name: "the other resigns after the flag, before every player moved", moves: []string{"0:abdicated"}, by: 0, path: "moves",
			reason: "Ben ran out of time", results: [2]string{"aborted", "aborted"}, abortedBy: "Ben", abortedWhy: table.AbortTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			late := &lateClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
			e := &clockEnv{t: t, path: filepath.Join(t.TempDir(), "p.db"), clock: newFakeClock(), late: late}
			e.start()
			t.Cleanup(e.stop)
			toks := []string{e.account("Ann"), e.account("Ben")}
			st, b := e.call("POST", "/api/v1/tables", toks[0], map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": true, "rules": map[string]any{"clock": 30}})
			if st != 201 {
				t.Fatalf("create: %d %s", st, b)
			}
			var seated table.Seated
			json.Unmarshal(b, &seated)
			id := seated.Table
			if st, b := e.call("POST", "/api/v1/tables/"+id+"/join", toks[1], map[string]any{}); st != 200 {
				t.Fatalf("join: %d %s", st, b)
			}
			e.play(id, toks, tc.moves...)
			late.advance(31 * time.Second)
			var body any
			if tc.path == "moves" {
				body = map[string]any{"move": "resign"}
			}
			st, b = e.call("POST", "/api/v1/tables/"+id+"/"+tc.path, toks[tc.by], body)
			if st != 409 || !strings.Contains(string(b), tc.reason) {
				t.Errorf("the request after the other's time ran out: %d %s, want 409 %q", st, b, tc.reason)
			}
			rec := e.record(id, toks[0])
			if tc.last != "" {
				mv := rec.Moves[len(rec.Moves)-1]
				if got := mv.By + " " + mv.Move; got != tc.last || len(rec.Moves) != len(tc.moves)+1 {
					t.Errorf("the record's moves: %+v, want %d ending %q", rec.Moves, len(tc.moves)+1, tc.last)
				}
			}
			if tc.abortedBy != "" {
				v := e.view(id, "")
				if rec.Aborted == nil || rec.Aborted.By != tc.abortedBy || v.Table.Aborted == nil || v.Table.Aborted.Why != tc.abortedWhy {
					t.Errorf("the abort: record %+v, table %+v; want by %s, %s", rec.Aborted, v.Table.Aborted, tc.abortedBy, tc.abortedWhy)
				}
			}
			for i, name := range []string{"Ann", "Ben"} {
				if tbl, r := e.lastResult(name); tbl != id || r != tc.results[i] {
					t.Errorf("%s's last game: %s %s, want %s %s", name, tbl, r, id, tc.results[i])
				}
			}
		})
	}
}
