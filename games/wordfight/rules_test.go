package wordfight

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/game/gametest"
	"parlour/lexicon"
)

// testWords is a small lexicon for the rulings; the seed example uses the
// real one.
var testWords = []string{
	"at", "to", "ta", "an", "on", "or", "no", "ox", "be",
	"ant", "art", "cat", "car", "cart", "tar", "rat", "ear", "eat", "tea",
	"ate", "tan", "net", "ten", "arc", "act", "oat", "cab", "bat", "tab",
	"arcs", "acts", "scat", "cast", "star", "tars", "tars", "zoo",
	"topic", "topical", "promontory",
}

func testLex() *lexicon.Lexicon { return lexicon.FromWords("test", testWords) }

var names = []string{"Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"}

// newPlay starts a play for players with rule options given as Go values.
func newPlay(t testing.TB, players int, opts map[string]any) *State {
	t.Helper()
	rules, err := game.ResolveValues(Game{}.Options(), opts)
	if err != nil {
		t.Fatalf("rules: %v", err)
	}
	st, err := Game{}.New(game.Config{Players: names[:players], Rules: rules, Lexicon: testLex()}, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return st.(*State)
}

// play applies moves written "seat:move" and fails on any refusal.
func play(t testing.TB, s *State, moves ...string) []game.Event {
	t.Helper()
	return gametest.Play(t, s, moves...)
}

// refuse applies a move that must be refused with an error containing want,
// and checks that the refusal changed nothing.
func refuse(t testing.TB, s *State, seat game.Seat, move, want string) {
	t.Helper()
	before := snapshot(s)
	_, err := s.Apply(seat, move)
	if err == nil {
		t.Fatalf("%q by seat %d: accepted, want refusal containing %q", move, seat, want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%q by seat %d: error %q, want it to contain %q", move, seat, err, want)
	}
	if after := snapshot(s); after != before {
		t.Errorf("%q by seat %d: refused move changed the state", move, seat)
	}
}

// snapshot is everything about s, for checking that a refusal changed
// nothing.
func snapshot(s *State) string {
	var sb strings.Builder
	for i := -1; i < len(s.grids); i++ {
		b, _ := json.Marshal(s.SeatView(game.Seat(i)))
		sb.Write(b)
	}
	b, _ := json.Marshal(s.Result())
	sb.Write(b)
	b, _ = json.Marshal(s.entries(true))
	sb.Write(b)
	return sb.String()
}

func TestOptions(t *testing.T) {
	opts := Game{}.Options()
	r := RulesOf(game.Defaults(opts))
	want := Rules{Width: 20, Height: 20, Multiply: true, StrikesPer: PerWord, StrikeLimit: 3}
	if r != want {
		t.Errorf("defaults = %+v, want %+v", r, want)
	}
	bad := []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{"width": 4}, "out of range"},
		{map[string]any{"height": 31}, "out of range"},
		{map[string]any{"strikes_per": "team"}, "not one of"},
		{map[string]any{"strike_limit": 0}, "out of range"},
		{map[string]any{"strike_limit": MaxStrikeLimit + 1}, "out of range"},
		{map[string]any{"shape": "...../....."}, "2 rows"},
		{map[string]any{"shape": "....."}, "shape: 1 row, want"},
		{map[string]any{"shape": "...../...../..x../...../....."}, "row 3, square 3"},
		{map[string]any{"shape": "...../...../..../...../....."}, "row 3 has 4 squares"},
		{map[string]any{"multiply": "yes"}, "true or false"},
		// Shapes that hold no word are refused as options, before any
		// table is made with them.
		{map[string]any{"shape": "#####/#####/#####/#####/#####"}, "masks every square"},
		{map[string]any{"shape": "#.#.#/.#.#./#.#.#/.#.#./#.#.#"}, "no two usable squares side by side"},
		{map[string]any{"shape": "#####/#####/##.##/#####/#####"}, "no two usable squares side by side"},
	}
	for _, c := range bad {
		_, err := game.ResolveValues(opts, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.opts, err, c.want)
		}
	}
	// A well-formed shape must still match the board's size.
	rules, err := game.ResolveValues(opts, map[string]any{"shape": "#..../...../...../...../....#"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Game{}.New(game.Config{Players: names[:2], Rules: rules, Lexicon: testLex()}, nil)
	if err == nil || !strings.Contains(err.Error(), "set width 5 and height 5") {
		t.Errorf("shape of the wrong size: error %v", err)
	}
	// The options as a whole (game.ResolveFor) refuse it at once.
	raw := map[string]json.RawMessage{"shape": json.RawMessage(`"#..../...../...../...../....#"`)}
	if _, err := game.ResolveFor(Game{}, raw); err == nil || !strings.Contains(err.Error(), "set width 5 and height 5") {
		t.Errorf("shape of the wrong size, resolved for the game: error %v", err)
	}
	raw["width"], raw["height"] = json.RawMessage("5"), json.RawMessage("5")
	if _, err := game.ResolveFor(Game{}, raw); err != nil {
		t.Errorf("shape of the right size: %v", err)
	}
	if _, err = (Game{}).New(game.Config{Players: names[:1], Rules: game.Defaults(opts), Lexicon: testLex()}, nil); err == nil {
		t.Error("a one-player table was accepted")
	}
}

func TestSquares(t *testing.T) {
	good := []struct {
		in   string
		r, c int
	}{{"A1", 0, 0}, {"b2", 1, 1}, {" T20 ", 19, 19}, {"Z3", 2, 25}, {"AA1", 0, 26}, {"ad30", 29, 29}}
	for _, g := range good {
		r, c, err := ParseSquare(g.in)
		if err != nil || r != g.r || c != g.c {
			t.Errorf("ParseSquare(%q) = %d, %d, %v; want %d, %d", g.in, r, c, err, g.r, g.c)
		}
		if s := Square(r, c); !strings.EqualFold(s, strings.TrimSpace(g.in)) {
			t.Errorf("Square(%d, %d) = %q, want %q", r, c, s, g.in)
		}
	}
	for _, bad := range []string{"", "1A", "A", "A0", "BA1", "A123", "ABC1", "A-1", "é1"} {
		if _, _, err := ParseSquare(bad); err == nil {
			t.Errorf("ParseSquare(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"B2", "B2 sideways", "B2 across now", "across B2"} {
		if _, err := ParsePlacement(bad); err == nil {
			t.Errorf("ParsePlacement(%q) accepted", bad)
		}
	}
	p, err := ParsePlacement("  c10   DOWN ")
	if err != nil || p != (Placement{Row: 9, Col: 2, Down: true}) || p.String() != "C10 down" {
		t.Errorf("ParsePlacement(c10 DOWN) = %v, %v", p, err)
	}
}

// grid builds a grid on a w x h board from placements "word at".
func grid(t *testing.T, w, h int, lex *lexicon.Lexicon, words ...string) *Grid {
	t.Helper()
	b, err := NewBoard(w, h, "")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGrid(b)
	for _, x := range words {
		word, at, _ := strings.Cut(x, " ")
		p, err := ParsePlacement(at)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Check(lex, word, p); err != nil {
			t.Fatalf("%s: %v", x, err)
		}
		g.Place(word, p)
	}
	return g
}

// TestPlacementRulings covers every placement ruling of RULES.md §3.
func TestPlacementRulings(t *testing.T) {
	lex := testLex()
	// CART across at B2, ARC down from C2 (reusing its A):
	//     A B C D E F
	//   1 . . . . . .
	//   2 . C A R T .
	//   3 . . R . . .
	//   4 . . C . . .
	g1 := grid(t, 6, 6, lex, "cart B2 across", "arc C2 down")
	// TO across at A1, TAB down from A1 (reusing its T).
	g2 := grid(t, 6, 6, lex, "to A1 across", "tab A1 down")
	cases := []struct {
		name     string
		g        *Grid
		word, at string
		reused   int
		err      string
	}{
		{"crossing one word", g1, "tar", "E2 down", 1, ""},
		{"crossing at the end", g1, "at", "E1 down", 1, ""},
		{"reusing two letters in a line", g1, "arcs", "C2 down", 3, ""},
		{"crossing the last letter", g1, "car", "C4 across", 1, ""},
		{"a square holding another letter", g1, "oat", "C1 down", 0, "C1 down: the square C3 holds R, not T"},
		{"a clash at the end", g1, "art", "C2 down", 0, "the square C4 holds C, not T"},
		{"no new letter", g1, "cart", "B2 across", 0, "every letter of CART is already there"},
		{"no new letter down", g1, "arc", "C2 down", 0, "already there"},
		{"reusing nothing", g1, "at", "A5 across", 0, "AT crosses nothing in your grid"},
		{"running on from a word", g1, "ta", "E2 across", 0, "E2 across: the square D2 just before TA holds R"},
		{"running into a word", g1, "at", "A3 across", 0, "the square C3 just after AT holds R"},
		{"a cross run that is not a word", g1, "cat", "B2 down", 0, "A in B3 would make AR across from B3, which is not a word"},
		{"off the board", g1, "topical", "A1 across", 0, "TOPICAL runs off the board after F1"},
		{"off the board down", g1, "cart", "E4 down", 0, "runs off the board after E6"},
		{"starting off the board", g1, "to", "G1 across", 0, "G1 is not on the board"},
		{"a cross run that is a word", g2, "on", "B1 down", 1, ""},
		{"a cross run that is not", g2, "ox", "B1 down", 0, "X in B2 would make AX across from A2, which is not a word"},
	}
	for _, c := range cases {
		p, err := ParsePlacement(c.at)
		if err != nil {
			t.Fatal(err)
		}
		reused, err := c.g.Check(lex, c.word, p)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %s at %s refused: %v", c.name, c.word, c.at, err)
		case c.err == "" && reused != c.reused:
			t.Errorf("%s: %s at %s reused %d, want %d", c.name, c.word, c.at, reused, c.reused)
		case c.err != "" && err == nil:
			t.Errorf("%s: %s at %s accepted, want %q", c.name, c.word, c.at, c.err)
		case c.err != "" && !strings.Contains(err.Error(), c.err):
			t.Errorf("%s: %s at %s: error %q, want it to contain %q", c.name, c.word, c.at, err, c.err)
		}
	}
}

// TestPlacementsAgreeWithCheck checks the fast search and Fits against Check at
// every square of several grids, the first word's empty grid included.
func TestPlacementsAgreeWithCheck(t *testing.T) {
	lex := testLex()
	grids := []*Grid{
		grid(t, 6, 6, lex),
		grid(t, 6, 6, lex, "cart B2 across", "arc C2 down"),
		grid(t, 6, 6, lex, "to A1 across", "tab A1 down"),
		grid(t, 7, 5, lex, "cart A1 across", "tars D1 down", "star D4 across", "cast A1 down"),
	}
	b, _ := NewBoard(6, 6, "#...../....../..#.../....../....../.....#")
	grids = append(grids, NewGrid(b))
	for gi, g := range grids {
		for _, w := range testWords {
			found := map[Placement]int{}
			for p, reused := range g.Placements(lex, w) {
				if _, dup := found[p]; dup {
					t.Errorf("grid %d, %s: placement %s found twice", gi, w, p)
				}
				found[p] = reused
			}
			for r := -1; r <= g.Board().Height(); r++ {
				for c := -1; c <= g.Board().Width(); c++ {
					for _, down := range []bool{false, true} {
						p := Placement{Row: r, Col: c, Down: down}
						reused, err := g.Check(lex, w, p)
						got, ok := found[p]
						if (err == nil) != ok || (ok && got != reused) {
							t.Errorf("grid %d, %s at %v: Check says %d, %v; search says %d, %v", gi, w, p, reused, err, got, ok)
						}
						if fr, fok := g.Fits(lex, w, p); fok != (err == nil) || (fok && fr != reused) {
							t.Errorf("grid %d, %s at %v: Check says %d, %v; Fits says %d, %v", gi, w, p, reused, err, fr, fok)
						}
					}
				}
			}
		}
	}
}

func TestGridRows(t *testing.T) {
	lex := testLex()
	b, _ := NewBoard(5, 5, "#..../...../...../...../....#")
	g := NewGrid(b)
	if _, err := g.Check(lex, "cart", Placement{Row: 0, Col: 0}); err == nil || !strings.Contains(err.Error(), "A1 is not part of the board") {
		t.Errorf("CART at A1 on a masked square: %v", err)
	}
	g.Place("cart", Placement{Row: 0, Col: 1})
	rows := g.Rows()
	want := []string{"#CART", ".....", ".....", ".....", "....#"}
	if !slices.Equal(rows, want) {
		t.Errorf("Rows = %q, want %q", rows, want)
	}
	h, err := GridFromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.Rows(), want) || h.Len() != 4 || h.Board().Shape() != b.Shape() {
		t.Errorf("GridFromRows round trip: %q, %d letters, shape %q", h.Rows(), h.Len(), h.Board().Shape())
	}
}

func TestFirstWordAnywhereThenReuse(t *testing.T) {
	s := newPlay(t, 2, map[string]any{"width": 8, "height": 8})
	play(t, s, "0:declare cart")
	if got := s.ToMove(); !slices.Equal(got, []game.Seat{0, 1}) {
		t.Fatalf("after a declaration ToMove = %v, want both seats", got)
	}
	// The first word goes anywhere, in either direction, in any order.
	play(t, s, "1:place H5 down")
	if got := s.ToMove(); !slices.Equal(got, []game.Seat{0}) {
		t.Fatalf("after Ben answers ToMove = %v, want [0]", got)
	}
	refuse(t, s, 1, "place A1 across", "it is not your turn: waiting for Ann")
	play(t, s, "0:place a1 ACROSS")
	if got := s.Result().Scores; !slices.Equal(got, []int{0, 0}) {
		t.Errorf("first word scored %v under multiply, want 0 each", got)
	}
	// Ben declares next.
	refuse(t, s, 0, "declare tar", "waiting for Ben")
	play(t, s, "1:declare tar")
	refuse(t, s, 0, "place A3 across", "TAR crosses nothing in your grid")
	play(t, s, "0:place D1 down", "1:place F7 across")
	if got := s.Result().Scores; !slices.Equal(got, []int{3, 3}) {
		t.Errorf("scores %v, want 3 each", got)
	}
	want := []string{"CART....", "...A....", "...R....", "........", ".......C", ".......A", ".....TAR", ".......T"}
	if got := s.SeatView(1).Grid; !slices.Equal(got, []string{"........", "........", "........", "........", ".......C", ".......A", ".....TAR", ".......T"}) {
		t.Errorf("Ben's grid = %q", got)
	}
	if got := s.SeatView(0).Grid; !slices.Equal(got[:3], want[:3]) {
		t.Errorf("Ann's grid = %q", got)
	}
}

func TestBaseScoring(t *testing.T) {
	s := newPlay(t, 2, map[string]any{"multiply": false, "width": 8, "height": 8})
	play(t, s, "0:declare cart", "0:place A1 across", "1:place A1 down",
		"1:declare tar", "0:place D1 down", "1:cannot")
	if got := s.Result().Scores; !slices.Equal(got, []int{7, 4}) {
		t.Errorf("base scores %v, want [7 4]", got)
	}
}

func TestDeclare(t *testing.T) {
	// A diagonal mask: no line holds more than four usable squares.
	s := newPlay(t, 3, map[string]any{"width": 5, "height": 5, "shape": "#..../.#.../..#../...#./....#"})
	for _, c := range []struct{ move, want string }{
		{"declare topic", "declare TOPIC: 5 letters cannot fit the board, where the longest line holds 4"},
		{"declare a", "at least two letters"},
		{"declare x-ray", "letters A-Z only"},
		{"declare zzz", "declare ZZZ: ZZZ is not in the lexicon"},
		{"declare", "name one word"},
		{"declare cart cat", "name one word"},
		{"place B1 across", "no word is waiting to be placed"},
		{"cannot", "no word is waiting"},
		{"shout cart", "is not a move"},
		{"cart", `"cart" is not a move: to declare CART, write "declare CART"`},
		{"B2 across", `"B2 across" is not a move: declare a word`},
		{"", "empty move"},
		{strings.Repeat("x", MaxInput+1), "no move is longer"},
	} {
		refuse(t, s, 0, c.move, c.want)
	}
	refuse(t, s, 1, "declare cart", "not your turn")
	play(t, s, "0:declare CaRt")
	refuse(t, s, 0, "declare tar", "CART is still being placed")
	refuse(t, s, 0, "b1 ACROSS", `"b1 ACROSS" is not a move: to place CART at B1 across, write "place B1 across"`)
	refuse(t, s, 0, "tar", `"tar" is not a move: place CART, as in`)
	refuse(t, s, 0, "place A1 across", "the square A1 is not part of the board")
	refuse(t, s, 0, "place B1 down", "the square B2 is not part of the board")
	// A refusal is in the player's words, not the move's verb before them.
	refuse(t, s, 0, "place 2B across", `"2B" is not a square`)
	if _, err := s.Apply(0, "place 2B across"); err == nil || !strings.HasPrefix(err.Error(), `"2B" is not a square`) {
		t.Errorf("place 2B across: %v, want it to begin with the square", err)
	}
	play(t, s, "0:place B1 across", "1:place A2 down", "2:cannot")
	// Declarers rotate in seat order.
	v := s.SeatView(game.Spectator)
	if v.Declarer != 1 || v.List[0].Word != "CART" || v.List[0].Length != 4 || v.List[0].By != 0 {
		t.Errorf("after one word: declarer %d, list %+v", v.Declarer, v.List)
	}
	play(t, s, "1:declare tar", "0:cannot", "1:cannot", "2:cannot", "2:declare cat")
	if v := s.SeatView(0); v.Declarer != 2 || v.Current != "CAT" {
		t.Errorf("declarer %d, current %q; want Cat declaring CAT", v.Declarer, v.Current)
	}
	play(t, s, "0:cannot", "1:cannot", "2:cannot")
	if s.SeatView(0).Status != game.Finished {
		t.Errorf("three strikes did not end the game")
	}
}

func TestStrikes(t *testing.T) {
	cases := []struct {
		opts    map[string]any
		moves   []string
		strikes int
		over    bool
	}{
		{map[string]any{}, []string{"0:declare cart", "0:cannot", "1:cannot", "2:place A1 across"}, 1, false},
		{map[string]any{"strikes_per": "player"}, []string{"0:declare cart", "0:cannot", "1:cannot", "2:place A1 across"}, 2, false},
		{map[string]any{"strikes_per": "player"}, []string{"0:declare cart", "0:cannot", "1:cannot", "2:cannot"}, 3, true},
		{map[string]any{"strike_limit": 1}, []string{"0:declare cart", "0:place A1 across", "1:place A1 across", "2:cannot"}, 1, true},
		{map[string]any{"strike_limit": 1}, []string{"0:declare cart", "0:place A1 across", "1:place A1 across", "2:place A1 down"}, 0, false},
		{map[string]any{"strike_limit": 2}, []string{"0:declare cart", "0:cannot", "1:place A1 across", "2:place A1 down",
			"1:declare zoo", "0:place A1 down", "1:cannot", "2:cannot"}, 2, true},
	}
	for i, c := range cases {
		s := newPlay(t, 3, c.opts)
		play(t, s, c.moves...)
		if s.Strikes() != c.strikes || (s.Result().Status == game.Finished) != c.over {
			t.Errorf("case %d: %d strikes, status %s; want %d, over %v", i, s.Strikes(), s.Result().Status, c.strikes, c.over)
		}
	}
}

func TestWinnersAndTies(t *testing.T) {
	s := newPlay(t, 2, map[string]any{"strike_limit": 1})
	play(t, s, "0:declare cart", "0:place A1 across", "1:place A1 across",
		"1:declare tar", "0:place D1 down", "1:place D1 down",
		"0:declare zoo", "0:cannot", "1:cannot")
	r := s.Result()
	if r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{0, 1}) || !slices.Equal(r.Scores, []int{3, 3}) {
		t.Errorf("tie: %+v, want both win on 3", r)
	}
	s = newPlay(t, 2, map[string]any{"strike_limit": 1})
	evs := play(t, s, "0:declare cart", "0:place A1 across", "1:place A1 across",
		"1:declare tar", "0:place D1 down", "1:cannot")
	wantEnd := EndEvent{End: game.End{Reason: EndStrikes, Seat: 1, Against: -1, Word: "TAR", Winners: []game.Seat{0}, Scores: []int{3, 0}}, Cannot: []game.Seat{1}}
	if e := evs[len(evs)-1]; e.Kind != "end" || !reflect.DeepEqual(e.Data, wantEnd) {
		t.Errorf("end event %+v, want %+v", e, wantEnd)
	}
	if d, ok := evs[len(evs)-2].Data.(WordDoneEvent); !ok || d.Added != 1 || d.Strikes != 1 || d.Limit != 1 {
		t.Errorf("word_done event %+v", evs[len(evs)-2])
	}
	r = s.Result()
	if !slices.Equal(r.Winners, []game.Seat{0}) || !slices.Equal(r.Scores, []int{3, 0}) {
		t.Errorf("result %+v, want Ann wins 3-0", r)
	}
	refuse(t, s, 0, "declare cat", "the game is over")
	refuse(t, s, 1, "resign", "the game is over")
}

