package wordfight

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

// realLex loads the default lexicon once for the tests that play many
// games, with a pool of common words to declare.
var realLex = sync.OnceValues(func() (*lexicon.Lexicon, []string) {
	lex := lexicon.Default()
	var pool []string
	for w, c := range lex.ByCommonness() {
		if c > 35 {
			break
		}
		if len(w) >= 2 && len(w) <= 9 {
			pool = append(pool, w)
		}
	}
	return lex, pool
})

// randomOptions picks rule options for a random game.
func randomOptions(rng *rand.Rand) map[string]any {
	o := map[string]any{}
	w, h := 5+rng.IntN(8), 5+rng.IntN(8)
	if rng.IntN(6) == 0 {
		w, h = 20, 20
	}
	o["width"], o["height"] = w, h
	if rng.IntN(4) == 0 {
		rows := make([]string, h)
		for r := range rows {
			b := make([]byte, w)
			for c := range b {
				b[c] = '.'
				if rng.IntN(8) == 0 {
					b[c] = '#'
				}
			}
			rows[r] = string(b)
		}
		o["shape"] = strings.Join(rows, "/")
	}
	o["multiply"] = rng.IntN(4) != 0
	o["strikes_per"] = []string{PerWord, PerPlayer}[rng.IntN(2)]
	o["strike_limit"] = 1 + rng.IntN(4)
	return o
}

// randomGame plays one random legal game through the referee, checking as
// it goes that no view or event shows a seat another seat's grid or
// placement, and that refused moves change nothing. It returns the record.
func randomGame(t testing.TB, rng *rand.Rand, lex *lexicon.Lexicon, pool []string) (*game.Record, *State) {
	t.Helper()
	opts := randomOptions(rng)
	raw := map[string]json.RawMessage{}
	for k, v := range opts {
		raw[k], _ = json.Marshal(v)
	}
	players := names[:2+rng.IntN(3)]
	rules, err := game.Resolve(Game{}.Options(), raw)
	if err != nil {
		t.Fatalf("options %v: %v", opts, err)
	}
	rec := &game.Record{Parlour: game.FormatVersion, Game: "wordfight", Rules: raw, Lexicon: lex.Name(), Players: players}
	gs, err := Game{}.New(game.Config{Players: players, Rules: rules, Lexicon: lex}, nil)
	if err != nil {
		// A random shape can leave no two squares side by side.
		return randomGame(t, rng, lex, pool)
	}
	st := gs.(*State)
	shadow := make([]*Grid, len(players))
	for i := range shadow {
		shadow[i] = NewGrid(st.Board())
	}
	missed := 0
	apply := func(seat game.Seat, move string) []game.Event {
		evs, err := st.Apply(seat, move)
		if err != nil {
			t.Fatalf("options %v, move %d %q by %d: %v", opts, len(rec.Moves)+1, move, seat, err)
		}
		rec.Moves = append(rec.Moves, game.Move{By: players[seat], Move: move})
		return evs
	}
	for steps := 0; st.Result().Status != game.Finished; steps++ {
		if steps > 5000 {
			t.Fatalf("options %v: the game did not end in 5000 moves", opts)
		}
		toMove := st.ToMove()
		seat := toMove[rng.IntN(len(toMove))]
		if rng.IntN(40) == 0 {
			before := snapshot(st)
			bad := []string{"declare qzx", "place A1 sideways", "place Z99 across", "cannot now", "declare", "place A1", "fire A1", "declare a"}[rng.IntN(8)]
			if _, err := st.Apply(game.Seat(rng.IntN(len(players))), bad); err == nil {
				t.Fatalf("%q was accepted", bad)
			}
			if snapshot(st) != before {
				t.Fatalf("refused %q changed the state", bad)
			}
		}
		var move string
		v := st.SeatView(seat)
		switch {
		case rng.IntN(400) == 0:
			move = "resign"
		case v.Current == "":
			for {
				w := pool[rng.IntN(len(pool))]
				if len(w) <= st.Board().Longest() {
					move = "declare " + w
					break
				}
			}
		default:
			g, err := GridFromRows(v.Grid)
			if err != nil {
				t.Fatal(err)
			}
			word := strings.ToLower(v.Current)
			var ps []Placement
			for p := range g.Placements(lex, word) {
				ps = append(ps, p)
			}
			if len(ps) > 0 && rng.IntN(20) != 0 {
				p := ps[rng.IntN(len(ps))]
				move = "place " + p.String()
				shadow[seat].Place(word, p)
			} else {
				move = "cannot"
				if len(ps) > 0 {
					missed++
				}
			}
		}
		evs := apply(seat, move)
		checkSecrecy(t, st, seat, evs, shadow)
		if steps%5 == 0 {
			if txt := st.SeatView(seat).String(); !strings.HasPrefix(txt, "Sightless Word Fight on ") {
				t.Fatalf("view text starts %q", txt[:min(len(txt), 40)])
			}
		}
	}
	if txt := st.SeatView(game.Spectator).String(); !strings.Contains(txt, "Audit:") {
		t.Fatalf("the final view's text has no audit:\n%s", txt)
	}
	total := 0
	for _, a := range st.SeatView(game.Spectator).Audit {
		total += a.Missed
		if !a.Confirmed {
			t.Errorf("audit does not confirm seat %d: %+v", a.Seat, a)
		}
	}
	if total != missed {
		t.Errorf("audit flags %d missed placements, the players missed %d", total, missed)
	}
	return rec, st
}

