package glicko

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sane reports whether r is a rating a real pool could hold.
func sane(r Rating) bool {
	return r.Value >= -1000 && r.Value <= 5000 &&
		r.RD >= 1 && r.RD <= DefaultRD &&
		r.Volatility >= 0.0001 && r.Volatility <= 0.5
}

// checkUpdate checks the invariants of one update: no NaN or infinity, a
// positive RD no larger than the pre-period RD √(φ² + σ′²) nor than the
// cap, and a rating that moves the way the results point.
func checkUpdate(t *testing.T, r Rating, results []Result) {
	t.Helper()
	got, err := System{}.Update(r, results)
	if err != nil {
		t.Fatalf("Update(%+v, %+v): %v", r, results, err)
	}
	for _, x := range []float64{got.Value, got.RD, got.Volatility} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("Update(%+v, %+v) = %+v: not finite", r, results, got)
		}
	}
	if !(got.RD > 0) || !(got.Volatility > 0) {
		t.Fatalf("Update(%+v, %+v) = %+v: RD and volatility must stay positive", r, results, got)
	}
	phi := r.RD / Scale
	grown := Scale * math.Sqrt(phi*phi+got.Volatility*got.Volatility)
	if got.RD > grown*(1+1e-12) || got.RD > DefaultRD {
		t.Fatalf("Update(%+v, %+v) = %+v: RD above the pre-period %v or the cap", r, results, got, grown)
	}
	all := func(s float64) bool {
		for _, res := range results {
			if res.Score != s {
				return false
			}
		}
		return true
	}
	if all(Win) && got.Value < r.Value {
		t.Fatalf("Update(%+v, only wins) = %+v: rating fell", r, got)
	}
	if all(Loss) && got.Value > r.Value {
		t.Fatalf("Update(%+v, only losses) = %+v: rating rose", r, got)
	}
}

func randomRating(rng *rand.Rand) Rating {
	return Rating{
		Value:      -1000 + rng.Float64()*6000,
		RD:         1 + rng.Float64()*(DefaultRD-1),
		Volatility: 0.0001 + rng.Float64()*0.4999,
	}
}

func TestUpdateProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	scores := []float64{Loss, Draw, Win}
	for range 20000 {
		r := randomRating(rng)
		results := make([]Result, rng.IntN(12))
		score := scores[rng.IntN(3)]
		mixed := rng.IntN(2) == 0
		for i := range results {
			if mixed {
				score = scores[rng.IntN(3)]
			}
			results[i] = Result{Opponent: randomRating(rng), Score: score}
		}
		checkUpdate(t, r, results)
	}
}

// FuzzUpdate checks the invariants for n games against one opponent, all
// with the same score, for any sane pair of ratings.
func FuzzUpdate(f *testing.F) {
	f.Add(1500.0, 350.0, 0.06, 1500.0, 350.0, 0.06, uint8(2), uint8(1))
	f.Add(1500.0, 200.0, 0.06, 1700.0, 300.0, 0.06, uint8(0), uint8(3))
	f.Add(3000.0, 30.0, 0.2, 0.0, 30.0, 0.0001, uint8(0), uint8(20))
	f.Add(-1000.0, 1.0, 0.5, 5000.0, 1.0, 0.5, uint8(2), uint8(1))
	f.Fuzz(func(t *testing.T, v, rd, vol, ov, ord, ovol float64, score, n uint8) {
		r := Rating{Value: v, RD: rd, Volatility: vol}
		o := Rating{Value: ov, RD: ord, Volatility: ovol}
		if !sane(r) || !sane(o) {
			t.Skip()
		}
		results := make([]Result, int(n%30))
		for i := range results {
			results[i] = Result{Opponent: o, Score: float64(score%3) / 2}
		}
		checkUpdate(t, r, results)
	})
}
