package solve

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/nymphabet"
	"parlour/lexicon"
)

// smallLex makes a house lexicon with one to three made-up words per
// letter, most of them long runs, so that a brute-force search of the
// whole game tree stays small.
func smallLex(seed uint64) *lexicon.Lexicon {
	r := rand.New(rand.NewPCG(seed, 3))
	var words []string
	for c := range 26 {
		for range 1 + r.IntN(3) {
			n := 2 + r.IntN(5)
			if r.IntN(5) == 0 {
				n = 1
			}
			b := make([]byte, 0, 2*n)
			for i := range n {
				b = append(b, byte('a'+(c+i)%26))
			}
			// a stray letter that may or may not extend the run
			b = append(b, byte('a'+r.IntN(26)))
			words = append(words, string(b))
		}
	}
	return lexicon.FromWords("small", words)
}

// oracle returns the value, for the player to move, of the game reached by
// playing moves, by searching every word of lex through the referee
// itself.
func oracle(t *testing.T, lex *lexicon.Lexicon, mode nymphabet.Mode, moves []string) Value {
	var all []string
	for w := range lex.ByCommonness() {
		all = append(all, w)
	}
	return search(t, lex, all, mode, moves)
}

func search(t *testing.T, lex *lexicon.Lexicon, all []string, mode nymphabet.Mode, moves []string) Value {
	st := replay(t, lex, mode, moves)
	v := st.View(0).(*nymphabet.View)
	best := Loss // no word: the player must resign
	seen := map[string]bool{}
	for _, w := range all {
		if v.Current != "" && w[0] != v.Current[0]-'A'+'a' {
			continue
		}
		// Words deleting as many letters from the same letter lead to the
		// same position: search one of them.
		k := w[:1] + string(rune('a'+mode.Deletes(w, v.Left)))
		if seen[k] {
			continue
		}
		seen[k] = true
		next := append(slices.Clone(moves), w)
		nst := replay(t, lex, mode, next)
		var val Value
		if res := nst.Result(); res.Status == game.Finished {
			mover := game.Seat(len(moves) % 2)
			switch {
			case len(res.Winners) == 0:
				val = Draw
			case res.Winners[0] == mover:
				val = Win
			default:
				val = Loss
			}
		} else {
			val = -search(t, lex, all, mode, next)
		}
		best = max(best, val)
	}
	return best
}

