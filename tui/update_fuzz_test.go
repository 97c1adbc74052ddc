package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/games"
	"parlour/tui/client"
)

// seedUpdates are real updates of every game, as the event stream brings
// them: the views before, halfway through and after a recorded game
// (analysis's test records), for the first seat and for a spectator,
// with the moves before each and their events, a Fischer clock with one
// seat to move and the other away, and once finished the result and a
// set's score.
func seedUpdates(tb testing.TB) []client.Update {
	tb.Helper()
	reg := games.Registry()
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	left, off := 42.5, false
	var out []client.Update
	for _, g := range []string{"nymphabet", "quizl", "salvo", "wordfight"} {
		rec, err := os.ReadFile(filepath.Join("..", "analysis", "testdata", g+".json"))
		if err != nil {
			tb.Fatal(err)
		}
		a, err := games.Replay(reg, rec)
		if err != nil {
			tb.Fatalf("%s: %v", g, err)
		}
		if len(a.Steps) < 2 || len(a.Players) < 2 {
			tb.Fatalf("%s: a record of %d moves and %d players", g, len(a.Steps), len(a.Players))
		}
		var moves []client.Move
		for i, st := range a.Steps {
			m := client.Move{Version: 2 + i, Seat: int(st.Seat), Player: st.By, Move: st.Move}
			b, err := json.Marshal(st.Events)
			if err != nil {
				tb.Fatal(err)
			}
			if err := json.Unmarshal(b, &m.Events); err != nil {
				tb.Fatal(err)
			}
			moves = append(moves, m)
		}
		n := len(a.Steps)
		for _, at := range []int{0, n / 2, n} {
			views, status := a.Start, "playing"
			if at > 0 {
				views = a.Steps[at-1].Views
			}
			seats := make([]client.Seat, len(a.Players))
			for i, p := range a.Players {
				seats[i] = client.Seat{Seat: i, Name: p, Kind: "person", Player: "guest", Ready: true}
			}
			table := client.Table{ID: "t1", Game: g, Title: g, Status: status, Seats: seats,
				Rules:   json.RawMessage(`{"clock": {"kind": "fischer", "initial": 300, "increment": 2}}`),
				Clock:   &client.Clock{Kind: "fischer", Initial: 300, Increment: 2, Now: now},
				Lexicon: "en", Rated: true, Pool: g}
			if at < n {
				deadline, away, claim := now.Add(42*time.Second), now.Add(-time.Minute), now.Add(time.Minute)
				table.ToMove = []int{0}
				seats[0].TimeLeft, seats[0].Deadline = &left, &deadline
				seats[1].TimeLeft, seats[1].AwaySince, seats[1].ClaimAt, seats[1].Connected = &left, &away, &claim, &off
			} else {
				table.Status = "finished"
				table.Result = &client.Result{Status: "finished", Winners: []int{0}, Scores: make([]int, len(seats))}
				table.Set = json.RawMessage(`{"target": 3, "games": 2, "totals": [2, 1], "over": true, "winners": [0]}`)
			}
			for seat := -1; seat < 1; seat++ {
				raw, err := json.Marshal(views[max(seat, 0)])
				if err != nil {
					tb.Fatal(err)
				}
				out = append(out, client.Update{Version: 1 + at, Seat: seat, View: raw, Table: table,
					Moves: moves[max(0, at-3):at]})
			}
		}
	}
	return out
}

// offlineTable is an 80 x 24 table screen of game at seat that follows no
// stream: the test hands it its updates (updateMsg, generation 1).
func offlineTable(c *client.Client, game string, seat int) *tableScreen {
	sh := &shared{ctx: context.Background(), c: c, w: 80, h: 24}
	ts := &tableScreen{shared: sh, id: "t1", game: game, seat: seat, gen: 1,
		updates: make(chan client.Update, 1), errs: make(chan error, 1)}
	ts.setup, ts.play, ts.end, ts.chat = &setupScreen{t: ts}, &playScreen{t: ts}, &endScreen{t: ts}, &chatPanel{t: ts}
	return ts
}

