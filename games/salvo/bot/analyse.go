package bot

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"parlour/game"
	"parlour/games/salvo"
)

// Analysis is the strong shooter's verdict on a finished game of Salvo,
// one note per salvo and outline, each from what its shooter had heard
// (see docs/analysis.md).
type Analysis struct {
	Moves []ShotNote `json:"moves"`
}

// Count is how many fleets agree with every report a shooter heard.
type Count struct {
	// Exact is set when every such fleet was counted; otherwise Fleets is
	// an estimate and Low and High a 95% interval around it.
	Exact  bool    `json:"exact"`
	Fleets float64 `json:"fleets"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
}

// ShotNote is one salvo or outline judged from its shooter's view.
type ShotNote struct {
	// Index is the move's 1-based index into the record's moves.
	Index int    `json:"index"`
	Seat  int    `json:"seat"`
	Move  string `json:"move"`
	// Kind is "fire", "outline" or "resign".
	Kind   string `json:"kind"`
	Target int    `json:"target"`
	// Before and After count the target's fleets consistent with what the
	// shooter had heard before the move and after its report.
	Before Count  `json:"before"`
	After  *Count `json:"after,omitempty"`
	// Map is the shooter's belief after the salvo: the probability that a
	// ship lies on each square, Map[r][c] for row number r+1 and column
	// letter c (Map[2][1] is B3).
	Map [][]float64 `json:"map,omitempty"`
	// Expected is the expected number of new hits of the salvo played,
	// Strong that of the strong shooter's salvo (StrongSalvo) and Share
	// their ratio (1 when both are 0), all over the belief before it.
	Expected    float64 `json:"expected"`
	Strong      float64 `json:"strong"`
	StrongSalvo string  `json:"strong_salvo,omitempty"`
	Share       float64 `json:"share"`
	// Hits counts the salvo's hits, as its report said.
	Hits int `json:"hits"`
	// Right reports, for an outline, whether it was right, as the referee
	// said.
	Right bool `json:"right,omitempty"`
}

// Analyse judges every salvo and outline of a finished game from the
// turns of its record (game.Turns).
func Analyse(ctx context.Context, cfg game.Config, turns []game.Turn) (*Analysis, error) {
	place := salvo.PlacementOf(cfg.Rules)
	sinkerLoses := cfg.Rules.String(salvo.OptShotsLostBy) != salvo.LostByOwner
	counts := map[[2]int]Count{} // by target and number of reports heard
	countOf := func(ctx context.Context, k *knowledge, target int) (Count, error) {
		key := [2]int{target, len(k.reports)}
		if c, ok := counts[key]; ok {
			return c, nil
		}
		var c Count
		var err error
		if len(k.reports) == 0 {
			// Before the first salvo: every fleet the rules allow, counted
			// once per rule set rather than estimated.
			var n uint64
			n, err = fleetsBefore(ctx, cfg.Lexicon, place)
			f := float64(n)
			c = Count{Exact: true, Fleets: f, Low: f, High: f}
		} else {
			c, err = k.belief().count(ctx, rand.New(rand.NewPCG(uint64(target), uint64(len(k.reports)))))
		}
		if err == nil {
			counts[key] = c
		}
		return c, err
	}
	out := &Analysis{Moves: []ShotNote{}}
	for _, t := range turns {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, ok := t.Before.(salvo.View)
		if !ok {
			return nil, fmt.Errorf("salvo analysis: a view of type %T", t.Before)
		}
		after, ok := t.After.(salvo.View)
		if !ok {
			return nil, fmt.Errorf("salvo analysis: a view of type %T", t.After)
		}
		n := ShotNote{Index: t.Index, Seat: int(t.Seat), Move: t.Move, Target: int(v.Target)}
		f := strings.Fields(strings.ToLower(t.Move))
		if v.Target < 0 || len(f) == 0 || f[0] == "resign" {
			n.Kind = "resign"
			out.Moves = append(out.Moves, n)
			continue
		}
		n.Kind = f[0]
		k := newKnowledge(v, place, sinkerLoses)
		var err error
		if n.Before, err = countOf(ctx, k, n.Target); err != nil {
			return nil, err
		}
		if n.Kind == "outline" {
			for _, o := range after.Outlines {
				if o.By == t.Seat && o.Of == v.Target {
					n.Right = o.Right
				}
			}
			out.Moves = append(out.Moves, n)
			continue
		}
		var played []salvo.Square
		for _, s := range f[1:] {
			q, err := salvo.ParseSquare(s)
			if err != nil {
				return nil, fmt.Errorf("salvo analysis, move %d: %w", t.Index, err)
			}
			played = append(played, q)
		}
		r := rand.New(rand.NewPCG(uint64(t.Index), 7))
		samples, _ := k.belief().draw(ctx, r, mapSamples)
		best, err := strongSalvo(ctx, k, r, v.Shots, strongWeights())
		if err != nil {
			return nil, err
		}
		n.Expected = expectedHits(samples, k.fired, played)
		n.Strong = expectedHits(samples, k.fired, best)
		names := make([]string, len(best))
		for i, q := range best {
			names[i] = q.String()
		}
		n.StrongSalvo = "fire " + strings.Join(names, " ")
		n.Share = 1
		if n.Strong > 0 {
			n.Share = n.Expected / n.Strong
		}
		ka := newKnowledge(after, place, sinkerLoses)
		if m := len(ka.reports); m > 0 {
			n.Hits = ka.reports[m-1].hits.Total()
		}
		c, err := countOf(ctx, ka, n.Target)
		if err != nil {
			return nil, err
		}
		n.After = &c
		as, _ := ka.belief().draw(ctx, rand.New(rand.NewPCG(uint64(t.Index), 8)), mapSamples)
		n.Map = density(as)
		out.Moves = append(out.Moves, n)
	}
	return out, nil
}

// mapSamples is how many fleets the belief draws for maps and expected
// hits.
const mapSamples = 600

// expectedHits is the mean, over samples, of the squares of sq that hit a
// ship and were not fired at before.
func expectedHits(samples []sample, fired salvo.Board, sq []salvo.Square) float64 {
	if len(samples) == 0 {
		return 0
	}
	b := salvo.BoardOf(sq...).AndNot(fired)
	n := 0
	for _, s := range samples {
		n += s.all.And(b).Count()
	}
	return float64(n) / float64(len(samples))
}

// density returns, row by row, the share of samples with a ship on each
// square, to three decimals.
func density(samples []sample) [][]float64 {
	out := make([][]float64, salvo.Size)
	for r := range out {
		out[r] = make([]float64, salvo.Size)
	}
	if len(samples) == 0 {
		return out
	}
	for _, s := range samples {
		for _, q := range s.all.Squares() {
			out[q.Row()][q.Col()]++
		}
	}
	for r := range out {
		for c := range out[r] {
			out[r][c] = math.Round(out[r][c]/float64(len(samples))*1000) / 1000
		}
	}
	return out
}

// countBudget bounds the steps of an exact count; past it count estimates.
const countBudget = 3_000_000

// probes is how many random descents the estimate averages.
const probes = 3000

// tryExact is the estimate's upper bound under which count enumerates.
const tryExact = 500_000

// count returns how many fleets agree with the knowledge: exactly by
// enumeration when that takes at most countBudget steps, else Knuth's
// estimate of the size of the enumeration's tree from random descents,
// with a 95% interval from their spread. The estimate comes first, and
// enumeration is only tried when it suggests few fleets: listing hundreds
// of millions only to give up would cost most of an analysis.
func (b *belief) count(ctx context.Context, r *rand.Rand) (Count, error) {
	est, err := b.estimate(ctx, r)
	if err != nil || est.High > tryExact {
		return est, err
	}
	if n, ok := b.exact(countBudget); ok {
		return Count{Exact: true, Fleets: float64(n), Low: float64(n), High: float64(n)}, nil
	}
	return est, nil
}

// estimate is Knuth's estimate of the number of fleets, from probes
// random descents.
func (b *belief) estimate(ctx context.Context, r *rand.Rand) (Count, error) {
	var sum, sum2 float64
	opts := make([]int, 0, 512)
	for p := range probes {
		if p%256 == 0 {
			if err := ctx.Err(); err != nil {
				return Count{}, err
			}
		}
		x := b.descend(r, opts)
		sum += x
		sum2 += x * x
	}
	mean := sum / probes
	sd := math.Sqrt(max(0, sum2/probes-mean*mean))
	half := 1.96 * sd / math.Sqrt(probes)
	return Count{Fleets: math.Round(mean), Low: math.Max(0, math.Floor(mean-half)), High: math.Ceil(mean + half)}, nil
}

// exact counts the consistent fleets as enumerate lists them (the two
// submarines in one order), or reports false after budget steps.
func (b *belief) exact(budget int) (int, bool) {
	u := &b.units
	for _, x := range u {
		if len(x) == 0 {
			return 0, true
		}
	}
	// Past a billion combinations the budget is sure to run out: say so
	// at once.
	size := 1.0
	for i := range salvo.FleetSize {
		size *= float64(len(u[min(i, 3)]))
	}
	if size > 1e9 {
		return 0, false
	}
	n, steps := 0, 0
	var idx [5]int
	for idx[0] = range u[0] {
		for idx[1] = range u[1] {
			if steps++; steps > budget {
				return 0, false
			}
			if !b.k.fits(&u[0][idx[0]], &u[1][idx[1]]) {
				continue
			}
			for idx[2] = range u[2] {
				if steps++; steps > budget {
					return 0, false
				}
				if !b.k.fits(&u[0][idx[0]], &u[2][idx[2]]) || !b.k.fits(&u[1][idx[1]], &u[2][idx[2]]) {
					continue
				}
				for idx[3] = range u[3] {
					steps++
					s3 := &u[3][idx[3]]
					if !b.k.fits(&u[0][idx[0]], s3) || !b.k.fits(&u[1][idx[1]], s3) || !b.k.fits(&u[2][idx[2]], s3) {
						continue
					}
					for j := idx[3] + 1; j < len(u[3]); j++ {
						steps++
						s4 := &u[3][j]
						if b.k.fits(&u[0][idx[0]], s4) && b.k.fits(&u[1][idx[1]], s4) && b.k.fits(&u[2][idx[2]], s4) &&
							b.k.fits(s3, s4) && b.k.subsAgree(s3, s4) {
							n++
						}
					}
					if steps > budget {
						return 0, false
					}
				}
			}
		}
	}
	return n, true
}

// descend walks the enumeration's tree once, choosing each ship at random
// among the places that fit the ships chosen so far, and returns the
// product of the numbers of choices: an unbiased estimate of the number
// of leaves (Knuth, 1975).
func (b *belief) descend(r *rand.Rand, opts []int) float64 {
	u := &b.units
	var idx [5]int
	est := 1.0
	for i := range salvo.FleetSize {
		unit := u[min(i, 3)]
		opts = opts[:0]
		from := 0
		if i == 4 {
			from = idx[3] + 1
		}
	cands:
		for j := from; j < len(unit); j++ {
			for p := range i {
				if !b.k.fits(&unit[j], &u[min(p, 3)][idx[p]]) {
					continue cands
				}
			}
			if i == 4 {
				idx[4] = j
				if !b.k.subsAgree(&u[3][idx[3]], &unit[j]) {
					continue
				}
			}
			opts = append(opts, j)
		}
		if len(opts) == 0 {
			return 0
		}
		est *= float64(len(opts))
		idx[i] = opts[r.IntN(len(opts))]
	}
	return est
}
