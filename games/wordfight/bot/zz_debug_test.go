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
	// [declarer][bucket][player]
	var agg [2][2][2]int
	var cnt [2][2]int
	var margins []int
	for g := range 150 {
		bots := []game.Bot{newBot(t, game.Strong, uint64(g)), newBot(t, BestGreedy, uint64(g+100))}
		cfg := game.Config{Players: []string{"S", "G"}, Rules: rules, Lexicon: enLex(), Seed: uint64(g)}
		st, err := Play(context.Background(), cfg, bots, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := st.SeatView(game.Spectator)
		for _, e := range v.List {
			d := int(e.By)
			bk := 0
			if e.Answers[d].Reused >= 4 {
				bk = 1
			}
			cnt[d][bk]++
			for p := 0; p < 2; p++ {
				agg[d][bk][p] += e.Answers[p].Points
			}
		}
		margins = append(margins, v.Scores[0]-v.Scores[1])
	}
	for d := 0; d < 2; d++ {
		for bk := 0; bk < 2; bk++ {
			fmt.Printf("declarer %d, declarer reuse>=4 %d: %d words, strong %d, greedy %d\n", d, bk, cnt[d][bk], agg[d][bk][0], agg[d][bk][1])
		}
	}
	fmt.Println(margins)
}
