package salvo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"parlour/game"
)

// randomRules picks rule options at random.
func randomRules(r *rand.Rand) map[string]json.RawMessage {
	raw := map[string]json.RawMessage{}
	if r.IntN(2) == 0 {
		raw[OptPlacement] = json.RawMessage(`"free"`)
	}
	if r.IntN(2) == 0 {
		raw[OptDiagonal] = json.RawMessage(`true`)
	}
	if r.IntN(2) == 0 {
		raw[OptShotsLostBy] = json.RawMessage(`"owner"`)
	}
	return raw
}

// randomGame plays a random legal game through the referee and returns its
// record. The players fire at random squares, favouring their target's
// ships so that games end; they outline rightly most of the time and now
// and then resign. check, when set, is called after every move with the
// state and the move's events.
func randomGame(t testing.TB, seed uint64, check func(*State, []game.Event)) (*game.Record, *State) {
	return randomGameOf(t, seed, 0, check)
}

// randomGameOf is randomGame with n players, or two to four at random when
// n is 0. With one player the one setup is the hidden fleet it fires at.
func randomGameOf(t testing.TB, seed uint64, n int, check func(*State, []game.Event)) (*game.Record, *State) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	if n == 0 {
		n = 2 + r.IntN(3)
	}
	players := []string{"Ann", "Ben", "Cat", "Dan"}[:n]
	rec := &game.Record{Parlour: game.FormatVersion, Game: "salvo", Rules: randomRules(r), Players: players, Setup: map[string]json.RawMessage{}}
	rules, err := game.Resolve(Game{}.Options(), rec.Rules)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Players: players, Rules: rules}
	setups := make([]json.RawMessage, n)
	for i := range n {
		raw, err := Game{}.AutoSetup(cfg, game.Seat(i), r.Uint64())
		if err != nil {
			t.Fatal(err)
		}
		setups[i] = raw
		rec.Setup[players[i]] = raw
	}
	gs, err := Game{}.New(cfg, setups)
	if err != nil {
		t.Fatal(err)
	}
	st := gs.(*State)
	sampler := NewSampler(PlacementOf(rules))
	aim := 0.2 + 0.6*r.Float64() // how often a shot goes at a ship
	for moves := 0; st.Result().Status == game.InProgress; moves++ {
		if moves > 2000 {
			t.Fatalf("seed %d: the game does not end", seed)
		}
		seat := st.ToMove()[0]
		v := st.SeatView(seat)
		var move string
		switch {
		case r.IntN(300) == 0:
			move = "resign"
		case v.MustOutline:
			f := st.fleets[v.Target]
			if r.IntN(5) == 0 {
				f = sampler.Fleet(r)
			} else if r.IntN(2) == 0 {
				f[3], f[4] = f[4], f[3]
			}
			move = "outline " + strings.Join(f.Strings(), " ")
		default:
			var tr Tracking
			for _, x := range v.Tracking {
				if x.Target == v.Target {
					tr = x
				}
			}
			var ships, sea []string
			for q := range Square(Squares) {
				if tr.Ocean[q.Row()][q.Col()] != 0 {
					continue
				}
				if st.all[v.Target].Has(q) {
					ships = append(ships, q.String())
				} else {
					sea = append(sea, q.String())
				}
			}
			var pick []string
			for range v.Shots {
				from := &sea
				if len(sea) == 0 || len(*from) > 0 && len(ships) > 0 && r.Float64() < aim {
					from = &ships
				}
				if len(*from) == 0 {
					from = &sea
				}
				i := r.IntN(len(*from))
				pick = append(pick, (*from)[i])
				(*from)[i] = (*from)[len(*from)-1]
				*from = (*from)[:len(*from)-1]
			}
			move = "fire " + strings.Join(pick, " ")
		}
		evs, err := st.Apply(seat, move)
		if err != nil {
			t.Fatalf("seed %d: %s: %q refused: %v", seed, players[seat], move, err)
		}
		rec.Moves = append(rec.Moves, game.Move{By: players[seat], Move: move})
		if check != nil {
			check(st, evs)
		}
	}
	return rec, st
}

