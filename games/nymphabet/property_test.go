package nymphabet

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

// randomLex makes a house lexicon of random letter strings, a few per run
// length and starting letter, so that random games reach every rule: long
// runs, wraps, runs cut short by deleted letters.
func randomLex(seed uint64) *lexicon.Lexicon {
	r := rand.New(rand.NewPCG(seed, 1))
	var words []string
	for c := range Letters {
		for k := 0; k < 12; k++ {
			n := 2 + r.IntN(10)
			b := []byte{byte('a' + c)}
			for len(b) < n {
				b = append(b, byte('a'+r.IntN(Letters)))
			}
			words = append(words, string(b))
		}
		// runs of 1 to 6 letters, wrapping past Z
		for n := 1; n <= 6; n++ {
			b := make([]byte, 0, 2*n)
			for i := range n {
				b = append(b, byte('a'+(c+i)%Letters), 'e')
			}
			words = append(words, string(b))
		}
	}
	words = append(words, "resign")
	return lexicon.FromWords("random", words)
}

// byFirst buckets a lexicon's words by their first letter.
func byFirst(lex *lexicon.Lexicon) [Letters][]string {
	var b [Letters][]string
	for w := range lex.ByCommonness() {
		if w != Resign {
			b[w[0]-'a'] = append(b[w[0]-'a'], w)
		}
	}
	return b
}

// randomRecord plays a random legal game with random rule options and
// returns its record and final state.
func randomRecord(t testing.TB, r *rand.Rand, lex *lexicon.Lexicon, words [Letters][]string) (*game.Record, game.State) {
	modes := []Mode{Standard, Cyclic, Scoring}
	rules := map[string]json.RawMessage{}
	if k := r.IntN(4); k < 3 {
		rules[OptMode] = json.RawMessage(strconv.Quote(string(modes[k])))
	}
	if r.IntN(2) == 0 {
		rules[OptNoRepeats] = json.RawMessage(strconv.FormatBool(r.IntN(2) == 0))
	}
	rec := &game.Record{Parlour: 1, Game: "nymphabet", Rules: rules, Lexicon: lex.Name(), Players: []string{"Ann", "Ben"}}
	resolved, err := game.Resolve(Game{}.Options(), rules)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Game{}.New(game.Config{Players: rec.Players, Rules: resolved, Lexicon: lex}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for len(st.ToMove()) > 0 {
		seat := st.ToMove()[0]
		v := st.View(seat).(*View)
		var move string
		switch {
		case r.IntN(200) == 0:
			move = "resign"
		case v.Current == "":
			move = pick(r, words[r.IntN(Letters)])
		default:
			move = pick(r, words[v.Current[0]-'A'])
		}
		if r.IntN(3) == 0 {
			move = " " + upper(move) + " "
		}
		if _, err := st.Apply(seat, move); err != nil {
			t.Fatalf("random legal move %q refused: %v", move, err)
		}
		rec.Moves = append(rec.Moves, game.Move{By: rec.Players[seat], Move: move})
	}
	return rec, st
}

func pick(r *rand.Rand, ws []string) string { return ws[r.IntN(len(ws))] }

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// TestRandomGamesReplay plays thousands of random legal games, half with a
// house lexicon of made-up words that reach every rule and half with the
// English lexicon, and replays each from its record.
func TestRandomGamesReplay(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	for _, lex := range []*lexicon.Lexicon{randomLex(7), lexicon.Default()} {
		t.Run(lex.Name(), func(t *testing.T) { randomGamesReplay(t, lex, n) })
	}
}

func randomGamesReplay(t *testing.T, lex *lexicon.Lexicon, n int) {
	words := byFirst(lex)
	reg := game.NewRegistry(Game{})
	r := rand.New(rand.NewPCG(42, uint64(lex.Len())))
	finished := map[Mode]int{}
	for i := range n {
		rec, st := randomRecord(t, r, lex, words)
		res := st.Result()
		if res.Status != game.Finished {
			t.Fatalf("game %d did not finish: %+v", i, res)
		}
		checkInvariants(t, st)
		finished[st.View(0).(*View).Mode]++

		// Through the record's JSON, as a file would carry it.
		var buf jsonBuffer
		if err := rec.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := game.DecodeBytes(buf.b)
		if err != nil {
			t.Fatalf("game %d: decoding its record: %v", i, err)
		}
		_, st2, steps, err := game.Replay(reg, back, lex)
		if err != nil {
			t.Fatalf("game %d: replay: %v\n%s", i, err, buf.b)
		}
		if len(steps) != len(rec.Moves) {
			t.Fatalf("game %d: replayed %d moves of %d", i, len(steps), len(rec.Moves))
		}
		if got := st2.Result(); !reflect.DeepEqual(got, res) {
			t.Fatalf("game %d: replayed result %+v, played %+v", i, got, res)
		}
		if !reflect.DeepEqual(st2.View(0), st.View(0)) {
			t.Fatalf("game %d: replayed view differs", i)
		}
	}
	for _, m := range []Mode{Standard, Cyclic, Scoring} {
		if finished[m] == 0 {
			t.Errorf("no random game in mode %s", m)
		}
	}
}

// checkInvariants checks what must hold at the end of every game.
func checkInvariants(t testing.TB, st game.State) {
	t.Helper()
	v := st.View(0).(*View)
	res := st.Result()
	deleted := 0
	for _, l := range v.Alphabet {
		if l.Deleted {
			deleted++
		}
	}
	if deleted+v.Left != Letters || v.Players[0].Letters+v.Players[1].Letters != deleted {
		t.Fatalf("letters do not add up: %+v", v)
	}
	if len(res.Winners) > 1 {
		t.Fatalf("winners %v", res.Winners)
	}
	if v.Left > 0 && len(res.Winners) != 1 {
		t.Fatalf("a game ended early without one winner: %+v", res)
	}
	if len(res.Winners) == 0 && (v.Mode != Scoring || res.Scores[0] != res.Scores[1]) {
		t.Fatalf("a draw that is not an equal score: %+v", res)
	}
}

type jsonBuffer struct{ b []byte }

func (j *jsonBuffer) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }

// FuzzApply feeds arbitrary moves to a game in progress and checks that a
// refused move changes nothing and an accepted one was a word of the
// lexicon beginning with the current letter, or a resignation.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"restaurant", "RESTAURANT", " resign ", "pique", "", "r", "re-st", "réstaurant", "restaurant restaurant", "\x00", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(1))
	}
	lex := testLex()
	f.Fuzz(func(t *testing.T, move string, m uint8) {
		mode := []string{`"standard"`, `"cyclic"`, `"scoring"`}[m%3]
		st := start(t, lex, map[string]string{"mode": mode})
		play(t, st, "aback", "defying", "hijack", "lamination", "pique")
		before, _ := json.Marshal(st.View(1))
		res := st.Result()
		evs, err := st.Apply(1, move)
		after, _ := json.Marshal(st.View(1))
		if err != nil {
			if string(before) != string(after) || !reflect.DeepEqual(res, st.Result()) || evs != nil {
				t.Fatalf("refused %q changed the game", move)
			}
			return
		}
		if len(evs) == 0 || string(before) == string(after) {
			t.Fatalf("accepted %q but nothing happened", move)
		}
	})
}