func replay(t *testing.T, lex *lexicon.Lexicon, mode nymphabet.Mode, moves []string) game.State {
	t.Helper()
	g := nymphabet.Game{}
	rules := game.Defaults(g.Options())
	rules[nymphabet.OptMode] = string(mode)
	st, err := g.New(game.Config{Players: []string{"A", "B"}, Rules: rules, Lexicon: lex}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range moves {
		if _, err := st.Apply(game.Seat(i%2), m); err != nil {
			t.Fatalf("%v: %v", moves[:i+1], err)
		}
	}
	return st
}

// TestSolverAgreesWithBruteForce checks the solver's value of every start
// against a search of the whole game tree through the referee.
func TestSolverAgreesWithBruteForce(t *testing.T) {
	lexes := 4
	if testing.Short() {
		lexes = 2
	}
	for seed := range uint64(lexes) {
		lex := smallLex(seed)
		for _, mode := range []nymphabet.Mode{nymphabet.Standard, nymphabet.Cyclic, nymphabet.Scoring} {
			s := New(lex, mode)
			if mode == nymphabet.Standard {
				if got, want := s.Value(Start(mode)), oracle(t, lex, mode, nil); got != want {
					t.Errorf("lexicon %d, %s: start is a %s, brute force says %s", seed, mode, got, want)
				}
				continue
			}
			for c := range 26 {
				// Every start, and every first word from it.
				for _, m := range s.Moves(Position{Letter: c, Left: 26, Mover: 1, Other: 1}) {
					w := Best(m.Words).Text
					if got, want := m.Value, -oracle(t, lex, mode, []string{w}); got != want {
						t.Errorf("lexicon %d, %s: opening %s is a %s, brute force says %s", seed, mode, strings.ToUpper(w), got, want)
					}
				}
			}
			if got, want := s.Value(Start(mode)), oracle(t, lex, mode, nil); got != want {
				t.Errorf("lexicon %d, %s: start is a %s, brute force says %s", seed, mode, got, want)
			}
		}
	}
}

// TestStandardPositions checks every standard position against the tree
// search, reaching each letter by a word of a lexicon that can.
func TestStandardPositions(t *testing.T) {
	// Words that delete one letter each reach every letter in turn.
	var words []string
	for c := range 26 {
		words = append(words, string(rune('a'+c)))
	}
	lex := lexicon.FromWords("steps", append(words, "bcd", "efgh", "ijk", "mnop", "qr", "stuv", "wxy", "xyz"))
	s := New(lex, nymphabet.Standard)
	for c := range 26 {
		moves := words[:c]
		if got, want := s.Value(Position{Letter: c, Left: 26 - c}), oracle(t, lex, nymphabet.Standard, moves); got != want {
			t.Errorf("letter %c: solver %s, brute force %s", 'A'+c, got, want)
		}
	}
}

func TestEnglish(t *testing.T) {
	lex := lexicon.Default()
	std := New(lex, nymphabet.Standard)
	r := std.Report()
	if r.FirstPlayer != Win || len(r.Positions) != 26 || r.Starts != nil {
		t.Fatalf("standard report %+v", r)
	}
	// The source's reasoning: whoever deletes up to U wins, as V is lost;
	// whoever deletes up to P wins, unless a Q-word runs to U.
	for _, l := range []int{'V' - 'A', 'Q' - 'A', 'Z' - 'A'} {
		if e := r.Positions[l]; e.Value != Loss || e.Word != "" {
			t.Errorf("position %s: %+v, want a loss", e.Letter, e)
		}
	}
	if r.QThroughU || r.QThroughUWords != nil {
		t.Errorf("some Q-word deletes Q to U: %v", r.QThroughUWords)
	}
	for _, e := range r.Positions {
		if e.Value == Win {
			// the word given must win: it leads to a lost position or ends the game
			l := int(e.Letter[0] - 'A')
			n := lexicon.Run(e.Word, false)
			if e.Word[0] != byte('a'+l) || l+n >= 26 || r.Positions[l+n].Value != Loss {
				t.Errorf("position %s: %s does not win", e.Letter, e.Word)
			}
		}
	}
	for _, mode := range []nymphabet.Mode{nymphabet.Cyclic, nymphabet.Scoring} {
		r := New(lex, mode).Report()
		if len(r.Starts) != 26 || r.Positions != nil {
			t.Fatalf("%s report %+v", mode, r)
		}
		best := Loss
		for _, e := range r.Starts {
			best = max(best, e.Value)
			if (e.Value == Loss) != (e.Word == "") {
				t.Errorf("%s start %s: %+v", mode, e.Letter, e)
			}
		}
		if best != r.FirstPlayer {
			t.Errorf("%s: first player %s, best start %s", mode, r.FirstPlayer, best)
		}
	}
}

func TestReportJSON(t *testing.T) {
	lex := lexicon.FromWords("tiny", []string{"ab", "cd", "ef", "q"})
	b, err := json.Marshal(New(lex, nymphabet.Cyclic).Report())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["mode"] != "cyclic" || m["first_player"] == nil || m["positions"] != nil || m["q_through_u"] != false {
		t.Errorf("report %s", b)
	}
	starts := m["starts"].([]any)
	a := starts[0].(map[string]any)
	if a["letter"] != "A" || (a["value"] != "win" && a["value"] != "loss") {
		t.Errorf("start A: %v", a)
	}
	if z := starts[25].(map[string]any); z["value"] != "loss" || z["word"] != nil {
		t.Errorf("start Z has no word, so it is lost: %v", z)
	}
}

func TestFromView(t *testing.T) {
	v := &nymphabet.View{Status: "in_progress", ToMove: 1, Current: "R", Left: 9,
		Players: []nymphabet.PlayerView{{Product: 12}, {Product: 8}}}
	p, err := FromView(v, 1)
	if err != nil || p != (Position{Letter: 17, Left: 9, Mover: 8, Other: 12}) {
		t.Errorf("FromView: %+v, %v", p, err)
	}
	v.Status = "finished"
	if _, err := FromView(v, 1); err == nil {
		t.Error("FromView accepted a finished game")
	}
}

func BenchmarkNewDefault(b *testing.B) {
	lex := lexicon.Default()
	for b.Loop() {
		s := New(lex, nymphabet.Scoring)
		s.Value(Start(nymphabet.Scoring))
	}
}

// TestValueText: a value reads back as it is written, and anything else
// is refused.
func TestValueText(t *testing.T) {
	t.Parallel()
	for _, v := range []Value{Win, Draw, Loss} {
		b, err := v.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var got Value = 7
		if err := got.UnmarshalText(b); err != nil || got != v {
			t.Errorf("%q read back as %v, %v; want %v", b, got, err, v)
		}
	}
	for _, bad := range []string{"", "Win", "tie", "1"} {
		var got Value
		if err := got.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("%q read as %v, want an error", bad, got)
		}
	}
}
