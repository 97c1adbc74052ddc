package bot

import (
	"context"
	"fmt"
	"testing"

	"parlour/game"
	"parlour/games/wordfight"
)

func TestZZDebug(t *testing.T) {
	if testing.Short() || *seedsFlag != "debug" {
		t.Skip()
	}
	rules := game.Defaults(wordfight.Game{}.Options())
	for g := range 3 {
		bots := []game.Bot{newBot(t, game.Strong, uint64(g)), newBot(t, BestGreedy, uint64(g+100))}
		cfg := game.Config{Players: []string{"S", "G"}, Rules: rules, Lexicon: enLex(), Seed: uint64(g)}
		st, err := Play(context.Background(), cfg, bots, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := st.SeatView(game.Spectator)
		for _, e := range v.List {
			fmt.Printf("%d %-14s S:%-16s %3d  G:%-16s %3d\n", e.By, e.Word, e.Answers[0].Move, e.Answers[0].Points, e.Answers[1].Move, e.Answers[1].Points)
		}
		fmt.Println(v.Scores)
		for i := range v.Grids[0] {
			fmt.Println(v.Grids[0][i], "  ", v.Grids[1][i])
		}
	}
}
