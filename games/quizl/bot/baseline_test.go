package bot

import (
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
	for _, s := range []player{line, info} {
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
