package quizl

import (
	"encoding/json"
	"reflect"
	"testing"

	"parlour/game"
	"parlour/game/gametest"
	"parlour/lexicon"
)

// testWords is a small lexicon for tests that need no real English.
var testWords = []string{
	"psalm", "crane", "blimp", "waves", "audio", "ghost", "jumpy", "vixen",
	"wharf", "plumb", "frock", "dwarf", "glyph", "nymph", "quick", "brown",
	"zebra", "mouse", "stare", "tears", "rates", "aster", "apple", "sheep",
	"chin", "fern", "two", "bra", "light", "fjord", "bumpy", "waltz",
	"usage",
}

func testLex() *lexicon.Lexicon { return lexicon.FromWords("test", testWords) }

// Grids used across the tests.
var (
	specimen = []string{"TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"} // PSALM in column 4
	craneRow = []string{"CRANE", "BDFGH", "IJKLM", "OPQST", "UVWXY"} // CRANE in row 5
	blimpCol = []string{"ACBDE", "FGLHJ", "KNIOQ", "RSMTU", "VWPXY"} // BLIMP in column 2
)

func setupJSON(t testing.TB, rows []string, pw string) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(Setup{Grid: rows, Password: pw})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type seatGrid struct {
	rows []string
	pw   string
}

// table starts a play with the given players' grids and rule options.
func table(t testing.TB, opts map[string]any, names []string, grids ...seatGrid) *State {
	t.Helper()
	rules, err := game.ResolveValues(Game{}.Options(), opts)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Players: names, Rules: rules, Lexicon: testLex()}
	var setups []json.RawMessage
	for i, g := range grids {
		raw, err := Game{}.CheckSetup(cfg, game.Seat(i), setupJSON(t, g.rows, g.pw))
		if err != nil {
			t.Fatal(err)
		}
		setups = append(setups, raw)
	}
	st, err := Game{}.New(cfg, setups)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

func two(t testing.TB, opts map[string]any) *State {
	return table(t, opts, []string{"Ann", "Ben"}, seatGrid{specimen, "PSALM"}, seatGrid{craneRow, "CRANE"})
}

func three(t testing.TB, opts map[string]any) *State {
	return table(t, opts, []string{"Ann", "Ben", "Cat"}, seatGrid{specimen, "PSALM"}, seatGrid{craneRow, "CRANE"}, seatGrid{blimpCol, "BLIMP"})
}

// play applies moves "seat:move" in order, failing on any refusal.
func play(t testing.TB, s *State, moves ...string) []game.Event {
	t.Helper()
	return gametest.Play(t, s, moves...)
}

// clone returns a deep copy of s, for checking that refusals change
// nothing.
func (s *State) clone() *State {
	c := *s
	c.pairs = append([]pair(nil), s.pairs...)
	for i := range c.pairs {
		c.pairs[i].wrong = append([]string(nil), s.pairs[i].wrong...)
	}
	c.seats = append([]seatState(nil), s.seats...)
	c.resign = append([]bool(nil), s.resign...)
	c.history = append([]played(nil), s.history...)
	c.anns = append([]announcement(nil), s.anns...)
	return &c
}

// unchanged fails t unless s equals before in every field.
func unchanged(t testing.TB, before, s *State, what string) {
	t.Helper()
	if !reflect.DeepEqual(before, s) {
		t.Fatalf("%s changed the state", what)
	}
}
