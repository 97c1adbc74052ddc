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