// TestRandomGames plays random legal games with random options for two to
// four players, writes each as a record, replays it and checks the result;
// on the way it checks that no view or event shows a seat another seat's
// ships or which squares of a salvo hit.
func TestRandomGames(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 200
	}
	reg := game.NewRegistry(Game{})
	moves := 0
	for seed := range uint64(games) {
		var leakErr error
		rec, played := randomGame(t, seed, func(st *State, evs []game.Event) {
			moves++
			if leakErr == nil {
				leakErr = checkSecrets(st, evs, seed < 10 || moves%41 == 0)
			}
		})
		if leakErr != nil {
			t.Fatalf("seed %d: %v", seed, leakErr)
		}
		var buf bytes.Buffer
		if err := rec.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := game.DecodeBytes(buf.Bytes())
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		_, st, steps, err := game.Replay(reg, back, nil)
		if err != nil {
			t.Fatalf("seed %d: replay: %v", seed, err)
		}
		res, want := st.Result(), played.Result()
		if res.Status != game.Finished || len(res.Winners) == 0 || len(steps) != len(rec.Moves) || !reflect.DeepEqual(res, want) {
			t.Fatalf("seed %d: replayed to %+v after %d steps, played to %+v", seed, res, len(steps), want)
		}
		if seed%20 == 0 { // replaying twice gives the same views
			_, st2, _, _ := game.Replay(reg, rec, nil)
			if a, b := snapshot(st.(*State)), snapshot(st2.(*State)); a != b {
				t.Fatalf("seed %d: two replays differ", seed)
			}
		}
	}
	t.Logf("%d games, %d moves", games, moves)
}

