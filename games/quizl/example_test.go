package quizl_test

import (
	"fmt"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

// A two-player game: Ann calls the centre square of Ben's grid, Ben
// announces Ann's password.
func Example() {
	lex := lexicon.FromWords("example", []string{"psalm", "crane"})
	ann, _ := quizl.NewGrid([]string{"TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"}, "PSALM", lex)
	ben, _ := quizl.NewGrid([]string{"CRANE", "BDFGH", "IJKLM", "OPQST", "UVWXY"}, "CRANE", lex)
	rules := game.Defaults(quizl.Game{}.Options())
	cfg := game.Config{Players: []string{"Ann", "Ben"}, Rules: rules, Lexicon: lex}
	st, _ := quizl.NewStateGrids(cfg, []*quizl.Grid{ann, ben})

	evs, _ := st.Apply(0, "72")
	for _, e := range game.VisibleTo(evs, 0) {
		fmt.Println(e.Text)
	}
	_, err := st.Apply(0, "73")
	fmt.Println(err)
	evs, _ = st.Apply(1, "say psalm")
	fmt.Println(evs[0].Text)
	fmt.Println(st.ViewOf(0).Boards[0].Grid)
	// Output:
	// Ann called 72
	// 72 holds K in Ben's grid
	// it is not your turn: waiting for Ben
	// Ben announced PSALM for Ann: right, 25 points
	// [..... ..... ..K.. ..... .....]
}

// ExampleRandomGrid fills a grid around a password at random.
func ExampleRandomGrid() {
	lex := lexicon.FromWords("example", []string{"crane"})
	g, err := quizl.RandomGrid("crane", lex, 42)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Password, "on", g.Line, "reads", g.Read(g.Line))
	// Output: CRANE on row 6 reads CRANE
}

// ExampleSet carries scores across the games of a set.
func ExampleSet() {
	set := quizl.NewSet(2, 25)
	set.Add([]int{18, 0})
	over, winners := set.Add([]int{0, 21})
	fmt.Println(set.Totals, over, winners)
	over, winners = set.Add([]int{10, 0})
	fmt.Println(set.Totals, over, winners)
	// Output:
	// [18 21] false []
	// [28 21] true [0]
}