func TestResign(t *testing.T) {
	s := newPlay(t, 2, nil)
	play(t, s, "0:declare cart", "0:place A1 across")
	evs := play(t, s, "1:resign")
	r := s.Result()
	if r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{0}) || evs[len(evs)-1].Kind != "end" {
		t.Errorf("after a resignation: %+v, %v", r, evs)
	}
	if e, ok := evs[len(evs)-1].Data.(EndEvent); !ok || e.Reason != EndResign || e.Seat != 1 || e.Word != "" {
		t.Errorf("end data after a resignation: %+v", evs[len(evs)-1].Data)
	}

	// With three, the others play on; a resignation may complete a word
	// and pass the declaration on.
	s = newPlay(t, 3, nil)
	play(t, s, "0:declare cart", "0:place A1 across", "1:place A1 across", "2:resign")
	if v := s.SeatView(0); v.Current != "" || v.Declarer != 1 {
		t.Errorf("Cat's resignation did not close CART: %+v", v)
	}
	refuse(t, s, 2, "resign", "already resigned")
	refuse(t, s, 2, "cannot", "not your turn")
	play(t, s, "1:resign")
	if r := s.Result(); r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{0}) {
		t.Errorf("last player standing: %+v", r)
	}
	// A declarer who resigns passes the declaration on.
	s = newPlay(t, 3, nil)
	play(t, s, "0:resign")
	if got := s.ToMove(); !slices.Equal(got, []game.Seat{1}) {
		t.Errorf("after the declarer resigns ToMove = %v, want [1]", got)
	}
	play(t, s, "1:declare cart")
	if got := s.ToMove(); !slices.Equal(got, []game.Seat{1, 2}) {
		t.Errorf("ToMove = %v, want [1 2]: a resigned player answers nothing", got)
	}
}

