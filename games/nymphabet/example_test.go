package nymphabet_test

import (
	"fmt"

	"parlour/game"
	"parlour/games/nymphabet"
	"parlour/lexicon"
)

// Example plays the opening of the source text's sample game.
func Example() {
	g := nymphabet.Game{}
	cfg := game.Config{
		Players: []string{"Ann", "Ben"},
		Rules:   game.Defaults(g.Options()), // standard mode
		Lexicon: lexicon.Default(),
	}
	st, err := g.New(cfg, nil)
	if err != nil {
		panic(err)
	}
	for _, move := range []string{"aback", "defying", "pique"} {
		seat := st.ToMove()[0]
		evs, err := st.Apply(seat, move)
		if err != nil {
			fmt.Println("refused:", err)
			continue
		}
		fmt.Println(evs[0].Text)
	}
	v := st.View(game.Spectator).(*nymphabet.View)
	fmt.Printf("next letter %s, %d left, to move: %s\n", v.Current, v.Left, v.Players[v.ToMove].Name)
	// Output:
	// Ann wrote ABACK, deleting A, B, C
	// Ben wrote DEFYING, deleting D, E, F, G
	// refused: PIQUE does not start with H, the next undeleted letter
	// next letter H, 19 left, to move: Ann
}
