package bot

import (
	"fmt"
	"math"
	"strings"

	"parlour/bench"
	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

// stated is one announcement of a solitaire game as the analysis states
// it: the probability that the word is the password if the grid's other
// squares were filled at random, the probability if the grid was made to
// deceive, and whether it was right.
type stated struct {
	random, deceptive float64
	right             bool
}

// sayWatcher returns a watch for playWatched that appends to out every
// announcement against grid, with the probabilities strong (a strong Bot)
// states for it from the announcer's view.
func sayWatcher(strong *Bot, grid *quizl.Grid, lex *lexicon.Lexicon, out *[]stated) func(game.Seat, *quizl.View, string) {
	return func(_ game.Seat, v *quizl.View, mv string) {
		f := strings.Fields(mv)
		if len(f) < 2 || f[0] != "say" || len(v.Boards) == 0 {
			return
		}
		word := strings.ToUpper(f[len(f)-1])
		r, d := strong.odds(&v.Boards[0], word, lex)
		*out = append(*out, stated{r, d, strings.EqualFold(word, grid.Password)})
	}
}

// calibrationBins are the edges of the reliability table's bins of stated
// probability.
func calibrationBins() []float64 { return []float64{0, 0.2, 0.4, 0.6, 0.8, 1.0001} }

// reliability returns the reliability table of the announcements made on
// one kind of grid, for both figures: per bin of stated probability, a
// matchup whose values are 1 for a right announcement and 0 for a wrong
// one (its mean, with a 95% interval, is how often the announcements of
// that bin were right) and whose name gives the mean stated probability;
// then, per figure, the stated probability less the outcome over all the
// announcements (0 for a calibrated figure: its mean is the bias, with a
// 95% interval).
func reliability(kind string, says []stated) []*bench.Matchup {
	var out []*bench.Matchup
	for _, fig := range []struct {
		name string
		p    func(stated) float64
	}{
		{"random-filling figure", func(s stated) float64 { return s.random }},
		{"if-deceptive figure", func(s stated) float64 { return s.deceptive }},
	} {
		edges := calibrationBins()
		for i := 0; i+1 < len(edges); i++ {
			var in []stated
			sum := 0.0
			for _, s := range says {
				if p := fig.p(s); p >= edges[i] && p < edges[i+1] {
					in = append(in, s)
					sum += p
				}
			}
			if len(in) == 0 {
				continue
			}
			m := bench.NewMatchup(fmt.Sprintf("calibration, %s grids, %s %.0f-%.0f%% (stated %.1f%% on average)",
				kind, fig.name, 100*edges[i], math.Min(100, 100*edges[i+1]), 100*sum/float64(len(in))), "right (1 or 0)")
			for _, s := range in {
				m.Add(rightValue(s.right), "")
			}
			out = append(out, m)
		}
		bias := bench.NewMatchup(fmt.Sprintf("calibration, %s grids, %s, every announcement", kind, fig.name), "stated less right (bias)")
		for _, s := range says {
			bias.Add(fig.p(s)-rightValue(s.right), "")
		}
		out = append(out, bias)
	}
	return out
}

func rightValue(right bool) float64 {
	if right {
		return 1
	}
	return 0
}
