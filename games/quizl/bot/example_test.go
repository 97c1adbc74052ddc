package bot_test

import (
	"context"
	"fmt"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/games/quizl/bot"
	"parlour/lexicon"
)

// A solitaire game: the strong grid maker hides a password deceptively and
// the strong solver looks for it, seeing only its seat's view.
func Example() {
	ctx := context.Background()
	lex := lexicon.Default()
	grid, err := bot.Grid(ctx, "crane", game.Strong, 7, lex)
	if err != nil {
		panic(err)
	}
	solver, err := bot.New(game.Strong, 7, lex)
	if err != nil {
		panic(err)
	}
	cfg := game.Config{Players: []string{"solver"}, Rules: game.Defaults(quizl.Game{}.Options()), Lexicon: lex}
	st, err := quizl.NewStateGrids(cfg, []*quizl.Grid{grid})
	if err != nil {
		panic(err)
	}
	for len(st.ToMove()) > 0 {
		mv, err := solver.Move(ctx, cfg, 0, st.View(0))
		if err != nil {
			panic(err)
		}
		if _, err := st.Apply(0, mv); err != nil {
			panic(err)
		}
	}
	v := st.ViewOf(0)
	fmt.Println(v.Boards[0].Outcome, v.Boards[0].Password)
	// Output: right CRANE
}
