package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

func TestSummary(t *testing.T) {
	m := NewMatchup("strong vs hunt-target", "salvos to sink")
	for i, v := range []float64{10, 12, 14, 16, 18} {
		w := "strong"
		if i == 4 {
			w = "hunt-target"
		}
		m.Add(v, w)
	}
	for i := 1; i <= 100; i++ {
		m.Time(time.Duration(i) * time.Millisecond)
	}
	s := m.Summary()
	if s.Games != 5 || s.Mean != 14 || s.Median != 14 {
		t.Fatalf("games %d mean %v median %v", s.Games, s.Mean, s.Median)
	}
	// Sample standard deviation of 10..18 step 2 is sqrt(10).
	half := 1.96 * math.Sqrt(10) / math.Sqrt(5)
	if math.Abs(s.CI95[0]-(14-half)) > 1e-9 || math.Abs(s.CI95[1]-(14+half)) > 1e-9 {
		t.Fatalf("CI95 = %v, want 14 ± %v", s.CI95, half)
	}
	if s.WinRates["strong"] != 0.8 || s.WinRates["hunt-target"] != 0.2 {
		t.Fatalf("win rates %v", s.WinRates)
	}
	if s.MoveMedian != 50.5 || math.Abs(s.MoveP99-99.01) > 1e-9 {
		t.Fatalf("move median %v p99 %v", s.MoveMedian, s.MoveP99)
	}
}

func TestSummaryEmpty(t *testing.T) {
	s := NewMatchup("nobody", "nothing").Summary()
	if s.Games != 0 || s.Mean != 0 || s.MoveP99 != 0 {
		t.Fatalf("empty summary %+v", s)
	}
}

