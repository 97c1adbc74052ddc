package salvo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"parlour/game"
)

// TestOneSeat plays practice at a one-seat table: the one setup is the
// hidden fleet, the player alone moves, never sees the fleet before the
// end, and wins only by a right outline.
func TestOneSeat(t *testing.T) {
	newSolo := func(t *testing.T) *State {
		t.Helper()
		st, err := Game{}.New(config(t, nil, "Ann"), []json.RawMessage{setupJSON(fleetB)})
		if err != nil {
			t.Fatal(err)
		}
		return st.(*State)
	}
	if _, err := (Game{}).New(config(t, nil, "Ann"), nil); err == nil {
		t.Error("practice without a hidden fleet started")
	}
	if _, err := (Game{}).New(config(t, nil, "Ann"), []json.RawMessage{setupJSON([]string{"A1-A5", "D2-G2", "I4-I6", "D8-E8", "G9-G10"})}); err == nil || !strings.Contains(err.Error(), "the hidden fleet") {
		t.Errorf("an illegal hidden fleet: %v", err)
	}
	if (Game{}).HidesSetup(config(t, nil, "Ann"), 0, 0) != true || (Game{}).HidesSetup(config(t, nil, "Ann", "Ben"), 0, 0) != false {
		t.Error("HidesSetup: the hidden fleet must be kept from its seat, and only at a one-seat table")
	}

	t.Run("right outline wins", func(t *testing.T) {
		st := newSolo(t)
		todo := squaresOf(fleetB...)
		refuse(t, st, 1, "fire A1 A2 A3 A4 A5", "not your turn")
		for len(todo) > 0 {
			if got := st.ToMove(); !slices.Equal(got, []game.Seat{0}) {
				t.Fatalf("to move %v, want the lone player", got)
			}
			v := st.SeatView(0)
			if !v.Practice || v.Fleet != nil || v.Fleets != nil || v.Target != 1 || v.Players[1].Name != FleetOwner {
				t.Fatalf("the player's view: %+v", v)
			}
			n := min(v.Shots, len(todo))
			for _, e := range apply(t, st, 0, "fire "+strings.Join(todo[:n], " ")) {
				if e.Kind == "hits" || len(e.To) > 0 {
					t.Errorf("an event for %v: %+v", e.To, e)
				}
			}
			todo = todo[n:]
		}
		if !st.SeatView(0).MustOutline {
			t.Fatal("every ship sunk and no outline asked for")
		}
		refuse(t, st, 0, "fire A1 A2", "outline it")
		apply(t, st, 0, "outline "+strings.Join(fleetB, " "))
		res := st.Result()
		if res.Status != game.Finished || !slices.Equal(res.Winners, []game.Seat{0}) || !slices.Equal(res.Scores, []int{5}) {
			t.Errorf("result %+v, want Ann's win with 5 ships sunk", res)
		}
		if v := st.SeatView(0); len(v.Fleets) != 2 || v.Fleets[1].Strings()[0] != fleetB[0] {
			t.Errorf("the end does not show the hidden fleet: %+v", v.Fleets)
		}
	})
	t.Run("wrong outline loses", func(t *testing.T) {
		st := newSolo(t)
		for todo := squaresOf(fleetB...); len(todo) > 0; {
			n := min(st.SeatView(0).Shots, len(todo))
			apply(t, st, 0, "fire "+strings.Join(todo[:n], " "))
			todo = todo[n:]
		}
		wrong := slices.Clone(fleetB)
		wrong[1], wrong[2] = "B6-B9", "F6-F8"
		wrong[0] = "C4-G4"
		evs := apply(t, st, 0, "outline "+strings.Join(wrong, " "))
		res := st.Result()
		if res.Status != game.Finished || len(res.Winners) != 0 || !slices.Equal(res.Scores, []int{5}) {
			t.Errorf("result %+v, want nobody winning", res)
		}
		if last := evs[len(evs)-1]; last.Kind != "end" || last.Text != "the game is over: nobody wins" {
			t.Errorf("the end event: %+v", last)
		}
	})
	t.Run("resign", func(t *testing.T) {
		st := newSolo(t)
		apply(t, st, 0, "resign")
		if res := st.Result(); res.Status != game.Finished || len(res.Winners) != 0 || len(res.Scores) != 1 {
			t.Errorf("result %+v", res)
		}
	})
}

// TestPracticeGames plays random one-seat games with random options,
// writes each as a record, replays it and checks the result; on the way no
// view or event the player may see shows a square of the hidden fleet,
// and the record the player may download before the end holds no setup.
func TestPracticeGames(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	reg := game.NewRegistry(Game{})
	won := 0
	for seed := range uint64(games) {
		var leak error
		var moves int
		rec, played := randomGameOf(t, seed, 1, func(st *State, evs []game.Event) {
			moves++
			if leak != nil {
				return
			}
			if leak = checkSecrets(st, evs, true); leak != nil {
				return
			}
			if st.Result().Status == game.Finished {
				return
			}
			v := st.SeatView(0)
			b, _ := json.Marshal(v)
			for _, q := range st.fleets[1].Board().Squares() {
				hitBefore := false
				for _, sv := range v.Salvos {
					hitBefore = hitBefore || slices.Contains(sv.Squares, q)
				}
				if !hitBefore && bytes.Contains(b, []byte(`"`+q.String()+`"`)) {
					leak = fmt.Errorf("the player's view shows %s of the hidden fleet: %s", q, b)
					return
				}
			}
			for _, e := range game.VisibleTo(evs, 0) {
				if e.Kind == "hits" {
					leak = fmt.Errorf("the player is told which shots hit: %+v", e)
				}
			}
		})
		if leak != nil {
			t.Fatalf("seed %d: %v", seed, leak)
		}
		res := played.Result()
		if res.Status != game.Finished || len(res.Scores) != 1 || len(res.Winners) > 1 || len(res.Winners) == 1 && res.Winners[0] != 0 {
			t.Fatalf("seed %d: result %+v", seed, res)
		}
		if len(res.Winners) == 1 {
			won++
		}
		var buf bytes.Buffer
		if err := rec.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := game.DecodeBytes(buf.Bytes())
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(back.Players) != 1 || len(back.Setup) != 1 {
			t.Fatalf("seed %d: the record has players %v and setups %v", seed, back.Players, back.Setup)
		}
		g, cfg, st, steps, err := replayAll(reg, back)
		if err != nil {
			t.Fatalf("seed %d: replay: %v", seed, err)
		}
		if got := st.Result(); !reflect.DeepEqual(got, res) || len(steps) != len(rec.Moves) {
			t.Fatalf("seed %d: replayed to %+v, played to %+v", seed, got, res)
		}
		// Part-way, the player's own record keeps the hidden fleet out.
		mid := *back
		mid.Moves = back.Moves[:len(back.Moves)/2]
		if len(mid.For(g, cfg, game.Result{Status: game.InProgress}, 0).Setup) != 0 {
			t.Fatalf("seed %d: the record before the end holds the hidden fleet", seed)
		}
	}
	if won == 0 || won == games {
		t.Errorf("%d of %d practice games won: the random player should win some and lose some", won, games)
	}
}

func replayAll(reg *game.Registry, rec *game.Record) (game.Game, game.Config, game.State, []game.Step, error) {
	g, err := reg.Lookup(rec.Game)
	if err != nil {
		return nil, game.Config{}, nil, nil, err
	}
	cfg, st, steps, err := game.Replay(reg, rec, nil)
	return g, cfg, st, steps, err
}
