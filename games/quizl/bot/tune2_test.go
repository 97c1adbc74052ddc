package bot

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"parlour/games/quizl"
	"parlour/lexicon"
)

var tune2 = flag.Int("quizl.tune", 0, "compare grid-maker settings over this many grids")

func TestTune2(t *testing.T) {
	if *tune2 == 0 {
		t.Skip()
	}
	lex := lexicon.Default()
	words := quizl.Passwords(lex, 35)
	rng := rand.New(rand.NewPCG(9, 9))
	var pws []string
	for range *tune2 {
		pws = append(pws, strings.ToUpper(words[rng.IntN(len(words))]))
	}
	b, _ := newBot("strong", 1, lex)
	full := newVocab(lex, 100)
	for _, cfg := range [][4]float64{{0.3, 0.3, 4, 5000}, {0.3, 3, 4, 5000}, {0.3, 10, 4, 5000}, {1, 3, 20, 5000}, {0, 3, 4, 5000}, {0.3, 3, 4, 20000}} {
		d := newDecoys(full)
		d.three, d.posW, d.miss = cfg[0], cfg[1], cfg[2]
		var calls float64
		for i, pw := range pws {
			g := deceive(pw, d, int(cfg[3]), rand.New(rand.NewPCG(uint64(i), 5)))
			if g.Check(lex) != nil {
				continue
			}
			p, _ := playGame(context.Background(), []*Bot{b}, []*quizl.Grid{g}, lex, nil)
			calls += float64(p.calls)
		}
		fmt.Printf("three %.1f pos %.1f miss %.0f anneal %.0f: calls %.2f\n", cfg[0], cfg[1], cfg[2], cfg[3], calls/float64(len(pws)))
	}
}