func TestPrintAndJSON(t *testing.T) {
	m := NewMatchup("easy vs greedy", "points")
	m.Add(3, "easy")
	m.Time(2 * time.Millisecond)
	var buf bytes.Buffer
	if err := Print(&buf, "wordfight", []*Matchup{m}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wordfight", "easy vs greedy", "easy 100%", "2.00ms"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
	buf.Reset()
	if err := WriteJSON(&buf, "wordfight", []*Matchup{m}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Game     string    `json:"game"`
		Matchups []Summary `json:"matchups"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Game != "wordfight" || len(got.Matchups) != 1 || got.Matchups[0].Mean != 3 {
		t.Fatalf("JSON %+v", got)
	}
}

func TestParseList(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"1-3,7", "[1 2 3 7]", true},
		{"5", "[5]", true},
		{" 101-102 , 9", "[101 102 9]", true},
		{"3-1", "", false},
		{"1-x", "", false},
		{"x", "", false},
		{"", "", false},
	} {
		got, err := ParseList(c.in)
		if (err == nil) != c.ok || (c.ok && fmt.Sprint(got) != c.want) {
			t.Errorf("ParseList(%q) = %v, %v", c.in, got, err)
		}
	}
}

func TestPool(t *testing.T) {
	one := NewMatchup("a vs b", "calls")
	one.Add(3, "a")
	one.Time(time.Millisecond)
	two := NewMatchup("a vs b", "calls")
	two.Add(5, "b")
	two.Add(7, "a")
	pooled := Pool(nil, []*Matchup{one})
	pooled = Pool(pooled, []*Matchup{two})
	p := pooled[0]
	if len(pooled) != 1 || p.Name != "a vs b" || p.Measure != "calls" || p.Games != 3 ||
		fmt.Sprint(p.Values) != "[3 5 7]" || p.Wins["a"] != 2 || p.Wins["b"] != 1 || len(p.MoveTimes) != 1 {
		t.Fatalf("pooled: %+v", p)
	}
	if one.Games != 1 || len(one.Values) != 1 {
		t.Fatalf("pooling changed the first seed's matchup: %+v", one)
	}
}

// TestCounted checks the exact rates of rare outcomes: the count, the
// Wilson interval (known values), the pooled labels and the printed line.
func TestCounted(t *testing.T) {
	for _, c := range []struct {
		n, of  int
		lo, hi float64
	}{
		{0, 2000, 0, 0.001917},
		{3, 2000, 0.000510, 0.004401},
		{10, 100, 0.055229, 0.174366},
		{100, 100, 0.963007, 1},
	} {
		lo, hi := Wilson(c.n, c.of)
		if math.Abs(lo-c.lo) > 2e-6 || math.Abs(hi-c.hi) > 2e-6 {
			t.Errorf("Wilson(%d, %d) = %.6f-%.6f, want %.6f-%.6f", c.n, c.of, lo, hi, c.lo, c.hi)
		}
	}
	if lo, hi := Wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = %v-%v, want 0-1", lo, hi)
	}
	a := NewMatchup("strong vs random fleets", "salvos to sink")
	a.Counted = map[string]string{"fleet": "wrong outlines"}
	for i := range 1000 {
		w := "strong"
		if i < 3 {
			w = "fleet"
		}
		a.Add(15, w)
	}
	b := NewMatchup(a.Name, a.Measure)
	b.Counted = a.Counted
	for range 1000 {
		b.Add(15, "strong")
	}
	pooled := Pool(nil, []*Matchup{a})
	pooled = Pool(pooled, []*Matchup{b})
	s := pooled[0].Summary()
	if len(s.Counts) != 1 || s.Counts[0].N != 3 || s.Counts[0].Of != 2000 || s.Counts[0].Rate != 0.0015 {
		t.Fatalf("pooled counts %+v", s.Counts)
	}
	var buf bytes.Buffer
	if err := Print(&buf, "salvo", pooled); err != nil {
		t.Fatal(err)
	}
	want := "strong vs random fleets: wrong outlines 3 of 2000 games, 0.15% (95% interval 0.05%-0.44%)"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, buf.String())
	}
	buf.Reset()
	if err := Print(&buf, "quizl", []*Matchup{NewMatchup("x", "y")}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "interval") {
		t.Errorf("a matchup counting nothing printed a count:\n%s", buf.String())
	}
}

func TestCompare(t *testing.T) {
	// Unpaired: a's mean 12, b's 10: +20%; both sample variances are
	// 16/3, so var(ā) = var(b̄) = 4/3, var(r) = (4/3 + 1.2² 4/3)/10² and
	// the half-width 1.96 sqrt(var(r)), about 35 points.
	a := []float64{10, 10, 14, 14}
	b := []float64{8, 8, 12, 12}
	pct, lo, hi, ok := Compare(a, b, false)
	half := 100 * 1.959964 * math.Sqrt((4.0/3+1.44*4.0/3)/100)
	if !ok || math.Abs(pct-20) > 1e-9 || math.Abs(lo-(20-half)) > 1e-9 || math.Abs(hi-(20+half)) > 1e-9 {
		t.Errorf("unpaired: %v (%v to %v) %v, want +20 ± %v", pct, lo, hi, ok, half)
	}
	// Paired: every game of a is its game of b plus 2, so what the two
	// share cancels and the interval is much narrower than unpaired.
	_, plo, phi, ok := Compare(a, b, true)
	if !ok || phi-plo >= hi-lo {
		t.Errorf("paired interval %v to %v, want narrower than unpaired %v to %v", plo, phi, lo, hi)
	}
	for _, c := range []struct {
		name   string
		a, b   []float64
		paired bool
	}{
		{"one game", []float64{1}, []float64{1, 2}, false},
		{"b's mean zero", []float64{1, 2}, []float64{0, 0}, false},
		{"paired of unequal length", []float64{1, 2, 3}, []float64{1, 2}, true},
	} {
		if _, _, _, ok := Compare(c.a, c.b, c.paired); ok {
			t.Errorf("%s: ok, want no comparison", c.name)
		}
	}
}

func TestPrintOver(t *testing.T) {
	random := NewMatchup("solver, random grids", "calls")
	deceptive := NewMatchup("solver, deceptive grids", "calls")
	for i := range 10 {
		random.Add(float64(8+i%3), "")
		deceptive.Add(float64(10+i%3), "")
	}
	deceptive.Over, deceptive.Paired = random, true
	var buf bytes.Buffer
	if err := Print(&buf, "quizl", []*Matchup{random, deceptive}); err != nil {
		t.Fatal(err)
	}
	// Means 8.9 and 10.9: +22.5%. The differences are all 2, so only the
	// spread of the denominator widens the interval: (1-r)^2 var(b̄).
	want := "solver, deceptive grids against solver, random grids: calls +22.5% (95% interval +21.1% to +23.8%, paired game by game)"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, buf.String())
	}
	pooled := Pool(nil, []*Matchup{random, deceptive})
	pooled = Pool(pooled, []*Matchup{random, deceptive})
	if s := pooled[1].Summary(); s.Over == nil || s.Over.Of != random.Name || math.Abs(s.Over.Percent-100.0*2/8.9) > 1e-9 {
		t.Errorf("pooled comparison %+v, want +22.5%% over the pooled random games", s.Over)
	}
}