func TestSecrecy(t *testing.T) {
	s := newPlay(t, 3, nil)
	evs := play(t, s, "0:declare cart", "1:place C3 down")
	for _, e := range evs {
		if _, secret := e.Data.(PlacedEvent); secret && !slices.Equal(e.To, []game.Seat{1}) {
			t.Errorf("placement event shown to %v: %+v", e.To, e)
		}
	}
	for _, seat := range []game.Seat{0, 2, game.Spectator} {
		b, _ := json.Marshal(s.SeatView(seat))
		if strings.Contains(string(b), "C3") || strings.Contains(string(b), `"mine"`) {
			t.Errorf("seat %d sees Ben's placement: %s", seat, b)
		}
	}
	v := s.SeatView(1)
	if v.List[0].Mine == nil || v.List[0].Mine.Move != "place C3 down" || !slices.Equal(v.Answered, []bool{false, true, false}) {
		t.Errorf("Ben's own view: %+v", v)
	}
	play(t, s, "0:place A1 across", "2:cannot",
		"1:declare tar", "0:place D1 down", "1:place C6 across", "2:place A1 across")
	v = s.SeatView(0)
	if v.Score != 3 || v.Scores != nil || v.Grids != nil || v.Audit != nil || v.List[1].Answers != nil {
		t.Errorf("mid-game view reveals too much: %+v", v)
	}
	if !slices.Equal(v.List[0].Cannot, []game.Seat{2}) || v.List[0].Strikes != 1 {
		t.Errorf("who could not place CART is public once it is done: %+v", v.List[0])
	}
	if sv := s.SeatView(game.Spectator); sv.Grid != nil || sv.Score != 0 {
		t.Errorf("spectator sees a grid or score: %+v", sv)
	}
	// The end reveals everything to everybody.
	play(t, s, "2:declare zoo", "0:cannot", "1:cannot", "2:cannot", "0:declare zoo", "0:cannot", "1:cannot", "2:cannot")
	for _, seat := range []game.Seat{0, 1, 2, game.Spectator} {
		v := s.SeatView(seat)
		if v.Status != game.Finished || len(v.Grids) != 3 || len(v.Scores) != 3 || len(v.Audit) != 3 || len(v.List[0].Answers) != 3 {
			t.Errorf("final view for %d hides something: %+v", seat, v)
		}
		if v.List[0].Answers[1].Move != "place C3 down" {
			t.Errorf("final view for %d: Ben's first answer %+v", seat, v.List[0].Answers[1])
		}
	}
}

