// Package bench summarises matches between computer players: the figures
// `parlour bench` prints and docs/bots.md quotes. Each game's bot package
// plays its own matchups and hands the raw figures to a Matchup.
package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Matchup collects the raw figures of one pairing of players over many
// games: one measure per game (calls needed, salvos needed, a score, ...),
// who won, and how long the players under test took per move.
type Matchup struct {
	// Name says who played whom under what conditions, e.g.
	// "strong vs hunt-target, random fleets".
	Name string
	// Measure says what Values count, e.g. "salvos to sink".
	Measure string
	// Values holds the measure, one per game.
	Values []float64
	// Wins counts games won by each side's label; a draw counts under "draw".
	Wins map[string]int
	// Games is how many games were played.
	Games int
	// MoveTimes holds the time the players under test took for each move.
	MoveTimes []time.Duration
	// Counted names win labels whose rate Print gives exactly, as a count
	// of games with a 95% interval, and says what each means: a rare
	// outcome such as a wrong outline in Salvo ("fleet": "wrong
	// outlines") would round to 0% or 1% among the win rates.
	Counted map[string]string
	// Over, when set, is another matchup of the same measure that m is
	// compared with: Print gives, below the table, how much larger m's
	// mean is than Over's, in percent, with a 95% interval (deceptive
	// grids against random ones, say). Paired says that game i of m and
	// game i of Over were played on like terms (the same password, the
	// same table seed), so the interval allows for what the two share.
	Over   *Matchup
	Paired bool
}

// NewMatchup returns an empty matchup.
func NewMatchup(name, measure string) *Matchup {
	return &Matchup{Name: name, Measure: measure, Wins: map[string]int{}}
}

// Add records one game: its measure and the winner's label ("" for none).
func (m *Matchup) Add(value float64, winner string) {
	m.Games++
	m.Values = append(m.Values, value)
	if winner != "" {
		m.Wins[winner]++
	}
}

// Merge adds o's games, wins and move times to m, so that one seed's
// matchup can be pooled with another's.
func (m *Matchup) Merge(o *Matchup) {
	m.Games += o.Games
	m.Values = append(m.Values, o.Values...)
	for w, c := range o.Wins {
		m.Wins[w] += c
	}
	m.MoveTimes = append(m.MoveTimes, o.MoveTimes...)
	for label, what := range o.Counted {
		if m.Counted == nil {
			m.Counted = map[string]string{}
		}
		m.Counted[label] = what
	}
}

// Pool merges each of ms into the matchup of pooled at its index, making
// pooled's matchups from ms's names the first time, and returns pooled:
// the bench's tests use it to pool the same matchups over many seeds.
func Pool(pooled, ms []*Matchup) []*Matchup {
	if pooled == nil {
		for _, m := range ms {
			pooled = append(pooled, NewMatchup(m.Name, m.Measure))
		}
	}
	for i, m := range ms {
		pooled[i].Merge(m)
		if m.Over != nil {
			if j := slices.Index(ms, m.Over); j >= 0 {
				pooled[i].Over, pooled[i].Paired = pooled[j], m.Paired
			}
		}
	}
	return pooled
}

// ParseList reads a list of numbers and ranges, "1-3,101" as 1, 2, 3,
// 101: the seeds (or matchups) a long bench run should play.
func ParseList(s string) ([]uint64, error) {
	var out []uint64
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.ParseUint(lo, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", part, err)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(hi, 10, 64); err != nil || b < a {
				return nil, fmt.Errorf("%q is not a range", part)
			}
		}
		for x := a; x <= b; x++ {
			out = append(out, x)
		}
	}
	return out, nil
}

// Time records the time one move took.
func (m *Matchup) Time(d time.Duration) { m.MoveTimes = append(m.MoveTimes, d) }