// checkSecrets checks, while the game goes on, every seat's view and the
// events it may see: squares appear only where they are public (salvos
// fired, outlines said aloud) or the seat's own (its fleet, the hits on
// it).
// deep checks the JSON of views and events too, square by square.
func checkSecrets(st *State, evs []game.Event, deep bool) error {
	over := st.Result().Status == game.Finished
	for seat := game.Spectator; int(seat) < st.n; seat++ {
		v := st.SeatView(seat)
		if over {
			if len(v.Fleets) != st.n {
				return fmt.Errorf("seat %d: the fleets are not shown at the end", seat)
			}
			continue
		}
		if v.Fleets != nil {
			return fmt.Errorf("seat %d sees every fleet before the end", seat)
		}
		if seat == game.Spectator && v.Fleet != nil {
			return fmt.Errorf("a spectator sees a fleet")
		}
		if seat >= 0 {
			for i, sh := range v.Fleet {
				if sh.Ship != st.fleets[seat][i] {
					return fmt.Errorf("seat %d sees %v as its %s", seat, sh.Ship, ClassOf(i))
				}
			}
		}
		for _, e := range game.VisibleTo(evs, seat) {
			if e.Kind == "hits" && (len(e.To) != 1 || e.To[0] != st.salvos[len(st.salvos)-1].At) {
				return fmt.Errorf("the hits of a salvo are shown to %v, not only its target", e.To)
			}
		}
		if !deep {
			continue
		}
		var doc any
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		json.Unmarshal(b, &doc)
		if err := walkSquares(doc, "", func(path, sq string) error {
			switch {
			case matchPath(path, "salvos.*.squares.*"), matchPath(path, "outlines.*.fleet.*"):
				return nil
			case matchPath(path, "fleet.*.ship"), matchPath(path, "fleet.*.squares.*"):
				if seat >= 0 && squaresOfShips(st.fleets[seat]).Has(mustSquare(sq)) {
					return nil
				}
			}
			return fmt.Errorf("seat %d's view shows %s at %s", seat, sq, path)
		}); err != nil {
			return err
		}
		for _, e := range game.VisibleTo(evs, seat) {
			var doc any
			b, _ := json.Marshal(e.Data)
			json.Unmarshal(b, &doc)
			if err := walkSquares(doc, "", func(path, sq string) error {
				switch {
				case e.Kind == "salvo" && matchPath(path, "squares.*"),
					e.Kind == "outline" && matchPath(path, "fleet.*"),
					e.Kind == "hits" && matchPath(path, "hits.*"):
					return nil
				}
				return fmt.Errorf("a %s event shows seat %d %s at %s", e.Kind, seat, sq, path)
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

func squaresOfShips(f Fleet) Board { return f.Board() }

func mustSquare(s string) Square {
	if q, err := ParseSquare(s); err == nil {
		return q
	}
	sh, err := ParseShip(s)
	if err != nil {
		return NoSquare
	}
	return sh.Start
}

// walkSquares calls f for every string in doc that names a square or a
// ship, with its path ("salvos.3.squares.0").
func walkSquares(doc any, path string, f func(path, sq string) error) error {
	switch x := doc.(type) {
	case map[string]any:
		for k, v := range x {
			if err := walkSquares(v, join(path, k), f); err != nil {
				return err
			}
		}
	case []any:
		for i, v := range x {
			if err := walkSquares(v, join(path, fmt.Sprint(i)), f); err != nil {
				return err
			}
		}
	case string:
		if _, err := ParseSquare(x); err == nil {
			return f(path, x)
		}
		if _, err := ParseShip(x); err == nil {
			return f(path, x)
		}
	}
	return nil
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// matchPath reports whether path matches pattern, where * matches one
// element.
func matchPath(path, pattern string) bool {
	p, q := strings.Split(path, "."), strings.Split(pattern, ".")
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if q[i] != "*" && q[i] != p[i] {
			return false
		}
	}
	return true
}

// FuzzMove applies arbitrary moves to a game part-way through and checks
// that a refused move changes nothing and an accepted one is well-formed.
func FuzzMove(f *testing.F) {
	for _, m := range []string{
		"fire A1 C3 E5 G7 I9", "fire a-1 b-2 c-3 d-4 e-5", "fire A1", "fire K1 A1 A2 A3 A4",
		"outline B2-B6 D2-G2 I4-I6 D8-E8 G9-G10", "resign", "", "fire", "fire ,,,,", "Fire J10 J9 J8 J7 J6",
		"fire A-10 B-10 C-10 D-10 E-10", "outline", "fire A1 A1 A1 A1 A1", "fire \x00",
	} {
		f.Add(uint64(1), 0, m)
	}
	f.Fuzz(func(t *testing.T, seed uint64, at int, move string) {
		rec, _ := randomGame(t, seed%64, nil)
		k := at % (len(rec.Moves) + 1)
		if k < 0 {
			k = -k
		}
		rec.Moves = rec.Moves[:k]
		_, gs, _, err := game.Replay(game.NewRegistry(Game{}), rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		st := gs.(*State)
		for seat := game.Spectator; int(seat) < st.n; seat++ {
			before := snapshot(st)
			evs, err := st.Apply(seat, move)
			if err != nil {
				if after := snapshot(st); after != before {
					t.Fatalf("refused %q (%v) changed the state", move, err)
				}
				if err.Error() == "" {
					t.Fatal("empty error")
				}
				continue
			}
			if len(evs) == 0 {
				t.Fatalf("%q accepted without events", move)
			}
			return
		}
	})
}

// FuzzSetup checks arbitrary setups: a refusal has an error, an accepted
// setup is legal and reads back to itself.
func FuzzSetup(f *testing.F) {
	for _, s := range []string{
		`{"fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`,
		`{"fleet": ["b6-b2", "G-2-D-2", "i4-I6", "E8-d8", "g10-g9"]}`,
		`{"fleet": ["A1-A5", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`,
		`{"fleet": ["J1-F5", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`,
		`{"fleet": []}`, `{}`, `null`, `[]`, `{"fleet": "B2-B6"}`, `{"fleet": ["B2-B6"]}`,
		`{"fleet": ["B2-B6", "", "", "", ""]}`, `{"fleet": ["A1-E1", "B2-E2", "", " ", ""]}`, `{"fleet": ["", "", "", "", ""]}`,
	} {
		f.Add(s, false, false)
	}
	f.Fuzz(func(t *testing.T, setup string, free, diag bool) {
		rules := map[string]any{OptDiagonal: diag}
		if free {
			rules[OptPlacement] = PlacementFree
		}
		cfg := config(t, rules, "Ann", "Ben")
		got, err := Game{}.CheckSetup(cfg, 0, json.RawMessage(setup))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		again, err := Game{}.CheckSetup(cfg, 0, got)
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("%s canonical %s reads back as %s, %v", setup, got, again, err)
		}
	})
}

// BenchmarkReplay replays generated random games; it reports moves per
// second on one core.
func BenchmarkReplay(b *testing.B) {
	reg := game.NewRegistry(Game{})
	var recs []*game.Record
	total := 0
	for seed := range uint64(50) {
		rec, _ := randomGame(b, seed, nil)
		recs = append(recs, rec)
		total += len(rec.Moves)
	}
	b.ResetTimer()
	moves := 0
	for i := 0; i < b.N; i++ {
		rec := recs[i%len(recs)]
		if _, _, _, err := game.Replay(reg, rec, nil); err != nil {
			b.Fatal(err)
		}
		moves += len(rec.Moves)
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkView computes one seat's view in a mid-game position.
func BenchmarkView(b *testing.B) {
	rec, _ := randomGame(b, 3, nil)
	rec.Moves = rec.Moves[:len(rec.Moves)/2]
	_, st, _, err := game.Replay(game.NewRegistry(Game{}), rec, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = st.View(game.Seat(i % 2))
	}
}