// draw takes u as a table screen's first update, draws it, presses the
// keys of play on it (Salvo's aim and outline, Quizl's boards, a move
// sent), and draws it again. The commands the keys give are not run: c
// is never asked.
func draw(c *client.Client, u client.Update) {
	ts := offlineTable(c, u.Table.Game, u.Seat)
	ts.update(updateMsg{gen: 1, u: u})
	ts.view()
	for _, k := range []string{"space", "enter", "tab", "m", "o", "enter", "a"} {
		ts.update(keyMsg(k))
	}
	ts.view()
}

// FuzzUpdate: whatever a table's event stream brings, the client either
// refuses it (Update.Check, checkView) or the table screen takes it,
// draws it and takes the keys of play on it, without a panic. A view is
// the server's, but it comes over the network, and a damaged or hostile
// one must cost the player a strange screen at worst, never the program.
func FuzzUpdate(f *testing.F) {
	for _, u := range seedUpdates(f) {
		b, err := json.Marshal(u)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	c, err := client.New("http://127.0.0.1:1", "Ann")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var u client.Update
		if json.Unmarshal(b, &u) != nil || u.Check() != nil {
			return // the client refuses it before a screen sees it
		}
		draw(c, u)
	})
}

// TestUpdateMutations is FuzzUpdate's question asked of every field of
// the seed updates in turn, where a fuzzer's byte flips seldom reach: each
// value replaced by null and by values at and past the edges of what the
// server sends (a negative or huge number, an empty or long string, an
// empty, shortened or doubled list), one at a time.
func TestUpdateMutations(t *testing.T) {
	t.Parallel()
	c, err := client.New("http://127.0.0.1:1", "Ann")
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range seedUpdates(t) {
		// One after the other: on a machine of two processors the
		// package's other tests, which play against a server, need the
		// second.
		t.Run(fmt.Sprintf("%s/%d/seat%d", u.Table.Game, u.Version, u.Seat), func(t *testing.T) {
			b, err := json.Marshal(u)
			if err != nil {
				t.Fatal(err)
			}
			var tree any
			if err := json.Unmarshal(b, &tree); err != nil {
				t.Fatal(err)
			}
			n := 0
			mutations(tree, func(v any) {
				b, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				var m client.Update
				if json.Unmarshal(b, &m) != nil || m.Check() != nil {
					return // the client refuses it before a screen sees it
				}
				n++
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%v, drawing the update %s", r, b)
					}
				}()
				draw(c, m)
			})
			if n < 50 {
				t.Fatalf("only %d mutations of the update %+v drawn", n, u)
			}
		})
	}
}

// mutations calls yield with root after each change of one of its values
// (a value of JSON decoded into any), and puts the value back after it.
func mutations(root any, yield func(any)) {
	// walk tries the replacements of node, put into its place by put,
	// then puts node back and walks its own values.
	var walk func(node any, put func(any))
	walk = func(node any, put func(any)) {
		try := func(x any) {
			put(x)
			yield(root)
		}
		try(nil)
		switch n := node.(type) {
		case float64:
			for _, x := range []float64{-1, 10, 99, 1e6} {
				try(x)
			}
		case string:
			for _, x := range []string{"", "A0", "é", strings.Repeat("X", 100)} {
				try(x)
			}
		case bool:
			try(!n)
		case []any:
			try([]any{})
			if len(n) > 1 {
				try(n[:1])
			}
			if len(n) > 0 {
				try(append(slices.Clone(n), n...))
			}
			put(n)
			for i, old := range n {
				walk(old, func(x any) { n[i] = x })
			}
		case map[string]any:
			try(map[string]any{})
			put(n)
			for k, old := range n {
				walk(old, func(x any) { n[k] = x })
			}
		}
		put(node)
	}
	switch n := root.(type) {
	case map[string]any:
		for k, old := range n {
			walk(old, func(x any) { n[k] = x })
		}
	case []any:
		for i, old := range n {
			walk(old, func(x any) { n[i] = x })
		}
	}
}