func TestAudit(t *testing.T) {
	s := newPlay(t, 2, map[string]any{"strike_limit": 2, "width": 8, "height": 8})
	// Ben says cannot to TAR though D1 down was open to him.
	play(t, s, "0:declare cart", "0:place A1 across", "1:place A1 across",
		"1:declare tar", "0:place D1 down", "1:cannot",
		"0:declare zoo", "0:cannot", "1:cannot")
	v := s.SeatView(0)
	if v.Status != game.Finished {
		t.Fatal("not over")
	}
	a := v.Audit
	if !a[0].Confirmed || a[0].Points != 3 || a[0].Missed != 0 {
		t.Errorf("Ann's audit: %+v", a[0])
	}
	if !a[1].Confirmed || a[1].Points != 0 || a[1].Missed != 1 || a[1].Lines[1].Possible == "" {
		t.Errorf("Ben's audit: %+v", a[1])
	}
	if a[1].Lines[2].Possible != "" {
		t.Errorf("ZOO had no placement for Ben, audit says %q", a[1].Lines[2].Possible)
	}
	// The audit flags a score that does not add up and a placement that
	// breaks the rules.
	list := s.entries(true)
	list[1].Answers[0].Move = "place A5 across"
	got := Audit(s.Board(), true, testLex(), list, []int{3, 0})
	if got[0].Confirmed || got[0].Lines[1].Problem == "" {
		t.Errorf("a bad placement passed the audit: %+v", got[0])
	}
}

func TestHiddenMove(t *testing.T) {
	for _, c := range []struct {
		move   string
		hidden bool
	}{{"place B2 across", true}, {"CANNOT", true}, {"declare cart", false}, {"resign", false}} {
		if _, h := (Game{}).HiddenMove(0, 1, c.move); h != c.hidden {
			t.Errorf("HiddenMove(%q) = %v", c.move, h)
		}
	}
}