// checkSecrecy checks every seat's view and the events of a move by mover
// for anything a seat may not see before the end.
func checkSecrecy(t testing.TB, st *State, mover game.Seat, evs []game.Event, shadow []*Grid) {
	t.Helper()
	if st.Result().Status == game.Finished {
		return
	}
	for _, e := range evs {
		switch e.Data.(type) {
		case PlacedEvent:
			if !slices.Equal(e.To, []game.Seat{mover}) {
				t.Fatalf("a placement event goes to %v: %+v", e.To, e)
			}
		}
		if e.To == nil && strings.Contains(e.Text, " across") || e.To == nil && strings.Contains(e.Text, " down") {
			t.Fatalf("a public event names a placement: %+v", e)
		}
	}
	for s := game.Spectator; int(s) < len(shadow); s++ {
		v := st.SeatView(s)
		if v.Grids != nil || v.Scores != nil || v.Audit != nil || v.Winners != nil {
			t.Fatalf("seat %d sees the end-of-game reveal mid-game", s)
		}
		for _, e := range v.List {
			if e.Answers != nil || (s < 0 && e.Mine != nil) {
				t.Fatalf("seat %d sees others' answers to %s", s, e.Word)
			}
		}
		if s >= 0 && !slices.Equal(v.Grid, shadow[s].Rows()) {
			t.Fatalf("seat %d sees grid %q, but placed only what makes %q", s, v.Grid, shadow[s].Rows())
		}
		if s < 0 && (v.Grid != nil || v.Score != 0) {
			t.Fatalf("a spectator sees a grid or a score")
		}
	}
}

// TestRandomGames plays random legal games with random options, replays
// each from its record and expects the same result and final view.
func TestRandomGames(t *testing.T) {
	lex, pool := realLex()
	n := 1500
	if testing.Short() {
		n = 150
	}
	rng := rand.New(rand.NewPCG(1, 2))
	reg := game.NewRegistry(Game{})
	moves := 0
	defer func() { t.Logf("%d games, %d moves", n, moves) }()
	for i := range n {
		rec, st := randomGame(t, rng, lex, pool)
		moves += len(rec.Moves)
		var buf strings.Builder
		if err := rec.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		dec, err := game.DecodeBytes([]byte(buf.String()))
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		_, rst, _, err := game.Replay(reg, dec, lex)
		if err != nil {
			t.Fatalf("game %d: replay: %v", i, err)
		}
		got, _ := json.Marshal(rst.View(game.Spectator))
		want, _ := json.Marshal(st.View(game.Spectator))
		if string(got) != string(want) {
			t.Fatalf("game %d: replay ends differently\n got %s\nwant %s", i, got, want)
		}
		if fmt.Sprint(rst.Result()) != fmt.Sprint(st.Result()) {
			t.Fatalf("game %d: replay result %v, want %v", i, rst.Result(), st.Result())
		}
	}
}
