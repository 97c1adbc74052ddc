package salvo

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"parlour/game"
)

// The fleet of RECORDS.md's example, legal under strict placement.
var (
	fleetA = []string{"B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"}
	fleetB = []string{"D4-H4", "B6-B9", "F6-F8", "H7-I7", "D9-E9"}
	fleetC = []string{"C3-G3", "H5-H8", "C5-C7", "E6-F6", "E9-F9"}
)

func setupJSON(ships []string) json.RawMessage {
	b, _ := json.Marshal(Setup{Fleet: ships})
	return b
}

func config(t testing.TB, rules map[string]any, players ...string) game.Config {
	t.Helper()
	r, err := game.ResolveValues(Game{}.Options(), rules)
	if err != nil {
		t.Fatal(err)
	}
	return game.Config{Players: players, Rules: r}
}

// newState starts a game with one fleet per player, players named A, B, ...
func newState(t testing.TB, rules map[string]any, fleets ...[]string) *State {
	t.Helper()
	names := []string{"Ann", "Ben", "Cat", "Dan", "Eve", "Fay"}[:len(fleets)]
	cfg := config(t, rules, names...)
	setups := make([]json.RawMessage, len(fleets))
	for i, f := range fleets {
		c, err := Game{}.CheckSetup(cfg, game.Seat(i), setupJSON(f))
		if err != nil {
			t.Fatalf("setup %d: %v", i, err)
		}
		setups[i] = c
	}
	st, err := Game{}.New(cfg, setups)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

func apply(t testing.TB, st *State, seat game.Seat, move string) []game.Event {
	t.Helper()
	evs, err := st.Apply(seat, move)
	if err != nil {
		t.Fatalf("%s: %q refused: %v", st.cfg.Name(seat), move, err)
	}
	return evs
}

// refuse checks that move is refused with an error containing want, and
// that the refusal changed nothing.
func refuse(t testing.TB, st *State, seat game.Seat, move, want string) {
	t.Helper()
	before := snapshot(st)
	_, err := st.Apply(seat, move)
	if err == nil {
		t.Fatalf("%q accepted, want refusal %q", move, want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%q refused with %q, want it to say %q", move, err, want)
	}
	if after := snapshot(st); after != before {
		t.Errorf("refused %q changed the state", move)
	}
}

// snapshot renders everything observable of st.
func snapshot(st *State) string {
	var b strings.Builder
	for s := game.Spectator; int(s) < st.n; s++ {
		j, _ := json.Marshal(st.View(s))
		b.Write(j)
	}
	j, _ := json.Marshal(st.Result())
	b.Write(j)
	return b.String()
}

func squaresOf(ships ...string) []string {
	var out []string
	for _, s := range ships {
		sh, err := ParseShip(s)
		if err != nil {
			panic(err)
		}
		for _, q := range sh.Squares() {
			out = append(out, q.String())
		}
	}
	return out
}

func TestOptions(t *testing.T) {
	r := game.Defaults(Game{}.Options())
	want := game.Rules{OptPlacement: PlacementStrict, OptDiagonal: false, OptShotsLostBy: LostBySinker}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("defaults %v, want %v", r, want)
	}
	if lo, hi := (Game{}).Players(); lo != 1 || hi != MaxPlayers {
		t.Errorf("players %d-%d", lo, hi)
	}
	if _, err := game.ResolveValues(Game{}.Options(), map[string]any{OptPlacement: "loose"}); err == nil {
		t.Error("placement loose accepted")
	}
}

func TestParseSquare(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Square
		err  string
	}{
		{"A1", 0, ""},
		{"b3", At(2, 1), ""},
		{"B-3", At(2, 1), ""},
		{"j10", 99, ""},
		{"J-10", 99, ""},
		{"K1", NoSquare, "K1 is off the ocean: the columns are A-J"},
		{"A11", NoSquare, "A11 is off the ocean: the rows are 1-10"},
		{"A0", NoSquare, "A0 is off the ocean"},
		{"3B", NoSquare, `"3B" is not a square`},
		{"B", NoSquare, `"B" is not a square`},
		{"B-", NoSquare, `"B-" is not a square`},
		{"B--3", NoSquare, "is not a square"},
		{"B3x", NoSquare, "is not a square"},
		{"B100", NoSquare, "is not a square"},
		{"", NoSquare, "a square is missing"},
	} {
		got, err := ParseSquare(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ParseSquare(%q): %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseSquare(%q) error %v, want %q", tc.in, err, tc.err)
		case got != tc.want:
			t.Errorf("ParseSquare(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	for q := range Square(Squares) {
		if p, err := ParseSquare(q.String()); err != nil || p != q {
			t.Errorf("%v does not read back: %v %v", q, p, err)
		}
	}
}

func TestCheckSetup(t *testing.T) {
	strict := map[string]any{}
	free := map[string]any{OptPlacement: PlacementFree}
	diag := map[string]any{OptDiagonal: true}
	freeDiag := map[string]any{OptPlacement: PlacementFree, OptDiagonal: true}
	for _, tc := range []struct {
		name  string
		rules map[string]any
		setup string
		want  string // canonical setup, or
		err   string // the refusal
	}{
		{"records example", strict, `{"fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`,
			`{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}`, ""},
		{"canonical form", strict, `{"fleet": ["b6-b2", "G-2-D-2", "i4-I6", "E8-d8", "g10-g9"]}`,
			`{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}`, ""},
		{"four ships", strict, `{"fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8"]}`, "", "a fleet has 5 ships"},
		{"bad square", strict, `{"fleet": ["B2-B6", "D2-K2", "I4-I6", "D8-E8", "G9-G10"]}`, "", "the cruiser: ship \"D2-K2\": K2 is off the ocean"},
		{"one square", strict, `{"fleet": ["B2", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`, "", `"B2" is not a ship`},
		{"too short", strict, `{"fleet": ["B2-B5", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`, "", "the battleship B2-B5 covers 4 squares: a battleship covers 5"},
		{"bent", strict, `{"fleet": ["B2-B6", "D2-G3", "I4-I6", "D8-E8", "G9-G10"]}`, "", "D2-G3 is not a straight line"},
		{"diagonal refused", strict, `{"fleet": ["B2-B6", "D3-G6", "I4-I6", "D8-E8", "G9-G10"]}`, "", "the cruiser D3-G6 lies diagonally"},
		{"diagonal allowed", diag, `{"fleet": ["B2-B6", "D3-G6", "I3-I5", "D8-E8", "G9-G10"]}`,
			`{"fleet":["B2-B6","D3-G6","I3-I5","D8-E8","G9-G10"]}`, ""},
		{"anti-diagonal", freeDiag, `{"fleet": ["F5-J1", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`,
			`{"fleet":["J1-F5","D2-G2","I4-I6","D8-E8","G9-G10"]}`, ""},
		{"on the edge", strict, `{"fleet": ["A2-A6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`, "",
			"the battleship A2-A6 has 5 squares on the edge of the ocean"},
		{"one square on the edge", strict, `{"fleet": ["B1-B5", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`,
			`{"fleet":["B1-B5","D2-G2","I4-I6","D8-E8","G9-G10"]}`, ""},
		{"edge corner counts once", strict, `{"fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "J9-J10"]}`, "",
			"the second submarine J9-J10 has 2 squares on the edge"},
		{"edge free", free, `{"fleet": ["A2-A6", "D2-G2", "I4-I6", "D8-E8", "J9-J10"]}`,
			`{"fleet":["A2-A6","D2-G2","I4-I6","D8-E8","J9-J10"]}`, ""},
		{"overlap", strict, `{"fleet": ["B2-B6", "B3-E3", "I4-I6", "D8-E8", "G9-G10"]}`, "",
			"the cruiser B3-E3 overlaps the battleship B2-B6 on B3"},
		{"overlap free", free, `{"fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "E7-E8"]}`, "",
			"the second submarine E7-E8 overlaps the first submarine D8-E8 on E8"},
		{"side by side", strict, `{"fleet": ["B2-B6", "D2-G2", "D3-F3", "D8-E8", "G9-G10"]}`, "",
			"the destroyer D3-F3 touches the cruiser D2-G2 on more than one square"},
		{"side by side free", free, `{"fleet": ["B2-B6", "D2-G2", "D3-F3", "D8-E8", "G9-G10"]}`,
			`{"fleet":["B2-B6","D2-G2","D3-F3","D8-E8","G9-G10"]}`, ""},
		{"end to end", strict, `{"fleet": ["B2-B6", "D2-G2", "H2-H4", "D8-E8", "G9-G10"]}`,
			`{"fleet":["B2-B6","D2-G2","H2-H4","D8-E8","G9-G10"]}`, ""},
		{"T junction", strict, `{"fleet": ["B2-B6", "D2-G2", "E3-E5", "D8-E8", "G9-G10"]}`,
			`{"fleet":["B2-B6","D2-G2","E3-E5","D8-E8","G9-G10"]}`, ""},
		{"T junction touches corners when diagonal", diag, `{"fleet": ["B2-B6", "D2-G2", "E3-E5", "D8-E8", "G9-G10"]}`, "",
			"the destroyer E3-E5 touches the cruiser D2-G2 on more than one square"},
		{"corner to corner", strict, `{"fleet": ["B2-B6", "C7-F7", "I4-I6", "H9-I9", "G2-H2"]}`,
			`{"fleet":["B2-B6","C7-F7","I4-I6","H9-I9","G2-H2"]}`, ""},
		{"corner to corner is one square when diagonal", diag, `{"fleet": ["B2-B6", "C7-F7", "I4-I6", "H9-I9", "G2-H2"]}`,
			`{"fleet":["B2-B6","C7-F7","I4-I6","H9-I9","G2-H2"]}`, ""},
		{"diagonal ships side by side", diag, `{"fleet": ["B2-B6", "D3-G6", "E3-G5", "D8-E8", "G9-G10"]}`, "",
			"the destroyer E3-G5 touches the cruiser D3-G6 on more than one square"},
		{"not json", strict, `fleet B2-B6`, "", "a Salvo setup is"},
		{"unknown field", strict, `{"fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"], "flag": 1}`, "", "unknown field"},
		{"no fleet", strict, `{}`, "", "the setup has no fleet"},
		{"fleet in capitals", strict, `{"FLEET": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`, "", `unknown field "FLEET"`},
		{"fleet with a capital", strict, `{"Fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`, "", `unknown field "Fleet"`},
		{"fleet twice", strict, `{"fleet": [], "fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`, "", `the key "fleet" appears twice`},
		{"trailing", strict, `{"fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]} {}`, "", "more after the setup"},
		{"not UTF-8", strict, "{\"fleet\": [\"B2-B6\xff\"]}", "", "not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config(t, tc.rules, "Ann", "Ben")
			got, err := Game{}.CheckSetup(cfg, 0, json.RawMessage(tc.setup))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestAutoSetup(t *testing.T) {
	for _, rules := range []map[string]any{
		{},
		{OptDiagonal: true},
		{OptPlacement: PlacementFree},
		{OptPlacement: PlacementFree, OptDiagonal: true},
	} {
		cfg := config(t, rules, "Ann", "Ben")
		seen := map[string]bool{}
		for seed := range uint64(50) {
			a, err := Game{}.AutoSetup(cfg, 1, seed)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := (Game{}).CheckSetup(cfg, 1, a); err != nil {
				t.Errorf("%v seed %d: %s is not legal: %v", rules, seed, a, err)
			}
			b, _ := Game{}.AutoSetup(cfg, 1, seed)
			if string(a) != string(b) {
				t.Errorf("seed %d gave %s then %s", seed, a, b)
			}
			seen[string(a)] = true
		}
		if len(seen) < 45 {
			t.Errorf("%v: only %d different fleets from 50 seeds", rules, len(seen))
		}
	}
}

func TestReport(t *testing.T) {
	st := newState(t, nil, fleetA, fleetB)
	// B's fleet: D4-H4, B6-B9, F6-F8, H7-I7, D9-E9.
	evs := apply(t, st, 0, "fire D4 B6 H7 E9 A1")
	want := Report{Hits: Tally{1, 1, 0, 2}}
	var salvo *Salvo
	for _, e := range evs {
		if e.Kind == "salvo" {
			s := e.Data.(Salvo)
			salvo = &s
			if e.To != nil {
				t.Errorf("salvo event is for %v, want everybody", e.To)
			}
			if want := "Ann fired salvo 1 at Ben: D4 B6 H7 E9 A1: one in the battleship, one in the cruiser, two in submarines"; e.Text != want {
				t.Errorf("text %q, want %q", e.Text, want)
			}
		}
		if e.Kind == "hits" && !slices.Equal(e.To, []game.Seat{1}) {
			t.Errorf("hits event is for %v, want only Ben", e.To)
		}
	}
	if salvo == nil || salvo.Report != want {
		t.Fatalf("salvo %+v, want report %+v", salvo, want)
	}
	// The shooter's view has the squares and the report, not which hit.
	v := st.SeatView(0)
	if v.Tracking[0].Hits != want.Hits || v.Tracking[0].Ocean[0][0] != 1 || v.Tracking[0].Ocean[3][3] != 1 {
		t.Errorf("tracking %+v", v.Tracking)
	}
	// The target's view shows which of its squares were hit.
	bv := st.SeatView(1)
	var hit []string
	for _, sh := range bv.Fleet {
		for i, q := range sh.Squares {
			if sh.Hit[i] {
				hit = append(hit, q.String())
			}
		}
	}
	if !slices.Equal(hit, []string{"D4", "B6", "H7", "E9"}) {
		t.Errorf("Ben sees hits on %v", hit)
	}
	if r := (Report{}).Text(); r != "all in the ocean" {
		t.Errorf("empty report %q", r)
	}
}

func TestSinkingAndShots(t *testing.T) {
	for _, tc := range []struct {
		lostBy             string
		annShots, benShots int
	}{
		{LostBySinker, 4, 5},
		{LostByOwner, 5, 4},
	} {
		t.Run(tc.lostBy, func(t *testing.T) {
			st := newState(t, map[string]any{OptShotsLostBy: tc.lostBy}, fleetA, fleetB)
			evs := apply(t, st, 0, "fire H7 I7 A1 A2 A3")
			var rep Report
			for _, e := range evs {
				if e.Kind == "salvo" {
					rep = e.Data.(Salvo).Report
					if !strings.HasSuffix(e.Text, "two in submarines; sank a submarine") {
						t.Errorf("text %q", e.Text)
					}
				}
			}
			if rep.Sank != (Tally{0, 0, 0, 1}) {
				t.Errorf("sank %v", rep.Sank)
			}
			v := st.SeatView(1)
			if v.Players[0].Shots != tc.annShots || v.Players[1].Shots != tc.benShots {
				t.Errorf("shots %d and %d, want %d and %d", v.Players[0].Shots, v.Players[1].Shots, tc.annShots, tc.benShots)
			}
			if v.Shots != tc.benShots {
				t.Errorf("Ben's next salvo %d shots, want %d", v.Shots, tc.benShots)
			}
			if got := st.Result().Scores; !slices.Equal(got, []int{1, 0}) {
				t.Errorf("scores %v", got)
			}
			if tc.benShots == 4 {
				refuse(t, st, 1, "fire A1 A2 A3 A4 A5", "your salvo has 4 shots: you named 5")
			} else {
				refuse(t, st, 1, "fire A1 A2 A3 A4", "your salvo has 5 shots: you named 4")
			}
		})
	}
}

// missSalvo returns a salvo for seat at squares of its target's ocean that
// hold no ship and that it has not fired at.
func missSalvo(st *State, seat game.Seat) string {
	t := st.Target(seat)
	fired := st.fired[int(seat)*st.n+int(t)]
	var sq []string
	for q := range Square(Squares) {
		if len(sq) < st.salvoSize(seat, t) && !fired.Has(q) && !st.all[t].Has(q) {
			sq = append(sq, q.String())
		}
	}
	return "fire " + strings.Join(sq, " ")
}

// sinkAll has shooter sink every ship of ships, its target's fleet, while
// the other seats fire at squares that hold no ship.
func sinkAll(t *testing.T, st *State, shooter game.Seat, ships []string) {
	t.Helper()
	todo := squaresOf(ships...)
	for len(todo) > 0 {
		if st.Result().Status == game.Finished {
			t.Fatal("game ended early")
		}
		seat := st.ToMove()[0]
		if seat != shooter {
			apply(t, st, seat, missSalvo(st, seat))
			continue
		}
		n := st.SeatView(seat).Shots
		k := min(n, len(todo))
		move := "fire " + strings.Join(todo[:k], " ")
		todo = todo[k:]
		if k < n { // pad with squares that hold no ship
			move += " " + strings.Join(strings.Fields(missSalvo(st, seat))[1:n-k+1], " ")
		}
		apply(t, st, seat, move)
	}
}

func TestOutline(t *testing.T) {
	twoPlayers := func(t *testing.T) *State {
		st := newState(t, nil, fleetA, fleetB)
		sinkAll(t, st, 0, fleetB)
		if got := st.ToMove(); !slices.Equal(got, []game.Seat{0}) {
			t.Fatalf("to move %v: a player whose fleet is sunk takes no more turns", got)
		}
		v := st.SeatView(0)
		if !v.MustOutline || v.Shots != 0 {
			t.Fatalf("must outline %v, shots %d", v.MustOutline, v.Shots)
		}
		if got := st.Result().Scores; !slices.Equal(got, []int{5, 0}) {
			t.Errorf("scores %v", got)
		}
		return st
	}
	t.Run("only outline or resign", func(t *testing.T) {
		st := twoPlayers(t)
		refuse(t, st, 0, "fire J1 J2 J3 J4 J5", "every ship of Ben's fleet is sunk: outline it, or resign")
		refuse(t, st, 0, "outline D4-H4 B6-B9 F6-F8 H7-I7", "an outline names the fleet's five ships")
		refuse(t, st, 0, "outline D4-H4 B6-B9 F6-F8 H7-I7 H8-I8", "no fleet can lie like that")
		refuse(t, st, 1, "fire A1", "not your turn")
	})
	t.Run("resign out of turn", func(t *testing.T) {
		st := twoPlayers(t)
		evs := apply(t, st, 1, "resign")
		wantEnd(t, evs, game.End{Reason: EndResign, Seat: 1, Against: -1, Winners: []game.Seat{0}, Scores: []int{5, 0}})
	})
	t.Run("right", func(t *testing.T) {
		st := twoPlayers(t)
		evs := apply(t, st, 0, "outline d4-h4 b9-b6 F6-F8 D9-E9 H7-I7") // submarines either way
		res := st.Result()
		if res.Status != game.Finished || !slices.Equal(res.Winners, []game.Seat{0}) {
			t.Errorf("result %+v, want Ann wins", res)
		}
		if e := evs[len(evs)-1]; e.Kind != "end" || e.To != nil {
			t.Errorf("last event %+v, want the public end", e)
		}
		wantEnd(t, evs, game.End{Reason: EndOutlined, Seat: 0, Against: 1, Winners: []game.Seat{0}, Scores: []int{5, 0}})
		if v := st.SeatView(game.Spectator); len(v.Fleets) != 2 || v.Fleets[1].Strings()[0] != "D4-H4" {
			t.Errorf("fleets not shown at the end: %v", v.Fleets)
		}
	})
	t.Run("wrong", func(t *testing.T) {
		st := twoPlayers(t)
		evs := apply(t, st, 0, "outline D4-H4 B6-B9 F6-F8 H7-I7 H9-H10")
		wantEnd(t, evs, game.End{Reason: EndWrongOutline, Seat: 0, Against: 1, Winners: []game.Seat{1}, Scores: []int{5, 0}})
		if o, ok := evs[0].Data.(Outline); !ok || evs[0].Kind != "outline" || o.Right || o.By != 0 || o.Of != 1 {
			t.Errorf("outline event %+v", evs[0])
		}
		res := st.Result()
		if res.Status != game.Finished || !slices.Equal(res.Winners, []game.Seat{1}) {
			t.Errorf("result %+v, want Ben wins", res)
		}
		if v := st.SeatView(0); v.Players[0].Out != OutWrongOutline {
			t.Errorf("Ann out %q", v.Players[0].Out)
		}
	})
	t.Run("too early", func(t *testing.T) {
		st := newState(t, nil, fleetA, fleetB)
		refuse(t, st, 0, "outline D4-H4 B6-B9 F6-F8 H7-I7 D9-E9", "only once every ship of it is sunk")
	})
}

func TestResign(t *testing.T) {
	st := newState(t, nil, fleetA, fleetB)
	apply(t, st, 0, "fire A1 A2 A3 A4 A5")
	refuse(t, st, 1, "resign now", "write just resign")
	evs := apply(t, st, 1, "Resign")
	wantEnd(t, evs, game.End{Reason: EndResign, Seat: 1, Against: -1, Winners: []game.Seat{0}, Scores: []int{0, 0}})
	if res := st.Result(); res.Status != game.Finished || !slices.Equal(res.Winners, []game.Seat{0}) {
		t.Errorf("result %+v", res)
	}
	refuse(t, st, 0, "fire B1 B2 B3 B4 B5", "the game is over")
}

func TestThreePlayers(t *testing.T) {
	st := newState(t, nil, fleetA, fleetB, fleetC)
	for seat, want := range []game.Seat{1, 2, 0} {
		if got := st.Target(game.Seat(seat)); got != want {
			t.Errorf("seat %d fires at %d, want %d", seat, got, want)
		}
	}
	// Ben fires at Cat first, hitting C3 of her battleship; Cat's other
	// squares stay clear.
	apply(t, st, 0, "fire A1 A2 A3 A4 A5")
	apply(t, st, 1, "fire C3 J1 J2 J3 J4")
	apply(t, st, 2, "fire J1 J2 J3 J4 J5")
	// Ann sinks Ben's fleet while the others miss.
	sinkAll(t, st, 0, fleetB)
	if got := st.ToMove(); !slices.Equal(got, []game.Seat{2}) {
		t.Fatalf("to move %v, want Cat (Ben's fleet is sunk)", got)
	}
	apply(t, st, 2, missSalvo(st, 2))
	apply(t, st, 0, "outline D4-H4 B6-B9 F6-F8 H7-I7 D9-E9")
	if v := st.SeatView(0); v.Players[1].Out != OutOutlined || v.Target != 2 || v.Finished {
		t.Fatalf("after the outline: Ben out %q, Ann's target %d, finished %v", v.Players[1].Out, v.Target, v.Finished)
	}
	// Ann now fires at Cat. A shot at C3, which Ben already hit, still
	// counts.
	apply(t, st, 2, missSalvo(st, 2))
	evs := apply(t, st, 0, "fire C3") // five ships sunk: one shot left
	if rep := evs[0].Data.(Salvo).Report; rep.Hits != (Tally{1, 0, 0, 0}) {
		t.Errorf("report %v: the shot at C3, already hit, must count", rep)
	}
	if v := st.SeatView(0); len(v.Tracking) != 2 || v.Tracking[1].Target != 2 || v.Tracking[1].Ocean[2][2] == 0 {
		t.Errorf("tracking %+v", v.Tracking)
	}
	// Ann resigns: Cat is the last player standing.
	apply(t, st, 2, missSalvo(st, 2))
	apply(t, st, 0, "resign")
	if res := st.Result(); res.Status != game.Finished || !slices.Equal(res.Winners, []game.Seat{2}) || !slices.Equal(res.Scores, []int{5, 0, 0}) {
		t.Errorf("result %+v", res)
	}
}

func TestThreePlayersSinkingCompletedByAnother(t *testing.T) {
	// Ben hits three squares of Cat's cruiser H5-H8, then resigns. Ann,
	// who now fires at Cat, hits H5 again and H8: her shot at H5 counts,
	// and she completes the sinking, so she is told and loses the shot.
	st := newState(t, nil, fleetA, fleetB, fleetC)
	apply(t, st, 0, "fire A1 A2 A3 A4 A5")
	apply(t, st, 1, "fire H5 H6 H7 J1 J2")
	apply(t, st, 2, "fire A1 A2 A3 A4 A5")
	apply(t, st, 0, "fire A6 A7 A8 A9 A10")
	apply(t, st, 1, "resign")
	apply(t, st, 2, "fire A6 A7 A8 A9 A10")
	evs := apply(t, st, 0, "fire H5 H8 J1 J2 J3")
	rep := evs[0].Data.(Salvo).Report
	if rep.Hits != (Tally{0, 2, 0, 0}) || rep.Sank != (Tally{0, 1, 0, 0}) {
		t.Errorf("report %+v, want two in the cruiser and the cruiser sunk", rep)
	}
	if v := st.SeatView(2); v.Players[0].ShipsSunk != 1 || v.Players[0].Shots != 4 || v.Players[1].ShipsSunk != 0 {
		t.Errorf("players %+v", v.Players)
	}
}

func TestFewerSquaresLeft(t *testing.T) {
	st := newState(t, nil, fleetA, fleetB)
	// Pretend Ann has fired at every square of Ben's ocean but three.
	var all Board
	for q := range Square(Squares) {
		all = all.With(q)
	}
	st.fired[0*2+1] = all.AndNot(BoardOf(At(0, 0), At(0, 1), At(0, 2)))
	if v := st.SeatView(0); v.Shots != 3 {
		t.Errorf("next salvo %d shots, want 3", v.Shots)
	}
	refuse(t, st, 0, "fire A1 B1", "only 3 squares of Ben's ocean are left to fire at")
	apply(t, st, 0, "fire A1 B1 C1")
}

func TestBadMoves(t *testing.T) {
	st := newState(t, nil, fleetA, fleetB)
	apply(t, st, 0, "fire A1 A2 A3 A4 A5")
	for _, tc := range []struct{ move, err string }{
		{"", "the move is empty"},
		{"shoot A1", `"shoot A1" is not a Salvo move`},
		{"fire", "name the 5 squares of your salvo, such as fire A1 C3 E5 G7 I9"},
		{"B1 B2 B3 B4 B5", `"B1 B2 B3 B4 B5" is not a Salvo move: to fire at those squares, write "fire B1 B2 B3 B4 B5"`},
		{"b-1", `write "fire b-1"`},
		{"fire A1 A1 A2 A3 A4", "A1 is named twice"},
		{"fire A1 K1 A2 A3 A4", "K1 is off the ocean"},
		{"fire A1 A2 A3 A4 A5 A6", "your salvo has 5 shots: you named 6"},
		{"fire A1 A2 A3 A4 " + strings.Repeat("A", 300), "a move is at most 200 characters"},
	} {
		refuse(t, st, 1, tc.move, tc.err)
	}
	refuse(t, st, 0, "fire B1 B2 B3 B4 B5", "not your turn: waiting for Ben")
	apply(t, st, 1, "fire a-1, b-1, c-1, d-1, e-1")
	refuse(t, st, 0, "fire A1 B1 C1 D1 E1", "you have already fired at A1 in Ben's ocean")
	if _, err := st.Apply(0, "fire A1 B1 C1 D1 E1"); err == nil || !strings.HasPrefix(err.Error(), "fire A1 B1 C1 D1 E1: ") {
		t.Errorf("the error does not name the move: %v", err)
	}
	if _, err := st.Apply(1, "fire B1"); !errors.Is(err, game.ErrNotYourTurn) {
		t.Errorf("out of turn: %v", err)
	}
}

func TestViewSecrecy(t *testing.T) {
	st := newState(t, nil, fleetA, fleetB, fleetC)
	apply(t, st, 0, "fire D4 B6 H7 E9 A1")
	for seat := game.Spectator; seat < 3; seat++ {
		v := st.SeatView(seat)
		if v.Fleets != nil {
			t.Errorf("seat %d sees every fleet before the end", seat)
		}
		switch {
		case seat == game.Spectator && v.Fleet != nil:
			t.Errorf("a spectator sees a fleet")
		case seat >= 0 && (len(v.Fleet) != FleetSize || v.Fleet[0].Ship.String() != [][]string{fleetA, fleetB, fleetC}[seat][0]):
			t.Errorf("seat %d sees fleet %+v", seat, v.Fleet)
		}
		if len(v.Salvos) != 1 || v.Salvos[0].Report.Hits.Total() != 4 {
			t.Errorf("seat %d sees salvos %+v", seat, v.Salvos)
		}
	}
}

func TestRandomFleetUniform(t *testing.T) {
	// Over free placement without diagonals, by symmetry every corner
	// square is covered equally often by a uniform draw.
	r := rand.New(rand.NewPCG(1, 2))
	s := NewSampler(Placement{})
	var n [4]int
	corners := []Square{At(0, 0), At(0, 9), At(9, 0), At(9, 9)}
	const draws = 4000
	for range draws {
		b := s.Fleet(r).Board()
		for i, c := range corners {
			if b.Has(c) {
				n[i]++
			}
		}
	}
	for i := range n {
		if n[i] < draws/50 || n[i] > draws/5 {
			t.Errorf("corner %v covered %d times in %d draws", corners[i], n[i], draws)
		}
	}
	lo, hi := slices.Min(n[:]), slices.Max(n[:])
	if float64(hi-lo) > 0.5*float64(lo) {
		t.Errorf("corners covered %v times: not symmetric", n)
	}
}

func ExampleParseShip() {
	s, _ := ParseShip("b6-B-2")
	fmt.Println(s, s.Len(), s.Squares())
	// Output: B2-B6 5 [B2 B3 B4 B5 B6]
}

func ExampleReport_Text() {
	r := Report{Hits: Tally{Destroyer: 1, Submarine: 2}, Sank: Tally{Submarine: 1}}
	fmt.Println(r.Text())
	// Output: one in the destroyer, two in submarines; sank a submarine
}

func ExamplePlacement_Check() {
	f, _ := ParseFleet([]string{"B2-B6", "D2-G2", "D3-F3", "D8-E8", "G9-G10"})
	fmt.Println(Placement{Strict: true}.Check(f))
	// Output: the destroyer D3-F3 touches the cruiser D2-G2 on more than one square
}

func TestPractice(t *testing.T) {
	f, _ := ParseFleet(fleetB)
	st, err := NewPractice(game.Defaults(Game{}.Options()), f)
	if err != nil {
		t.Fatal(err)
	}
	todo := squaresOf(fleetB...)
	for len(todo) > 0 {
		if got := st.ToMove(); !slices.Equal(got, []game.Seat{0}) {
			t.Fatalf("to move %v, want only the practising seat", got)
		}
		n := min(st.SeatView(0).Shots, len(todo))
		apply(t, st, 0, "fire "+strings.Join(todo[:n], " "))
		todo = todo[n:]
	}
	apply(t, st, 0, "outline "+strings.Join(fleetB, " "))
	if res := st.Result(); res.Status != game.Finished || !slices.Equal(res.Winners, []game.Seat{0}) || res.Scores[0] != 5 {
		t.Errorf("result %+v", res)
	}
	bad, _ := ParseFleet([]string{"A1-A5", "D2-G2", "I4-I6", "D8-E8", "G9-G10"})
	if _, err := NewPractice(game.Defaults(Game{}.Options()), bad); err == nil {
		t.Error("an illegal practice fleet was accepted")
	}
}

// wantEnd checks that evs end with the end event, saying in fields why.
func wantEnd(t *testing.T, evs []game.Event, want game.End) {
	t.Helper()
	last := evs[len(evs)-1]
	e, ok := last.Data.(EndEvent)
	if last.Kind != "end" || !ok || !reflect.DeepEqual(e.End, want) || len(e.Fleets) != 2 {
		t.Errorf("end event %+v, want %+v", last, want)
	}
}

// With three players, one may resign out of turn: the turn stays with the
// player to move, and play goes on without the one who resigned.
func TestResignOutOfTurnThreePlayers(t *testing.T) {
	t.Parallel()
	st := newState(t, nil, fleetA, fleetB, fleetC)
	apply(t, st, 0, "fire A1 A2 A3 A4 A5")
	// Ben is to move; Cat resigns.
	apply(t, st, 2, "resign")
	if got := st.ToMove(); !slices.Equal(got, []game.Seat{1}) {
		t.Fatalf("to move %v, want Ben still", got)
	}
	refuse(t, st, 2, "resign", "not your turn")
	refuse(t, st, 0, "fire B1 B2 B3 B4 B5", "not your turn")
	apply(t, st, 1, "fire J1 J2 J3 J4 J5")
	if got := st.ToMove(); !slices.Equal(got, []game.Seat{0}) {
		t.Fatalf("to move %v, want Ann (Cat is out)", got)
	}
	apply(t, st, 1, "resign")
	if res := st.Result(); res.Status != game.Finished || !slices.Equal(res.Winners, []game.Seat{0}) {
		t.Fatalf("result %+v, want Ann's win", res)
	}
}
