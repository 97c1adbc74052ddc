package bot

import (
	"context"
	"flag"
	"fmt"
	"math"
	"testing"

	"parlour/game"
	"parlour/games/wordfight"
)

var estimateFlag = flag.Int("wordfight.estimate", 0, "TestEstimate: games to play")

// truthCareful is the careful player, noting its true score each time it
// answers a word, by the length of the list before that word.
type truthCareful struct {
	*careful
	score map[int]int
}

func (c *truthCareful) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	if v, err := asView(view); err == nil && v.Current != "" {
		c.score[len(v.List)-1] = v.Score
	}
	return c.careful.Move(ctx, cfg, seat, view)
}

// guessingStrong is the strong player, noting before each of its
// declarations the score it imagines its rival has.
type guessingStrong struct {
	*Bot
	guess map[int]float64
}

func (b *guessingStrong) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	if v, err := asView(view); err == nil && v.Current == "" && len(v.List) > 2 {
		if g, err := wordfight.GridFromRows(v.Grid); err == nil {
			b.guess[len(v.List)] = b.imagine(ctx, v, g.Board(), 1-seat, b.p.imagine).score
		}
	}
	return b.Bot.Move(ctx, cfg, seat, view)
}

// TestEstimate plays -wordfight.estimate two-player games of strong
// (with -wordfight.weigh's weights) against careful, seeded 9000 on like
// TestTrials, and prints how far the rival's score strong imagines at its
// declarations falls from the true one: the lead on which it weighs
// strikes.
func TestEstimate(t *testing.T) {
	if *estimateFlag == 0 {
		t.Skip("no -wordfight.estimate")
	}
	lex := enLex()
	rules := game.Defaults(wordfight.Game{}.Options())
	var n, sum, sum2 float64
	for i := range *estimateFlag {
		s := uint64(9000 + i)
		me := i % 2
		st := &guessingStrong{newBot(t, game.Strong, s), map[int]float64{}}
		var err error
		if st.p, err = parseStrong(st.p, *weighFlag); err != nil {
			t.Fatal(err)
		}
		c := &truthCareful{newCareful(s^5, lex), map[int]int{}}
		bots := make([]game.Bot, 2)
		bots[me], bots[1-me] = st, c
		cfg := game.Config{Players: []string{"A", "B"}, Rules: rules, Lexicon: lex, Seed: s}
		if _, err := Play(context.Background(), cfg, bots, nil); err != nil {
			t.Fatal(err)
		}
		for at, g := range st.guess {
			if truth, ok := c.score[at]; ok {
				d := g - float64(truth)
				n++
				sum += d
				sum2 += d * d
			}
		}
	}
	if n == 0 {
		t.Fatal("no declaration to weigh")
	}
	fmt.Printf("imagined less true rival score at strong's declarations: mean %.1f, root mean square %.1f, %v declarations\n",
		sum/n, math.Sqrt(sum2/n), n)
}
