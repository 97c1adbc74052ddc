package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/nymphabet"
	"parlour/games/nymphabet/solve"
	"parlour/lexicon"
)

func TestNew(t *testing.T) {
	lex := lexicon.FromWords("t", []string{"ab"})
	for _, l := range []string{"easy", "medium", "strong", "Strong"} {
		if _, err := New(l, 1, lex); err != nil {
			t.Errorf("New(%q): %v", l, err)
		}
	}
	if _, err := New("grandmaster", 1, lex); err == nil || !strings.Contains(err.Error(), "easy, medium or strong") {
		t.Errorf("New(grandmaster): %v", err)
	}
	if _, err := New("easy", 1, nil); err == nil {
		t.Error("New accepted no lexicon")
	}
}

// TestCompleteGames plays every level against every level in every mode:
// every move must be legal (playGame fails on a refusal), every game must
// end, and the same seed must give the same game.
func TestCompleteGames(t *testing.T) {
	lex := lexicon.Default()
	cache, fresh := newSolvers(), newSolvers()
	seeds := 5
	if testing.Short() {
		seeds = 1
	}
	for _, mode := range allModes() {
		for _, a := range allLevels() {
			for _, b := range allLevels() {
				for seed := range uint64(seeds) {
					lv := [2]string{a, b}
					res, moves, err := playGame(context.Background(), cache, lex, mode, lv, seed, -1, nil)
					if err != nil {
						t.Fatalf("%s %v seed %d: %v", mode, lv, seed, err)
					}
					if res.Status != game.Finished || len(moves) == 0 || len(moves) > nymphabet.Letters {
						t.Fatalf("%s %v seed %d: %+v after %d moves", mode, lv, seed, res, len(moves))
					}
					// Other solvers and fresh players: the same game.
					res2, moves2, err := playGame(context.Background(), fresh, lex, mode, lv, seed, -1, nil)
					if err != nil || !reflect.DeepEqual(res, res2) || !reflect.DeepEqual(moves, moves2) {
						t.Fatalf("%s %v seed %d: not reproducible:\n%v\n%v", mode, lv, seed, moves, moves2)
					}
				}
			}
		}
	}
}

// TestStrongKeepsWonPositions plays the strong player against every level
// from every start, first and second; playGame fails if it ever lets a
// position the solver marks as won slip. It also checks that the strong
// player wins every start the solver marks as won.
func TestStrongKeepsWonPositions(t *testing.T) {
	lexes := []*lexicon.Lexicon{lexicon.Default(), houseLex()}
	seeds := 2
	if testing.Short() {
		lexes, seeds = lexes[:1], 1
	}
	for _, lex := range lexes {
		cache := newSolvers()
		for _, mode := range allModes() {
			s := cache.get(lex, mode)
			for _, other := range allLevels() {
				for seed := range uint64(seeds) {
					starts := []int{-1}
					if mode.Wraps() {
						starts = starts[:0]
						for c := range nymphabet.Letters {
							starts = append(starts, c)
						}
					}
					for _, start := range starts {
						for _, lv := range [][2]string{{game.Strong, other}, {other, game.Strong}} {
							res, moves, err := playGame(context.Background(), cache, lex, mode, lv, seed, start, nil)
							if err != nil {
								t.Fatalf("%s, %s %v from %d: %v", lex.Name(), mode, lv, start, err)
							}
							p := solve.Start(mode)
							if start >= 0 {
								p = solve.Position{Letter: start, Left: nymphabet.Letters, Mover: 1, Other: 1}
							}
							if lv[0] == game.Strong && s.Value(p) == solve.Win && (len(res.Winners) != 1 || res.Winners[0] != 0) {
								t.Errorf("%s, %s %v from %d: strong lost a won start: %v", lex.Name(), mode, lv, start, moves)
							}
						}
					}
				}
			}
		}
	}
}

// houseLex is a small house word list where every letter has words of
// several runs.
func houseLex() *lexicon.Lexicon {
	var words []string
	for c := range nymphabet.Letters {
		for n := 1; n <= 4; n++ {
			if (c+n)%3 == 0 {
				continue
			}
			var b []byte
			for i := range n {
				b = append(b, byte('a'+(c+i)%nymphabet.Letters), 'o')
			}
			words = append(words, string(b))
		}
	}
	return lexicon.FromWords("house", words)
}