// Summary is a matchup's figures reduced to what a reader compares.
type Summary struct {
	Name     string             `json:"name"`
	Measure  string             `json:"measure"`
	Games    int                `json:"games"`
	Mean     float64            `json:"mean"`
	Median   float64            `json:"median"`
	CI95     [2]float64         `json:"ci95"`
	WinRates map[string]float64 `json:"win_rates,omitempty"`
	// MoveMedian and MoveP99 are in milliseconds.
	MoveMedian float64 `json:"move_median_ms"`
	MoveP99    float64 `json:"move_p99_ms"`
	// Counts are the outcomes m.Counted names, by label.
	Counts []Count `json:"counts,omitempty"`
	// Over compares the mean with another matchup's (Matchup.Over).
	Over *Comparison `json:"over,omitempty"`
}

// Comparison says how much larger one matchup's mean is than another's:
// Percent is 100 x (mean / other mean - 1), with a 95% interval.
type Comparison struct {
	Of      string     `json:"of"`
	Paired  bool       `json:"paired"`
	Percent float64    `json:"percent"`
	CI95    [2]float64 `json:"ci95"`
}

// Compare returns how much larger the mean of a is than the mean of b, in
// percent, and a 95% interval by the delta method for the ratio of two
// means: var(ā/b̄) ≈ (var ā + r² var b̄ - 2r cov(ā, b̄)) / b̄², the
// covariance counted only when the games are paired (a[i] with b[i]).
// ok is false when b's mean is not positive or either has under two
// games.
func Compare(a, b []float64, paired bool) (pct, lo, hi float64, ok bool) {
	na, nb := len(a), len(b)
	if na < 2 || nb < 2 || (paired && na != nb) {
		return 0, 0, 0, false
	}
	ma, va := meanVar(a)
	mb, vb := meanVar(b)
	if mb <= 0 {
		return 0, 0, 0, false
	}
	r := ma / mb
	v := va/float64(na) + r*r*vb/float64(nb)
	if paired {
		c := 0.0
		for i := range a {
			c += (a[i] - ma) * (b[i] - mb)
		}
		c /= float64(na - 1)
		v -= 2 * r * c / float64(na)
	}
	half := 1.959964 * math.Sqrt(max(v, 0)) / mb
	return 100 * (r - 1), 100 * (r - half - 1), 100 * (r + half - 1), true
}

// meanVar returns the mean and the sample variance of v (len(v) > 1).
func meanVar(v []float64) (mean, variance float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		variance += (x - mean) * (x - mean)
	}
	return mean, variance / float64(len(v)-1)
}

// Count is how often a rare outcome happened: Of games of which N had it,
// the rate N/Of and a 95% interval of it.
type Count struct {
	Label string     `json:"label"`
	What  string     `json:"what"`
	N     int        `json:"n"`
	Of    int        `json:"of"`
	Rate  float64    `json:"rate"`
	CI95  [2]float64 `json:"ci95"`
}

// Wilson returns the Wilson score 95% interval of a rate of n in of,
// which unlike the normal approximation stays inside 0 to 1 and is not
// empty when n is 0: 0 of 2,000 still allows up to 0.19%.
func Wilson(n, of int) (lo, hi float64) {
	if of <= 0 {
		return 0, 1
	}
	const z = 1.959964
	p := float64(n) / float64(of)
	nf := float64(of)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return max(0, mid-half), min(1, mid+half)
}

