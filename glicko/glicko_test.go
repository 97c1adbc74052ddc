package glicko

import (
	"math"
	"strings"
	"testing"
	"time"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f ± %g", what, got, want, tol)
	}
}

// TestPaperExample reproduces the worked example of Glickman's "Example of
// the Glicko-2 system": a player rated 1500, RD 200, volatility 0.06 plays
// opponents rated 1400/30, 1550/100 and 1700/300, winning the first and
// losing the others, with τ = 0.5.
func TestPaperExample(t *testing.T) {
	player := Rating{Value: 1500, RD: 200, Volatility: 0.06}
	results := []Result{
		{Opponent: Rating{Value: 1400, RD: 30, Volatility: 0.06}, Score: Win},
		{Opponent: Rating{Value: 1550, RD: 100, Volatility: 0.06}, Score: Loss},
		{Opponent: Rating{Value: 1700, RD: 300, Volatility: 0.06}, Score: Loss},
	}
	s := System{Tau: 0.5}

	// Each intermediate quantity, to the paper's printed precision. The
	// paper computes each step from the previous one rounded (E to three
	// places), so v, Δ and σ′ differ from the unrounded values in the
	// fourth place; the tolerances allow that rounding and no more
	// (unrounded: v = 1.77898, Δ = −0.48393, σ′ = 0.0599960).
	p, err := s.period(player, results)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "μ", p.mu, 0, 1e-12)
	near(t, "φ", p.phi, 1.1513, 0.00005)
	for i, want := range []float64{0.9955, 0.9531, 0.7242} {
		near(t, "g(φj)", p.g[i], want, 0.00005)
	}
	for i, want := range []float64{0.639, 0.432, 0.303} {
		near(t, "E", p.e[i], want, 0.0005)
	}
	near(t, "v", p.v, 1.7785, 0.0005)
	near(t, "Δ", p.delta, -0.4834, 0.0006)
	near(t, "σ′", p.sigmaNew, 0.05999, 0.00001)
	near(t, "φ*", p.phiStar, 1.15286, 0.00001)
	near(t, "φ′", p.phiNew, 0.8722, 0.00005)
	near(t, "μ′", p.muNew, -0.2069, 0.00005)

	// The result. The paper rounds μ′ to −0.2069 before converting, so
	// it prints 1464.06; unrounded, μ′ = −0.20694 gives 1464.051, which
	// is what the paper's 1464.06 is within its own rounding of.
	got, err := s.Update(player, results)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "r′", got.Value, 1464.06, 0.01)
	near(t, "RD′", got.RD, 151.52, 0.005)
	near(t, "σ′", got.Volatility, 0.05999, 0.00001)

	// The zero System is the same system.
	zero, err := System{}.Update(player, results)
	if err != nil || zero != got {
		t.Errorf("System{}.Update = %v, %v; want %v", zero, err, got)
	}
}

// TestNewPlayersGame checks one game between two new players (1500, RD
// 350, σ 0.06 each) in which the first wins, against values computed by
// hand from the paper's formulas:
//
//	Step 2: μ = 0, φ = 350 / 173.7178 = 2.014762, φ² = 4.059265.
//	Step 3: g(φ) = 1 / √(1 + 3φ²/π²) = 1 / √(1 + 12.177796/9.869604)
//	        = 1 / √2.233869 = 1 / 1.494613 = 0.669069.
//	        E = 1 / (1 + exp(−g·(0 − 0))) = 0.5.
//	        v = 1 / (g² · E · (1 − E)) = 1 / (0.447654 · 0.25) = 8.935475.
//	Step 4: Δ = v · g · (s − E) = 8.935475 · 0.669069 · (±0.5) = ±2.989226.
//	Step 5: a = ln(0.06²) = −5.626821. Δ² = 8.935475 is below
//	        φ² + v = 12.994740, so B = a − kτ with the first k whose
//	        f(a − kτ) ≥ 0: f(a − 0.5) = 2.0, so k = 1, B = −6.126821.
//	        f(A) = f(a) = e^a(Δ² − φ² − v − e^a) / (2(φ² + v + e^a)²)
//	        = 0.0036 · (−4.062865) / (2 · 168.95) = −0.0000433: barely
//	        below zero, so the root is just under a, and the Illinois
//	        iteration ends at σ′ = 0.0599997 (the volatility hardly
//	        moves when the result was as expected as a coin toss).
//	Step 6: φ* = √(φ² + σ′²) = √(4.059265 + 0.0036) = 2.015655.
//	Step 7: φ′ = 1 / √(1/φ*² + 1/v) = 1 / √(0.246132 + 0.111914)
//	        = 1 / √0.358046 = 1.671210.
//	        μ′ = μ + φ′² · g · (s − E) = 2.792943 · 0.669069 · (±0.5)
//	        = ±0.934337.
//	Step 8: r′ = 173.7178 · μ′ + 1500 = 1662.31 (winner), 1337.69
//	        (loser); RD′ = 173.7178 · φ′ = 290.32 for both.
func TestNewPlayersGame(t *testing.T) {
	var s System
	win, loss, err := s.Game(New(), New(), Win)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.period(New(), []Result{{Opponent: New(), Score: Win}})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "φ", p.phi, 2.014762, 0.0000005)
	near(t, "g", p.g[0], 0.669069, 0.0000005)
	near(t, "E", p.e[0], 0.5, 1e-12)
	near(t, "v", p.v, 8.935475, 0.0000005)
	near(t, "Δ", p.delta, 2.989226, 0.0000005)
	near(t, "σ′", p.sigmaNew, 0.0599997, 0.00000005)
	near(t, "φ*", p.phiStar, 2.015655, 0.0000005)
	near(t, "φ′", p.phiNew, 1.671210, 0.0000005)
	near(t, "μ′", p.muNew, 0.934337, 0.0000005)

	near(t, "winner r′", win.Value, 1662.31, 0.005)
	near(t, "winner RD′", win.RD, 290.32, 0.005)
	near(t, "winner σ′", win.Volatility, 0.0599997, 0.00000005)
	near(t, "loser r′", loss.Value, 1337.69, 0.005)
	near(t, "loser RD′", loss.RD, 290.32, 0.005)
	near(t, "loser σ′", loss.Volatility, 0.0599997, 0.00000005)
}

