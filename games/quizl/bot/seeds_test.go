package bot

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"parlour/bench"
	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

var (
	seedsFlag = flag.String("quizl.seeds", "", "play the strong solver's solitaire games of the Quizl bench for these seeds (as in 1-12,201-212) and print its calls on random and deceptive fillers")
	hideFlag  = flag.Bool("quizl.hiding", false, "with -quizl.seeds, also play grids annealed without trial games, the password hidden by hide or put on each line index in turn")
)

// TestSeeds plays, for every seed of -quizl.seeds, the strong solver's
// solitaire games of Bench (the same passwords, grids and table seeds) and
// prints the calls it needed, so that the Quizl figures in docs/bots.md can
// be measured over many seeds without the rest of the bench. With
// -quizl.hiding it also shows what the line the password is hidden on is
// worth: grids annealed as the strong grid maker anneals them but kept by
// the lexicon's measure alone, the password hidden by hide or forced onto
// index k (row 5+k or column k, a coin deciding which).
func TestSeeds(t *testing.T) {
	if *seedsFlag == "" {
		t.Skip("no -quizl.seeds")
	}
	seeds, err := bench.ParseList(*seedsFlag)
	if err != nil {
		t.Fatal(err)
	}
	lex := lexicon.Default()
	ctx := t.Context()
	d := decoysOf(lex, newVocab(lex, 100))
	type variant struct {
		name string
		grid func(dr draw) (*quizl.Grid, error)
	}
	vs := []variant{
		{"random", func(dr draw) (*quizl.Grid, error) { return quizl.RandomGrid(dr.password, lex, dr.seed) }},
		{"deceptive", func(dr draw) (*quizl.Grid, error) { return Grid(ctx, dr.password, game.Strong, dr.seed, lex) }},
	}
	if *hideFlag {
		lineBy := func(k int) func(string, *rand.Rand) quizl.Line {
			if k < 0 {
				lv, _ := levelOf(game.Strong)
				return func(pw string, rng *rand.Rand) quizl.Line { return d.hide(pw, lv.predictable, rng) }
			}
			return func(_ string, rng *rand.Rand) quizl.Line { return quizl.Line(rng.IntN(2)*quizl.Size + k) }
		}
		for k := -1; k < quizl.Size; k++ {
			name := "hide"
			if k >= 0 {
				name = fmt.Sprintf("index %d", k)
			}
			vs = append(vs, variant{name, func(dr draw) (*quizl.Grid, error) {
				return annealed(dr, lineBy(k), d, lex)
			}})
		}
	}
	total := make([]float64, len(vs))
	n := 0
	var head strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&head, "  %9s", v.name)
	}
	fmt.Printf("strong solver's calls, %s\nseed %s\n", lex.Name(), head.String())
	for _, seed := range seeds {
		draws, err := drawGames(gamesOr(100), seed, lex)
		if err != nil {
			t.Fatal(err)
		}
		solver, err := newBot(game.Strong, seed, lex)
		if err != nil {
			t.Fatal(err)
		}
		calls := make([]float64, len(vs))
		var mu sync.Mutex
		var wg sync.WaitGroup
		jobs := make(chan draw)
		for range 2 {
			wg.Go(func() {
				for dr := range jobs {
					for i, v := range vs {
						g, err := v.grid(dr)
						if err != nil {
							t.Error(err)
							continue
						}
						p, err := playGame(ctx, []player{solver}, []*quizl.Grid{g}, dr.seed, lex, nil)
						if err != nil {
							t.Error(err)
							continue
						}
						mu.Lock()
						calls[i] += float64(p.calls)
						mu.Unlock()
					}
				}
			})
		}
		for _, dr := range draws {
			jobs <- dr
		}
		close(jobs)
		wg.Wait()
		line := fmt.Sprintf("%4d", seed)
		for i := range vs {
			total[i] += calls[i]
			line += fmt.Sprintf("  %9.2f", calls[i]/float64(len(draws)))
		}
		fmt.Printf("%s  %+.1f%%\n", line, 100*(calls[1]/calls[0]-1))
		n += len(draws)
	}
	line := "mean"
	for i := range vs {
		line += fmt.Sprintf("  %9.3f", total[i]/float64(n))
	}
	fmt.Printf("%s  %+.1f%%  (%d games per column)\n", line, 100*(total[1]/total[0]-1), n)
}

// annealed makes a grid as the strong grid maker does, but keeps the best
// of its fillings by the lexicon's measure alone, without trial games,
// and puts the password on the line that line chooses.
func annealed(dr draw, line func(string, *rand.Rand) quizl.Line, d *decoys, lex *lexicon.Lexicon) (*quizl.Grid, error) {
	lv, _ := levelOf(game.Strong)
	rng := rand.New(rand.NewPCG(dr.seed, 0xdece17))
	pw := strings.ToUpper(dr.password)
	gs := d.fillings(pw, lv, lex, rng, func() quizl.Line { return line(pw, rng) })
	if len(gs) == 0 {
		return nil, fmt.Errorf("no legal filling around %s", pw)
	}
	return gs[0], nil
}

// gamesOr returns -quizl.games when it is set, else n.
func gamesOr(n int) int {
	if *benchGames > 0 {
		return *benchGames
	}
	return n
}

var headFlag = flag.String("quizl.h2h", "", "play the Quizl bench's two-player games of strong against medium for these seeds (as in 1-3) and print strong's share of the decided games")

// TestHeadToHead plays, for every seed of -quizl.h2h, the bench's
// two-player games of strong against medium (the same grids and table
// seeds as `parlour bench quizl --seed S`), and prints each seed's and the
// pooled figures: strong's score, and its wins among the decided games.
func TestHeadToHead(t *testing.T) {
	if *headFlag == "" {
		t.Skip("no -quizl.h2h")
	}
	seeds, err := bench.ParseList(*headFlag)
	if err != nil {
		t.Fatal(err)
	}
	games := 100
	if *benchGames > 0 {
		games = *benchGames
	}
	var pooled []*bench.Matchup
	for _, s := range seeds {
		m, decided, err := headToHead(t.Context(), [2]string{game.Strong, game.Medium}, games, s, lexicon.Default())
		if err != nil {
			t.Fatal(err)
		}
		ms := []*bench.Matchup{m, decided}
		bench.Print(os.Stdout, fmt.Sprintf("seed %d, %d games", s, games), ms)
		fmt.Println()
		pooled = bench.Pool(pooled, ms)
	}
	bench.Print(os.Stdout, fmt.Sprintf("seeds %s pooled, %d games a seed", *headFlag, games), pooled)
}