func TestMoveReadsEveryViewForm(t *testing.T) {
	lex := lexicon.Default()
	st := newGame(t, lex, nymphabet.Cyclic, false)
	p, err := New(game.Strong, 7, lex)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Lexicon: lex}
	v := st.View(0).(*nymphabet.View)
	raw, _ := json.Marshal(v)
	var moves []string
	for _, view := range []any{v, *v, json.RawMessage(raw), raw} {
		m, err := p.Move(context.Background(), cfg, 0, view)
		if err != nil {
			t.Fatalf("%T: %v", view, err)
		}
		moves = append(moves, m)
	}
	for _, m := range moves[1:] {
		if m != moves[0] {
			t.Errorf("the same view in other forms gave %v", moves)
		}
	}
	for _, bad := range []any{nil, 42, []byte("{"), (*nymphabet.View)(nil)} {
		if _, err := p.Move(context.Background(), cfg, 0, bad); err == nil {
			t.Errorf("Move accepted view %#v", bad)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Move(ctx, cfg, 0, v); err == nil {
		t.Error("Move ignored a cancelled context")
	}
}

func TestStrongWinsFromWonPosition(t *testing.T) {
	// From R in the standard game RESTAURANT (or another word reaching U)
	// wins: V is lost.
	lex := lexicon.Default()
	st := newGame(t, lex, nymphabet.Standard, false)
	for _, w := range []string{"aback", "defying", "hijack", "lamination", "pique"} {
		apply(t, st, w)
	}
	p, _ := New(game.Strong, 1, lex)
	m, err := p.Move(context.Background(), game.Config{Lexicon: lex}, 1, st.View(1))
	if err != nil {
		t.Fatal(err)
	}
	if lexicon.Run(m, false) != 4 {
		t.Errorf("strong played %s from R; a word deleting R to U wins", m)
	}
}

func TestLevelsKnowDifferentWords(t *testing.T) {
	lex := lexicon.Default()
	for _, tc := range []struct {
		level string
		most  int
	}{{game.Easy, 20}, {game.Medium, 35}} {
		p, _ := New(tc.level, 3, lex)
		for seed := range 20 {
			st := newGame(t, lex, nymphabet.Scoring, false)
			p.(*Player).seed = uint64(seed)
			m, err := p.Move(context.Background(), game.Config{Lexicon: lex}, 0, st.View(0))
			if err != nil {
				t.Fatal(err)
			}
			if c, ok := lex.Commonness(m); !ok || c > tc.most {
				t.Errorf("%s played %s (commonness %d)", tc.level, m, c)
			}
		}
	}
}

func TestResignsWithoutAWord(t *testing.T) {
	lex := lexicon.FromWords("abc", []string{"abc"})
	st := newGame(t, lex, nymphabet.Standard, false)
	apply(t, st, "abc")
	p, _ := New(game.Strong, 1, lex)
	m, err := p.Move(context.Background(), game.Config{Lexicon: lex}, 1, st.View(1))
	if err != nil || m != "resign" {
		t.Errorf("no word beginning with D: played %q, %v", m, err)
	}
}

func TestBenchSmall(t *testing.T) {
	ms, err := Bench(context.Background(), 2, 1, lexicon.Default())
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 27 {
		t.Fatalf("%d matchups, want 27", len(ms))
	}
	for _, m := range ms {
		s := m.Summary()
		if s.Games != 2 || len(m.MoveTimes) == 0 {
			t.Errorf("%s: %+v", m.Name, s)
		}
		if strings.Contains(m.Name, "strong first vs easy") && s.Mean != 1 && strings.HasPrefix(m.Name, "standard") {
			t.Errorf("%s: strong lost the won standard game: %+v", m.Name, s)
		}
	}
	if _, err := Bench(context.Background(), 0, 1, lexicon.Default()); err == nil {
		t.Error("Bench accepted 0 games")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Bench(ctx, 1, 1, lexicon.Default()); err == nil {
		t.Error("Bench ignored a cancelled context")
	}
}

func newGame(t *testing.T, lex *lexicon.Lexicon, mode nymphabet.Mode, noRepeats bool) game.State {
	t.Helper()
	g := nymphabet.Game{}
	rules := game.Defaults(g.Options())
	rules[nymphabet.OptMode] = string(mode)
	rules[nymphabet.OptNoRepeats] = noRepeats
	st, err := g.New(game.Config{Players: []string{"Ann", "Ben"}, Rules: rules, Lexicon: lex}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func apply(t *testing.T, st game.State, w string) {
	t.Helper()
	if _, err := st.Apply(st.ToMove()[0], w); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkStrongMove times the strong player's move in the middle of a
// scoring game, its hardest mode.
func BenchmarkStrongMove(b *testing.B) {
	lex := lexicon.Default()
	p, _ := New(game.Strong, 1, lex)
	g := nymphabet.Game{}
	rules := game.Defaults(g.Options())
	rules[nymphabet.OptMode] = string(nymphabet.Scoring)
	st, _ := g.New(game.Config{Players: []string{"Ann", "Ben"}, Rules: rules, Lexicon: lex}, nil)
	for _, w := range []string{"queerest", "uvula"} {
		if _, err := st.Apply(st.ToMove()[0], w); err != nil {
			b.Fatal(err)
		}
	}
	v := st.View(0)
	cfg := game.Config{Lexicon: lex}
	for b.Loop() {
		if _, err := p.Move(context.Background(), cfg, 0, v); err != nil {
			b.Fatal(err)
		}
	}
}

func Example() {
	lex := lexicon.Default()
	g := nymphabet.Game{}
	cfg := game.Config{Players: []string{"Ann", "Computer"}, Rules: game.Defaults(g.Options()), Lexicon: lex}
	st, _ := g.New(cfg, nil)
	st.Apply(0, "aback")
	p, _ := New(game.Strong, 1, lex)
	word, _ := p.Move(context.Background(), cfg, 1, st.View(1))
	fmt.Println(lexicon.Run(word, false) > 0 && word[0] == 'd')
	// Output: true
}