// TestGameUsesPreGameRatings checks that Game rates each player against
// the other's rating from before the game, not the updated one.
func TestGameUsesPreGameRatings(t *testing.T) {
	var s System
	a := Rating{Value: 1720, RD: 80, Volatility: 0.059}
	b := Rating{Value: 1480, RD: 140, Volatility: 0.061}
	gotA, gotB, err := s.Game(a, b, Draw)
	if err != nil {
		t.Fatal(err)
	}
	wantA, _ := s.Update(a, []Result{{Opponent: b, Score: Draw}})
	wantB, _ := s.Update(b, []Result{{Opponent: a, Score: Draw}})
	if gotA != wantA || gotB != wantB {
		t.Errorf("Game = %v, %v; want %v, %v", gotA, gotB, wantA, wantB)
	}
	// A draw against a weaker player costs the stronger one points.
	if !(gotA.Value < a.Value && gotB.Value > b.Value) {
		t.Errorf("draw moved %v → %v and %v → %v; want the stronger down, the weaker up", a, gotA, b, gotB)
	}
}

func TestIdle(t *testing.T) {
	var s System
	r := Rating{Value: 1800, RD: 60, Volatility: 0.06}
	got := s.Idle(r)
	// φ* = √((60/173.7178)² + 0.06²) = √(0.119292 + 0.0036) = 0.350560.
	near(t, "RD", got.RD, 0.350560*Scale, 0.001)
	if got.Value != r.Value || got.Volatility != r.Volatility {
		t.Errorf("Idle changed rating or volatility: %v → %v", r, got)
	}
	viaUpdate, err := s.Update(r, nil)
	if err != nil || viaUpdate != got {
		t.Errorf("Update(r, nil) = %v, %v; want %v", viaUpdate, err, got)
	}
	// Long absence: the RD grows but never beyond a newcomer's.
	for range 2000 {
		r = s.Idle(r)
	}
	if r.RD != DefaultRD {
		t.Errorf("RD after 2000 idle periods = %v, want the cap %v", r.RD, DefaultRD)
	}
	if got := (System{MaxRD: 500}).Idle(Rating{Value: 1500, RD: 350, Volatility: 0.06}); !(got.RD > 350) {
		t.Errorf("with MaxRD 500, idle RD = %v, want above 350", got.RD)
	}
}

func TestAway(t *testing.T) {
	t.Parallel()
	var s System
	settled := Rating{Value: 1800, RD: 60, Volatility: 0.06}
	day := 24 * time.Hour
	tests := []struct {
		name string
		d    time.Duration
		want float64 // the RD after d
	}{
		{"no time", 0, 60},
		{"a clock that went back", -day, 60},
		// One period's worth of days is the paper's idle period.
		{"one period", time.Duration(float64(day) / DayPeriods), s.Idle(settled).RD},
		// φ² + σ²t = 0.119292 + 0.0036 × 365 × 0.21436 = 0.400962.
		{"a year", 365 * day, math.Sqrt(0.400962) * Scale},
		{"thirty years", 30 * 365 * day, DefaultRD},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := s.Away(settled, tt.d)
			near(t, "RD", got.RD, tt.want, 0.01)
			if got.Value != settled.Value || got.Volatility != settled.Volatility {
				t.Errorf("Away changed rating or volatility: %v → %v", settled, got)
			}
		})
	}
	if got := s.Away(settled, 365*day); !Provisional(got) || Provisional(s.Away(settled, 300*day)) {
		t.Errorf("a settled 60 after 300 days is provisional %v, after a year %v; want false, true",
			Provisional(s.Away(settled, 300*day)), Provisional(got))
	}
}

