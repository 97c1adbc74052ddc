package bot_test

import (
	"context"
	"fmt"

	"parlour/game"
	"parlour/games/wordfight"
	"parlour/games/wordfight/bot"
	"parlour/lexicon"
)

// Example plays the strong player against the greedy baseline on a small
// board with a small word list.
func Example() {
	lex := lexicon.FromWords("example", []string{
		"cart", "tar", "art", "rat", "cat", "act", "arc", "car", "ant", "tan",
		"star", "rats", "arts", "cast", "scar", "tact", "trance", "nectar",
		"at", "an", "ta", "as",
	})
	strong, err := bot.New(game.Strong, 1, lex)
	if err != nil {
		fmt.Println(err)
		return
	}
	greedy, _ := bot.New(bot.Greedy, 2, lex)
	rules, _ := game.ResolveValues(wordfight.Game{}.Options(), map[string]any{"width": 8, "height": 8})
	cfg := game.Config{Players: []string{"Strong", "Greedy"}, Rules: rules, Lexicon: lex}
	st, err := bot.Play(context.Background(), cfg, []game.Bot{strong, greedy}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := st.Result()
	fmt.Println(r.Status, "winners:", r.Winners, "scores:", r.Scores)
	// Output:
	// finished winners: [0] scores: [11 7]
}
