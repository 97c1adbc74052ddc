package wordfight

import (
	"encoding/json"
	"strings"
	"testing"

	"parlour/game"
)

// midGame returns a three-player play with two words down and a third
// waiting for answers.
func midGame(t testing.TB) *State {
	s := newPlay(t, 3, map[string]any{"width": 8, "height": 8})
	play(t, s, "0:declare cart", "0:place A1 across", "1:place B2 down", "2:place H1 down",
		"1:declare tar", "0:place D1 down", "1:place B5 across",
		"2:cannot", "2:declare cast", "1:place B2 across")
	return s
}

// FuzzApply feeds arbitrary moves, from every seat and a spectator, to a
// game in progress: no panic, and a refused move changes nothing.
func FuzzApply(f *testing.F) {
	for _, m := range []string{
		"place A1 down", "place a3 across", "cannot", "resign", "declare cart",
		"place B2 across", "PLACE  C1   DOWN", "place AD30 down", "place A0 down",
		"place A1", "place", "declare", "declare x", "place Ä1 down", "place 1A down",
		"place A99999999999999999999 down", "\x00", "cannot cannot",
	} {
		f.Add(uint8(0), m)
		f.Add(uint8(2), m)
	}
	f.Fuzz(func(t *testing.T, seat uint8, move string) {
		s := midGame(t)
		before := snapshot(s)
		st := game.Seat(int(seat%5) - 1)
		if _, err := s.Apply(st, move); err != nil {
			if err.Error() == "" {
				t.Errorf("%q: empty error", move)
			}
			if snapshot(s) != before {
				t.Errorf("refused %q by %d changed the state", move, st)
			}
			return
		}
		// An accepted move is one of the notation's verbs.
		verb := strings.ToLower(strings.Fields(move)[0])
		switch verb {
		case "place", "cannot", "resign", "declare":
		default:
			t.Errorf("%q accepted", move)
		}
		_ = s.SeatView(st)
	})
}

// FuzzShape feeds arbitrary shape masks to the shape option and to a
// board: the option accepts exactly the shapes that parse and make a board
// of their own size that holds a word, and with a width and height to
// match, the options as a whole are accepted too.
func FuzzShape(f *testing.F) {
	for _, s := range []string{
		"", ".....", "...../...../...../...../.....", "#..../.#.../..#../...#./....#",
		"..... / ..... /...../...../.....", "#####/#####/#####/#####/#####",
		"#.#.#/.#.#./#.#.#/.#.#./#.#.#", "#####/#####/##..#/#####/#####",
		"...../...../..x../...../.....", "/////", strings.Repeat(".", 30),
	} {
		f.Add(s)
	}
	opts := Game{}.Options()
	f.Fuzz(func(t *testing.T, shape string) {
		_, err := game.ResolveValues(opts, map[string]any{"shape": shape})
		if strings.TrimSpace(shape) == "" {
			if err != nil {
				t.Fatalf("%q: no shape refused: %v", shape, err)
			}
			return
		}
		rows, perr := ParseShape(shape)
		if perr != nil {
			if err == nil {
				t.Fatalf("%q: option accepted what ParseShape refuses: %v", shape, perr)
			}
			return
		}
		b, berr := NewBoard(len(rows[0]), len(rows), shape)
		if (err == nil) != (berr == nil) {
			t.Fatalf("%q: option says %v, NewBoard says %v", shape, err, berr)
		}
		if berr != nil {
			return // no word fits
		}
		if b.Longest() < 2 {
			t.Fatalf("%q: a board whose longest run is %d", shape, b.Longest())
		}
		if b.Shape() != strings.ReplaceAll(strings.ReplaceAll(shape, " ", ""), "\t", "") && !strings.ContainsAny(shape, " \t\r\n\v\f\u0085\u00a0") {
			t.Errorf("%q: board shape %q", shape, b.Shape())
		}
		c, err := ParseShape(b.Shape())
		if err != nil || len(c) != len(rows) {
			t.Errorf("%q: the board's shape %q does not parse back: %v", shape, b.Shape(), err)
		}
		raw := map[string]json.RawMessage{
			"shape": mustJSON(t, shape), "width": mustJSON(t, len(rows[0])), "height": mustJSON(t, len(rows)),
		}
		if _, err := game.ResolveFor(Game{}, raw); err != nil {
			t.Errorf("%q: options with the shape's own size refused: %v", shape, err)
		}
	})
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