func TestBadInput(t *testing.T) {
	good := New()
	tests := []struct {
		name    string
		s       System
		r       Rating
		results []Result
		want    string
	}{
		{"NaN rating", System{}, Rating{math.NaN(), 100, 0.06}, nil, "not a number"},
		{"infinite rating", System{}, Rating{math.Inf(1), 100, 0.06}, nil, "not a number"},
		{"zero RD", System{}, Rating{1500, 0, 0.06}, nil, "deviation"},
		{"negative RD", System{}, Rating{1500, -5, 0.06}, nil, "deviation"},
		{"NaN volatility", System{}, Rating{1500, 100, math.NaN()}, nil, "volatility"},
		{"zero volatility", System{}, Rating{1500, 100, 0}, nil, "volatility"},
		{"bad opponent", System{}, good, []Result{{Rating{1500, -1, 0.06}, Win}}, "opponent 1"},
		{"score above 1", System{}, good, []Result{{good, 2}}, "score"},
		{"negative score", System{}, good, []Result{{good, Win}, {good, -1}}, "result 2"},
		{"NaN score", System{}, good, []Result{{good, math.NaN()}}, "score"},
		{"negative τ", System{Tau: -1}, good, nil, "τ"},
		{"negative cap", System{MaxRD: -1}, good, nil, "maximum"},
		{"worlds apart", System{}, Rating{1500, 30, 0.06}, []Result{{Rating{1e6, 30, 0.06}, Win}}, "too far apart"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.s.Update(tc.r, tc.results)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Update = %v, %v; want an error about %q", got, err, tc.want)
			}
			if got != tc.r && !(math.IsNaN(tc.r.Value) || math.IsNaN(tc.r.Volatility)) {
				t.Errorf("Update changed the rating on error: %v → %v", tc.r, got)
			}
		})
	}
	if _, _, err := (System{}).Game(good, Rating{}, Win); err == nil || !strings.Contains(err.Error(), "second player") {
		t.Errorf("Game with a zero rating: %v, want an error naming the second player", err)
	}
	if _, _, err := (System{}).Game(Rating{}, good, Win); err == nil || !strings.Contains(err.Error(), "first player") {
		t.Errorf("Game with a zero rating: %v, want an error naming the first player", err)
	}
	if _, _, err := (System{}).Game(good, good, 1.5); err == nil || !strings.Contains(err.Error(), "score") {
		t.Errorf("Game with score 1.5: %v, want an error about the score", err)
	}
}

func TestLeaderboard(t *testing.T) {
	tests := []struct {
		rd    float64
		games int
		want  bool
	}{
		{109.9, 5, true},
		{50, 200, true},
		{110, 5, false},
		{109.9, 4, false},
		{350, 0, false},
		{math.NaN(), 10, false},
	}
	for _, tc := range tests {
		r := Rating{Value: 1500, RD: tc.rd, Volatility: 0.06}
		if got := OnLeaderboard(r, tc.games); got != tc.want {
			t.Errorf("OnLeaderboard(RD %v, %d games) = %v, want %v", tc.rd, tc.games, got, tc.want)
		}
	}
	if !Provisional(New()) || Provisional(Rating{1500, 45, 0.06}) {
		t.Error("a new player must be provisional and RD 45 must not")
	}
}

// TestNewPlayerReachesLeaderboard plays a new player against an
// established one (RD 60), winning and losing in turn, until the RD drops
// below the leaderboard's threshold.
func TestNewPlayerReachesLeaderboard(t *testing.T) {
	var s System
	r := New()
	rival := Rating{Value: 1500, RD: 60, Volatility: 0.06}
	games := 0
	for ; games < 100 && !OnLeaderboard(r, games); games++ {
		var err error
		r, _, err = s.Game(r, rival, float64(games%2))
		if err != nil {
			t.Fatal(err)
		}
	}
	// This loop ends after 10 games at RD 109.7 (docs/ratings.md says so).
	if games != 10 || r.RD >= LeaderboardRD {
		t.Errorf("a new player reached the leaderboard after %d games (RD %.1f); want 10", games, r.RD)
	}
}
