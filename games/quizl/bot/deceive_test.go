package bot

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"parlour/bench"
	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

var deceiveWhy = flag.Bool("quizl.why", false, "with -quizl.deceive, also print each solver's calls before its first on the password's line, and its wrong announcements")

var deceiveFlag = flag.String("quizl.deceive", "", "play the Quizl bench's solitaire games of these seeds (as in 1-12) for every solver, on random and on the strong grid maker's grids, and print how many more calls the deceptive grids cost each, pooled over the seeds")

// TestDeception plays, for every seed of -quizl.deceive, the bench's
// solitaire games (the same passwords, grids, table seeds and solvers as
// `parlour bench quizl --seed S`, -quizl.games of them a seed, 30 unless
// set) for the six solvers, and prints, pooled over the seeds, each
// solver's calls on random and on deceptive grids with the paired
// comparison, where the strong grid maker hid the passwords (the line
// indexes' shares, with Wilson intervals) and the time each grid took.
// docs/bots.md quotes its figures. Two goroutines play the games.
func TestDeception(t *testing.T) {
	if *deceiveFlag == "" {
		t.Skip("no -quizl.deceive")
	}
	seeds, err := bench.ParseList(*deceiveFlag)
	if err != nil {
		t.Fatal(err)
	}
	lex := lexicon.Default()
	ctx := t.Context()
	games := gamesOr(30)
	var pooled []*bench.Matchup
	start := time.Now()
	for _, seed := range seeds {
		draws, err := drawGames(games, seed, lex)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{game.Strong, game.Medium, game.Easy, panelLine, panelInfo, panelBayes}
		seedOf := []uint64{seed, seed + 1, seed + 2, seed + 10, seed + 11, seed + 12}
		solvers := make([]player, len(names))
		for i, n := range names {
			if solvers[i], err = panelist(n, seedOf[i], lex); err != nil {
				t.Fatal(err)
			}
		}
		hiding := bench.NewMatchup("strong grid maker, the bench's passwords", "password's line index (rows 5-9, columns 0-4)")
		hiding.Counted = map[string]string{}
		for k := range quizl.Size {
			hiding.Counted[lineIndexLabel(k)] = fmt.Sprintf("password on line index %d", k)
		}
		type result struct {
			k     int
			took  time.Duration
			calls [2][]int // per kind of grid, per solver
			// before counts the calls made before the first on the
			// password's line, and wrong the wrong announcements.
			before, wrong [2][]int
		}
		res := make([]result, games)
		var wg sync.WaitGroup
		jobs := make(chan int)
		for range 2 {
			wg.Go(func() {
				for i := range jobs {
					dr := draws[i]
					r, err := quizl.RandomGrid(dr.password, lex, dr.seed)
					if err != nil {
						t.Error(err)
						continue
					}
					at := time.Now()
					d, err := Grid(ctx, dr.password, game.Strong, dr.seed, lex)
					if err != nil {
						t.Error(err)
						continue
					}
					res[i].took = time.Since(at)
					res[i].k = int(d.Line) % quizl.Size
					for kind, g := range []*quizl.Grid{r, d} {
						for _, s := range solvers {
							n, hit := 0, -1
							watch := func(_ game.Seat, _ *quizl.View, mv string) {
								sq, err := quizl.ParseSquare(mv)
								if err != nil {
									return
								}
								if hit < 0 && g.Line.Mask()&(1<<sq) != 0 {
									hit = n
								}
								n++
							}
							p, err := playWatched(ctx, []player{s}, []*quizl.Grid{g}, dr.seed, lex, nil, watch)
							if err != nil {
								t.Error(err)
								return
							}
							if hit < 0 {
								hit = n
							}
							res[i].calls[kind] = append(res[i].calls[kind], p.calls)
							res[i].before[kind] = append(res[i].before[kind], hit)
							res[i].wrong[kind] = append(res[i].wrong[kind], p.wrong)
						}
					}
				}
			})
		}
		for i := range draws {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		if t.Failed() {
			return
		}
		ms := []*bench.Matchup{hiding}
		for i, r := range res {
			hiding.Add(float64(r.k), lineIndexLabel(r.k))
			hiding.Time(r.took)
			_ = i
		}
		for si, s := range solvers {
			var pair [2]*bench.Matchup
			for kind, filler := range []string{"random", "deceptive"} {
				m := bench.NewMatchup(fmt.Sprintf("%s solver, %s fillers", s.label(), filler), "calls to find the password")
				for _, r := range res {
					m.Add(float64(r.calls[kind][si]), "")
				}
				pair[kind] = m
			}
			pair[1].Over, pair[1].Paired = pair[0], true
			ms = append(ms, pair[0], pair[1])
			if *deceiveWhy {
				for kind, filler := range []string{"random", "deceptive"} {
					b := bench.NewMatchup(fmt.Sprintf("%s solver, %s fillers", s.label(), filler), "calls before the password's line")
					w := bench.NewMatchup(fmt.Sprintf("%s solver, %s fillers", s.label(), filler), "wrong announcements")
					for _, r := range res {
						b.Add(float64(r.before[kind][si]), "")
						w.Add(float64(r.wrong[kind][si]), "")
					}
					ms = append(ms, b, w)
				}
			}
		}
		pooled = bench.Pool(pooled, ms)
	}
	title := fmt.Sprintf("quizl deception, seeds %s, %d games a seed (%s)", *deceiveFlag, games, time.Since(start).Round(time.Second))
	bench.Print(os.Stdout, title, pooled)
	times := slices.Clone(pooled[0].MoveTimes)
	slices.Sort(times)
	if len(times) > 0 {
		fmt.Printf("strong grid maker: median %v a grid, slowest %v\n", times[len(times)/2].Round(time.Millisecond), times[len(times)-1].Round(time.Millisecond))
	}
}