// Summary reduces m: mean, median and a normal-approximation 95%
// confidence interval of the mean; win rates; median and 99th-percentile
// move time.
func (m *Matchup) Summary() Summary {
	s := Summary{Name: m.Name, Measure: m.Measure, Games: m.Games, WinRates: map[string]float64{}}
	if n := len(m.Values); n > 0 {
		var sum float64
		for _, v := range m.Values {
			sum += v
		}
		s.Mean = sum / float64(n)
		var ss float64
		for _, v := range m.Values {
			ss += (v - s.Mean) * (v - s.Mean)
		}
		half := 0.0
		if n > 1 {
			half = 1.96 * math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
		}
		s.CI95 = [2]float64{s.Mean - half, s.Mean + half}
		v := slices.Clone(m.Values)
		sort.Float64s(v)
		s.Median = quantile(v, 0.5)
	}
	for k, w := range m.Wins {
		if m.Games > 0 {
			s.WinRates[k] = float64(w) / float64(m.Games)
		}
	}
	if len(m.MoveTimes) > 0 {
		t := make([]float64, len(m.MoveTimes))
		for i, d := range m.MoveTimes {
			t[i] = float64(d) / float64(time.Millisecond)
		}
		sort.Float64s(t)
		s.MoveMedian = quantile(t, 0.5)
		s.MoveP99 = quantile(t, 0.99)
	}
	labels := make([]string, 0, len(m.Counted))
	for l := range m.Counted {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		c := Count{Label: l, What: m.Counted[l], N: m.Wins[l], Of: m.Games}
		if m.Games > 0 {
			c.Rate = float64(c.N) / float64(m.Games)
		}
		c.CI95[0], c.CI95[1] = Wilson(c.N, m.Games)
		s.Counts = append(s.Counts, c)
	}
	if m.Over != nil {
		if pct, lo, hi, ok := Compare(m.Values, m.Over.Values, m.Paired); ok {
			s.Over = &Comparison{Of: m.Over.Name, Paired: m.Paired, Percent: pct, CI95: [2]float64{lo, hi}}
		}
	}
	return s
}

// quantile returns the q-quantile of sorted v by linear interpolation.
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	pos := q * float64(len(v)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	return v[lo] + (v[hi]-v[lo])*(pos-float64(lo))
}

// Print writes the summaries of ms as a table for people.
func Print(w io.Writer, title string, ms []*Matchup) error {
	if _, err := fmt.Fprintf(w, "%s\n\n", title); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "matchup\tmeasure\tgames\tmean\tmedian\t95% CI\twin rates\tmove median\tmove p99")
	for _, m := range ms {
		s := m.Summary()
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%.1f\t%.2f-%.2f\t%s\t%.2fms\t%.2fms\n",
			s.Name, s.Measure, s.Games, s.Mean, s.Median, s.CI95[0], s.CI95[1],
			rates(s.WinRates), s.MoveMedian, s.MoveP99)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	first := true
	for _, m := range ms {
		s := m.Summary()
		if s.Over == nil {
			continue
		}
		if first {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
			first = false
		}
		paired := ""
		if s.Over.Paired {
			paired = ", paired game by game"
		}
		if _, err := fmt.Fprintf(w, "%s against %s: %s %+.1f%% (95%% interval %+.1f%% to %+.1f%%%s)\n",
			s.Name, s.Over.Of, s.Measure, s.Over.Percent, s.Over.CI95[0], s.Over.CI95[1], paired); err != nil {
			return err
		}
	}
	first = true
	for _, m := range ms {
		for _, c := range m.Summary().Counts {
			if first {
				if _, err := fmt.Fprintln(w); err != nil {
					return err
				}
				first = false
			}
			if _, err := fmt.Fprintf(w, "%s: %s %d of %d games, %.2f%% (95%% interval %.2f%%-%.2f%%)\n",
				m.Name, c.What, c.N, c.Of, 100*c.Rate, 100*c.CI95[0], 100*c.CI95[1]); err != nil {
				return err
			}
		}
	}
	return nil
}

func rates(r map[string]float64) string {
	if len(r) == 0 {
		return "-"
	}
	k := make([]string, 0, len(r))
	for n := range r {
		k = append(k, n)
	}
	sort.Strings(k)
	parts := make([]string, len(k))
	for i, n := range k {
		parts[i] = fmt.Sprintf("%s %.0f%%", n, 100*r[n])
	}
	return strings.Join(parts, ", ")
}

// WriteJSON writes the summaries of ms as one JSON object.
func WriteJSON(w io.Writer, game string, ms []*Matchup) error {
	out := struct {
		Game     string    `json:"game"`
		Matchups []Summary `json:"matchups"`
	}{Game: game}
	for _, m := range ms {
		out.Matchups = append(out.Matchups, m.Summary())
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(out)
}
