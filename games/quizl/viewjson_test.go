package quizl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

// TestViewAppendJSON holds View.AppendJSON to json.Marshal's bytes, for
// every seat and a spectator after every move of random games of one to
// four players (solitaire included), and for names that need escaping.
func TestViewAppendJSON(t *testing.T) {
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
	afterEveryMove(t, 60, func(st *State, seed uint64, n int) {
		check(t, st, fmt.Sprintf("seed %d after %d moves", seed, n))
	})
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

// TestViewLogGrows holds a view's log (its moves) to what TailAppender
// promises, for every seat and a spectator after every move of random
// games: the entries of the view before the move are the first entries
// of the view after it, unchanged, and the view encoded with only its new
// entries (AppendJSONTail), put back behind the old ones, is the view
// encoded whole.
func TestViewLogGrows(t *testing.T) {
	var _ game.TailAppender = View{}
	decode := func(t *testing.T, b []byte) map[string]any {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%v in %s", err, b)
		}
		return m
	}
	var prev []View // the views after the move before
	afterEveryMove(t, 40, func(st *State, seed uint64, n int) {
		views := make([]View, 0, st.n+1)
		for c := -1; c < st.n; c++ {
			v := st.ViewOf(game.Seat(c))
			views = append(views, v)
			if n == 0 {
				continue
			}
			old := prev[c+1]
			if v.LogLen() < old.LogLen() || !reflect.DeepEqual(v.Moves[:old.LogLen()], old.Moves) {
				t.Fatalf("seed %d, move %d, seat %d: the log changed:\n was %v\n now %v", seed, n, c, old.Moves, v.Moves)
			}
			whole := decode(t, v.AppendJSON(nil))
			tail := decode(t, v.AppendJSONTail(nil, old.LogLen()))
			oldMoves, _ := decode(t, old.AppendJSON(nil))[v.LogName()].([]any)
			newMoves, _ := tail[v.LogName()].([]any)
			tail[v.LogName()] = append(oldMoves, newMoves...)
			if len(tail[v.LogName()].([]any)) == 0 {
				tail[v.LogName()] = whole[v.LogName()] // null or []: the same to a client
			}
			if !reflect.DeepEqual(tail, whole) {
				t.Fatalf("seed %d, move %d, seat %d: the tail from %d put back:\n got %v\nwant %v", seed, n, c, old.LogLen(), tail, whole)
			}
		}
		prev = views
	})
}

// TestEventsAppendJSON holds game.AppendJSONEvents, through the data's
// own AppendJSON, to json.Marshal's bytes for the events of every move of
// random games and of a few played by hand (wrong announcements with an
// award and a penalty, a trip, a resignation).
func TestEventsAppendJSON(t *testing.T) {
	lex := lexicon.Default()
	reg := game.NewRegistry(Game{})
	kinds := map[string]int{}
	check := func(evs []game.Event, what string) {
		t.Helper()
		want, err := json.Marshal(evs)
		if err != nil {
			t.Fatal(err)
		}
		got, err := game.AppendJSONEvents(nil, evs)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: %v\n got %s\nwant %s", what, err, got, want)
		}
		for _, e := range evs {
			kinds[e.Kind]++
		}
	}
	for seed := range uint64(60) {
		rec, _ := randomRecord(t, lex, seed)
		_, _, steps, err := game.Replay(reg, rec, lex)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range steps {
			check(s.Events, fmt.Sprintf("seed %d, move %d", seed, i))
		}
	}
	s := three(t, map[string]any{OptAward: 10})
	for _, mv := range []string{"0:72", "1:72", "2:60", "0:say Ben waves", "1:81", "2:say Ann ghost", "0:73", "1:resign"} {
		var seat int
		fmt.Sscanf(mv, "%d:", &seat)
		evs, err := s.Apply(game.Seat(seat), mv[2:])
		if err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
		check(evs, mv)
	}
	for _, k := range []string{"call", "revealed", "announce", "resign", "end"} {
		if kinds[k] == 0 {
			t.Errorf("no %q event was checked (checked: %v)", k, kinds)
		}
	}
}

// TestAppendViewTail holds State.AppendViewTail to the bytes of the view
// built whole and encoded from the same entry on, for every seat and a
// spectator after every move of random games and for tails from before
// the start to past the end.
func TestAppendViewTail(t *testing.T) {
	var _ game.TailViewer = (*State)(nil)
	afterEveryMove(t, 30, func(st *State, seed uint64, n int) {
		for c := -1; c < st.n; c++ {
			v := st.ViewOf(game.Seat(c))
			l := v.LogLen()
			for _, from := range []int{-1, 0, l / 2, l - 1, l, l + 3} {
				want := v.AppendJSONTail([]byte("x"), from)
				got, ln := st.AppendViewTail([]byte("x"), game.Seat(c), from)
				if !bytes.Equal(got, want) || ln != l {
					t.Fatalf("seed %d, move %d, seat %d, from %d: log of %d, want %d\n got %s\nwant %s", seed, n, c, from, ln, l, got, want)
				}
			}
		}
	})
}

// afterEveryMove calls f with the state of each of games random games
// (seeds 0 to games-1) after each of its moves, and before the first.
func afterEveryMove(t *testing.T, games uint64, f func(st *State, seed uint64, n int)) {
	t.Helper()
	lex := lexicon.Default()
	reg := game.NewRegistry(Game{})
	for seed := range games {
		rec, _ := randomRecord(t, lex, seed)
		for n := 0; n <= len(rec.Moves); n++ {
			part := *rec
			part.Moves = rec.Moves[:n]
			_, gs, _, err := game.Replay(reg, &part, lex)
			if err != nil {
				t.Fatal(err)
			}
			f(gs.(*State), seed, n)
		}
	}
}
