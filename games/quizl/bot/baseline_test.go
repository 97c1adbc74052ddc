package bot

import (
	"math"
	"math/bits"
	"testing"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

// TestBaselinesSolve plays both baselines against random grids: each must
// find every password, never trip over one, and need fewer calls than
// calling squares in order would.
func TestBaselinesSolve(t *testing.T) {
	lex := lexicon.Default()
	line, err := NewLineSolver(1, lex)
	if err != nil {
		t.Fatal(err)
	}
	info, err := NewInfoSolver(2, lex)
	if err != nil {
		t.Fatal(err)
	}
	bayes, err := NewBayesSolver(3, lex)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []player{line, info, bayes} {
		total := 0
		const games = 6
		for i := range uint64(games) {
			g, err := quizl.RandomSetup(lex, 100+i)
			if err != nil {
				t.Fatal(err)
			}
			p, err := playGame(t.Context(), []player{s}, []*quizl.Grid{g}, 7+i, lex, nil)
			if err != nil {
				t.Fatalf("%s: %v", s.label(), err)
			}
			if !p.right {
				t.Errorf("%s: did not find %s", s.label(), g.Password)
			}
			total += p.calls
		}
		if mean := float64(total) / games; mean > 14 {
			t.Errorf("%s: %.1f calls a game, want well under 25", s.label(), mean)
		}
	}
}

// TestBaselinesRefuse checks that the baselines refuse a view that is not
// a Quizl view or not their turn, and need a lexicon.
func TestBaselinesRefuse(t *testing.T) {
	lex := lexicon.Default()
	line, _ := NewLineSolver(1, lex)
	info, _ := NewInfoSolver(1, lex)
	cfg := game.Config{Players: []string{"solver"}, Rules: game.Defaults(quizl.Game{}.Options()), Lexicon: lex}
	for _, s := range []player{line, info} {
		if _, err := s.Move(t.Context(), cfg, 0, 42); err == nil {
			t.Errorf("%s: took an int for a view", s.label())
		}
		if _, err := s.Move(t.Context(), cfg, 0, quizl.View{Seat: 0, ToMove: 1}); err == nil {
			t.Errorf("%s: moved out of turn", s.label())
		}
	}
	if _, err := NewLineSolver(1, nil); err == nil {
		t.Error("a line solver without a lexicon")
	}
	if _, err := NewInfoSolver(1, nil); err == nil {
		t.Error("an information solver without a lexicon")
	}
	if _, err := panelist("oracle", 1, lex); err == nil {
		t.Error("a panel took a solver nobody wrote")
	}
}

// TestInformationSums checks the information a call yields, as the line
// sums give it, against the sum over every hypothesis written out, on
// boards with some squares seen.
func TestInformationSums(t *testing.T) {
	lex := lexicon.Default()
	info, err := NewInfoSolver(1, lex)
	if err != nil {
		t.Fatal(err)
	}
	g, err := quizl.RandomGrid("crane", lex, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, shown := range [][]quizl.Square{nil, {0, 12}, {3, 7, 11, 20}} {
		bd := quizl.Board{Grid: []string{".....", ".....", ".....", ".....", "....."}}
		for _, sq := range shown {
			row := []byte(bd.Grid[sq.Row()-5])
			row[sq.Col()] = g.Letters[sq]
			bd.Grid[sq.Row()-5] = string(row)
		}
		h := info.believe(&bd)
		for sq := range quizl.Square(quizl.Squares) {
			if h.known[sq] >= 0 {
				continue
			}
			got, want := h.information(sq), naiveInformation(h, sq)
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("seen %v, square %s: information %.12f, written out %.12f", shown, sq, got, want)
			}
		}
	}
}

func naiveInformation(h *belief, sq quizl.Square) float64 {
	r, c := quizl.RowOf(sq), quizl.ColOf(sq)
	var px [26]float64
	var condH float64
	unseen := 26 - bits.OnesCount32(h.seen)
	for _, x := range h.hyps {
		switch x.l {
		case r:
			px[x.w.letter[sq.Col()]] += x.p
		case c:
			px[x.w.letter[sq.Row()-5]] += x.p
		default:
			n := unseen - bits.OnesCount32(x.w.set&^h.seen)
			if n <= 0 {
				continue
			}
			for y := range 26 {
				if h.seen&(1<<y) == 0 && x.w.set&(1<<y) == 0 {
					px[y] += x.p / float64(n)
				}
			}
			condH += x.p * math.Log(float64(n))
		}
	}
	var hx float64
	for _, p := range px {
		if p > 1e-15 {
			hx -= p * math.Log(p)
		}
	}
	return hx - condH
}
