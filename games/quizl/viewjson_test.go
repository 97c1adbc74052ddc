package quizl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

// TestViewAppendJSON holds View.AppendJSON to json.Marshal's bytes, for
// every seat and a spectator after every move of random games of one to
// four players (solitaire included), and for names that need escaping.
func TestViewAppendJSON(t *testing.T) {
	lex := lexicon.Default()
	reg := game.NewRegistry(Game{})
	check := func(t *testing.T, st *State, what string) {
		t.Helper()
		for c := -1; c < st.n; c++ {
			v := st.ViewOf(game.Seat(c))
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.AppendJSON([]byte("x")); !bytes.Equal(got[1:], want) || got[0] != 'x' {
				t.Fatalf("%s, seat %d:\n got %s\nwant %s", what, c, got, want)
			}
		}
	}
	for seed := range uint64(60) {
		rec, _ := randomRecord(t, lex, seed)
		for n := 0; n <= len(rec.Moves); n++ {
			part := *rec
			part.Moves = rec.Moves[:n]
			_, gs, _, err := game.Replay(reg, &part, lex)
			if err != nil {
				t.Fatal(err)
			}
			check(t, gs.(*State), fmt.Sprintf("seed %d after %d moves", seed, n))
		}
	}
	odd := table(t, nil, []string{"Zoë <b>&", "Ben\u2028\"x\""}, seatGrid{specimen, "PSALM"}, seatGrid{craneRow, "CRANE"})
	check(t, odd, "escaped names")
	play(t, odd, "0:72", "1:72", "0:say PSALM")
	check(t, odd, "escaped names, played")
}

// BenchmarkViewAppendJSON is BenchmarkViewJSON through AppendJSON.
func BenchmarkViewAppendJSON(b *testing.B) {
	s := three(b, map[string]any{OptAward: 10})
	play(b, s, "0:72", "1:72", "2:60", "0:say Ben waves", "1:81", "2:say Ann ghost",
		"0:73", "1:82", "2:70", "0:61", "1:93", "2:say Ben crane", "0:91", "1:90", "2:92", "0:84", "1:62")
	v := s.ViewOf(0)
	b.ReportAllocs()
	buf := make([]byte, 0, 4096)
	for b.Loop() {
		buf = v.AppendJSON(buf[:0])
	}
}

// BenchmarkViewJSON is BenchmarkViewAppendJSON through json.Marshal.
func BenchmarkViewJSON(b *testing.B) {
	s := three(b, map[string]any{OptAward: 10})
	play(b, s, "0:72", "1:72", "2:60", "0:say Ben waves", "1:81", "2:say Ann ghost",
		"0:73", "1:82", "2:70", "0:61", "1:93", "2:say Ben crane", "0:91", "1:90", "2:92", "0:84", "1:62")
	v := s.ViewOf(0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

// TestViewRevealedLetters: every letter a view lists under the viewer's
// calls is the letter on that square of that opponent's grid, after
// every move of random games (the moves' lists share one array).
func TestViewRevealedLetters(t *testing.T) {
	lex := lexicon.Default()
	reg := game.NewRegistry(Game{})
	for seed := range uint64(40) {
		rec, _ := randomRecord(t, lex, seed)
		_, gs, _, err := game.Replay(reg, rec, lex)
		if err != nil {
			t.Fatal(err)
		}
		st := gs.(*State)
		for c := range st.n {
			calls := 0
			for _, m := range st.ViewOf(game.Seat(c)).Moves {
				if len(m.Revealed) == 0 {
					continue
				}
				calls++
				sq, err := ParseSquare(m.Move)
				if err != nil {
					t.Fatalf("seed %d: a move %q with letters: %v", seed, m.Move, err)
				}
				for _, l := range m.Revealed {
					if l.Square != m.Move || l.Letter != string(st.grids[l.Seat].Letters[sq]) {
						t.Fatalf("seed %d, seat %d, call %s: revealed %+v, want %s's letter %c", seed, c, m.Move, l, l.Name, st.grids[l.Seat].Letters[sq])
					}
				}
			}
			if calls == 0 && st.n > 1 {
				t.Logf("seed %d: seat %d revealed nothing", seed, c)
			}
		}
	}
}