// TestUnreadableView: a view that is not its game's (a client older than
// the server's views, say) leaves the table screen on the last update it
// could draw, saying why, and the next readable one is drawn.
func TestUnreadableView(t *testing.T) {
	t.Parallel()
	c, err := client.New("http://127.0.0.1:1", "Ann")
	if err != nil {
		t.Fatal(err)
	}
	var first client.Update
	for _, u := range seedUpdates(t) {
		if u.Table.Game == "salvo" && u.Seat == 0 && u.Version == 1 {
			first = u
		}
	}
	ts := offlineTable(c, "salvo", 0)
	ts.update(updateMsg{gen: 1, u: first})
	bad := first
	bad.Version, bad.View = 2, json.RawMessage(`{"fleet": 3}`)
	ts.update(updateMsg{gen: 1, u: bad})
	if ts.upd.Version != 1 {
		t.Errorf("the screen took the unreadable view's update (version %d)", ts.upd.Version)
	}
	if s := ts.view(); !strings.Contains(s, "this client cannot read the table's view") || !strings.Contains(s, "Your ocean") {
		t.Errorf("the screen does not keep the last ocean and say why:\n%s", s)
	}
	next := first
	next.Version = 3
	ts.update(updateMsg{gen: 1, u: next})
	if ts.upd.Version != 3 {
		t.Errorf("the next readable update was not taken (version %d)", ts.upd.Version)
	}
}

// TestUnreadableReplay: a replay holding a view that is not its game's is
// not opened; the screen says why. One whose views all read opens.
func TestUnreadableReplay(t *testing.T) {
	t.Parallel()
	cl, err := client.New("http://127.0.0.1:1", "Ann")
	if err != nil {
		t.Fatal(err)
	}
	var views []json.RawMessage
	for _, u := range seedUpdates(t) {
		if u.Table.Game == "salvo" && u.Seat == 0 {
			views = append(views, u.View)
		}
	}
	good := client.Replay{Game: "salvo", Players: []string{"Ann", "Ben"}, Start: []json.RawMessage{views[0], views[0]},
		Steps: []client.ReplayStep{{By: "Ann", Move: "fire A1", Views: []json.RawMessage{views[1], views[1]}}}}
	for _, c := range []struct {
		name   string
		change func(*client.Replay)
		opens  bool
	}{
		{"every view reads", func(*client.Replay) {}, true},
		{"a start view does not", func(r *client.Replay) { r.Start = []json.RawMessage{views[0], json.RawMessage(`{"fleet": 3}`)} }, false},
		{"a step's view does not", func(r *client.Replay) {
			r.Steps = []client.ReplayStep{{By: "Ann", Move: "fire A1", Views: []json.RawMessage{json.RawMessage(`{"seat": "Ann"}`), views[1]}}}
		}, false},
	} {
		r := good
		c.change(&r)
		ts := offlineTable(cl, "salvo", 0)
		ts.openReplay(r)
		if opened := ts.replay != nil; opened != c.opens {
			t.Errorf("%s: opened %v, want %v (%q)", c.name, opened, c.opens, ts.err)
		}
		if !c.opens && !strings.Contains(ts.err, "this client cannot read the table's view") {
			t.Errorf("%s: the screen says %q, not why", c.name, ts.err)
		}
	}
}

// TestMutationsReachEveryLevel: the sweep changes values inside lists
// inside objects, each change seen in the whole, and leaves the whole as
// it found it.
func TestMutationsReachEveryLevel(t *testing.T) {
	t.Parallel()
	var root any
	if err := json.Unmarshal([]byte(`{"a": {"b": [1, {"c": "x"}]}}`), &root); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	mutations(root, func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		seen[string(b)] = true
	})
	for _, want := range []string{
		`{"a":{"b":[-1,{"c":"x"}]}}`,
		`{"a":{"b":[99,{"c":"x"}]}}`,
		`{"a":{"b":[1,{"c":""}]}}`,
		`{"a":{"b":[1,{"c":null}]}}`,
		`{"a":{"b":[1]}}`,
		`{"a":{"b":[1,{"c":"x"},1,{"c":"x"}]}}`,
		`{"a":{}}`,
		`{"a":null}`,
	} {
		if !seen[want] {
			t.Errorf("the sweep never tried %s", want)
		}
	}
	if b, _ := json.Marshal(root); string(b) != `{"a":{"b":[1,{"c":"x"}]}}` {
		t.Errorf("the sweep left %s", b)
	}
}
