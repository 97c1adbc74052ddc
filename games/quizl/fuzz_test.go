package quizl

import (
	"bytes"
	"testing"

	"parlour/game"
)

// FuzzMove applies arbitrary text as a move at a mid-game position of a
// two- and a three-player game: a refused move must leave the state
// exactly as it was; an accepted one must be replayable from its canonical
// notation.
func FuzzMove(f *testing.F) {
	for _, s := range []string{"72", " 50 ", "94", "45", "50x", "A1", "say crane", "SAY Ben CRANE",
		"say psalm", "say sheep", "say", "say Cat", "resign", "RESIGN ", "", "7\x002", "say \xff\xfe", "say Ann Ben crane",
		"say 1 crane", "say 2 blimp", "say b crane", "say CA blimp", "say 9 crane", "say -1 crane", "say a psalm"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, mv string) {
		for _, st := range []*State{two(t, nil), three(t, map[string]any{OptAward: 3})} {
			play(t, st, "0:72", "1:say Ann waves")
			seat := st.ToMove()[0]
			before := st.clone()
			evs, err := st.Apply(seat, mv)
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error")
				}
				unchanged(t, before, st, "refused move "+mv)
				continue
			}
			if len(evs) == 0 {
				t.Fatalf("move %q accepted with no events", mv)
			}
			// Normalize writes the move as it was played.
			if n, err := before.Normalize(seat, mv); err != nil || n != st.notationOf(st.history[len(st.history)-1]) {
				t.Fatalf("%q normalizes to %q, %v; played as %q", mv, n, err, st.notationOf(st.history[len(st.history)-1]))
			}
			// The canonical notation replays to the same state.
			again := before.clone()
			if _, err := again.Apply(seat, st.notationOf(st.history[len(st.history)-1])); err != nil {
				t.Fatalf("canonical %q of %q refused: %v", st.notationOf(st.history[len(st.history)-1]), mv, err)
			}
			unchanged(t, st, again, "canonical notation")
			// Refusing a seat that is not to move changes nothing.
			other := game.Seat((int(seat) + 1) % st.n)
			if len(st.ToMove()) > 0 && st.ToMove()[0] != other {
				b := st.clone()
				if _, err := st.Apply(other, mv); err == nil {
					t.Fatalf("seat %d moved out of turn", other)
				}
				unchanged(t, b, st, "move out of turn")
			}
		}
	})
}

// FuzzSetup checks arbitrary setups: no panic, and an accepted grid is
// legal and canonical (checking it again gives the same bytes).
func FuzzSetup(f *testing.F) {
	for _, s := range []string{
		`{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM"}`,
		`{"grid": ["tqufp", "wzves", "ogbra", "chinl", "kyxdm"], "password": "psalm"}`,
		`{"grid": ["BLIMP", "DFGHJ", "KOQST", "UVWXY", "CRANE"], "password": "CRANE"}`,
		`{"grid": ["TQUFP", "WZVEQ", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM"}`,
		`{"grid": ["TQUFP"], "password": "PSALM"}`,
		`{"grid": null, "password": 5}`,
		`{}`, `[]`, `null`, ``, `{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM", "x": 1}`,
	} {
		f.Add([]byte(s))
	}
	cfg := game.Config{Players: []string{"Ann", "Ben"}, Lexicon: testLex()}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := Game{}.CheckSetup(cfg, 0, raw)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		again, err := Game{}.CheckSetup(cfg, 0, got)
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("canonical setup %s rechecks as %s, %v", got, again, err)
		}
		g, err := ParseSetup(got, cfg.Lexicon)
		if err != nil {
			t.Fatal(err)
		}
		if g.Read(g.Line) != g.Password || g.Missing() == 0 {
			t.Fatalf("accepted grid %v is not legal", g.Rows())
		}
	})
}
