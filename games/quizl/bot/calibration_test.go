package bot

import (
	"flag"
	"fmt"
	"math"
	"os"
	"testing"

	"parlour/bench"
	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

var (
	calibrationGames = flag.Int("quizl.calibration", 0, "play this many solitaire games per solver and kind of grid in TestCalibration and print the reliability table")
	calibrationSeed  = flag.Uint64("quizl.calibrationseed", 1, "with -quizl.calibration, the bench seed whose games TestCalibration plays")
)

// calibrationSolvers returns the solvers whose announcements the
// calibration weighs: the three levels and the two baselines.
func calibrationSolvers(seed uint64, lex *lexicon.Lexicon) ([]player, error) {
	var out []player
	for i, name := range []string{game.Strong, game.Medium, game.Easy, panelLine, panelInfo} {
		p, err := panelist(name, seed+uint64(i), lex)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// TestCalibration plays the bench's solitaire games of seed (random grids,
// and deceptive ones by the strong grid maker) for every solver and
// checks the analysis's stated probabilities against how often the
// announcements were right: on random grids the random-filling figure,
// and on deceptive grids the if-deceptive figure, must each be off by at
// most calibrationTolerance on average. With -quizl.calibration N it
// plays N games a solver and kind of grid and prints the reliability
// table docs/analysis.md quotes. Without the if-deceptive figure's
// correction (recalibrate) the deceptive grids of the fixed games are off
// by 0.12.
func TestCalibration(t *testing.T) {
	if testing.Short() && *calibrationGames == 0 {
		t.Skip("the calibration plays 40 games and makes 4 strong grids (about 5 s of CPU); not with -short")
	}
	t.Parallel()
	n, seed := 4, uint64(1)
	if *calibrationGames > 0 {
		n, seed = *calibrationGames, *calibrationSeed
	}
	lex := lexicon.Default()
	strong, err := newBot(game.Strong, seed, lex)
	if err != nil {
		t.Fatal(err)
	}
	solvers, err := calibrationSolvers(seed, lex)
	if err != nil {
		t.Fatal(err)
	}
	draws, err := drawGames(n, seed, lex)
	if err != nil {
		t.Fatal(err)
	}
	says := map[string]*[]stated{"random": {}, "deceptive": {}}
	for _, dr := range draws {
		r, err := quizl.RandomGrid(dr.password, lex, dr.seed)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Grid(t.Context(), dr.password, game.Strong, dr.seed, lex)
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range []string{"random", "deceptive"} {
			g := r
			if kind == "deceptive" {
				g = d
			}
			for _, s := range solvers {
				if _, err := playWatched(t.Context(), []player{s}, []*quizl.Grid{g}, dr.seed, lex, nil, sayWatcher(strong, g, lex, says[kind])); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	ms := append(reliability("random", *says["random"]), reliability("deceptive", *says["deceptive"])...)
	if *calibrationGames > 0 {
		bench.Print(os.Stdout, fmt.Sprintf("quizl calibration: %d games per solver and kind of grid, seed %d", n, seed), ms)
	}
	for _, c := range []struct {
		kind string
		p    func(stated) float64
	}{
		{"random", func(s stated) float64 { return s.random }},
		{"deceptive", func(s stated) float64 { return s.deceptive }},
	} {
		var sum, right float64
		for _, s := range *says[c.kind] {
			sum += c.p(s)
			right += rightValue(s.right)
		}
		k := float64(len(*says[c.kind]))
		if k == 0 {
			t.Fatalf("no announcement on %s grids", c.kind)
		}
		t.Logf("%s grids: %d announcements, stated %.3f on average, right %.3f", c.kind, len(*says[c.kind]), sum/k, right/k)
		if d := math.Abs(sum/k - right/k); d > calibrationTolerance {
			t.Errorf("%s grids: stated %.3f on average, right %.3f of the time: off by %.3f, more than %.2f", c.kind, sum/k, right/k, d, calibrationTolerance)
		}
	}
}

// calibrationTolerance is how far the mean stated probability may lie from
// the share of right announcements on the test's fixed games.
const calibrationTolerance = 0.1
