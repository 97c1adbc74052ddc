// Package glicko rates players with the Glicko-2 system of Mark Glickman
// ("Example of the Glicko-2 system", 2013): each player has a rating, a
// rating deviation (RD, how uncertain the rating is) and a volatility (how
// erratic the player's results are). Results are gathered into rating
// periods; at the end of each, every player's rating moves towards what
// the period's results suggest, by as much as the uncertainty allows.
//
// Parlour rates each game as one rating period for both players, as
// Lichess does: [System.Game] updates both from one result, each against
// the other's rating from before the game. [System.Away] grows a rating's
// RD with the time since its player's last game, as Lichess does.
//
// Ratings are on the Glicko scale (a new player is 1500 ± 350); the
// package converts to the Glicko-2 scale and back inside each update. It
// knows nothing of games, players' names or storage.
package glicko

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// The starting point of every new player, and the system's constants, from
// Glickman's paper.
const (
	DefaultRating     = 1500.0
	DefaultRD         = 350.0
	DefaultVolatility = 0.06
	// DefaultTau is τ, which constrains how fast volatility changes.
	// Glickman suggests 0.3 to 1.2; Parlour uses 0.5.
	DefaultTau = 0.5
	// Scale converts between the Glicko scale and the Glicko-2 scale:
	// μ = (r − 1500) / Scale, φ = RD / Scale. It is the paper's rounding
	// of 400 / ln 10.
	Scale = 173.7178
	// Tolerance is ε, the convergence tolerance of the volatility
	// iteration.
	Tolerance = 0.000001
	// DayPeriods is how many rating periods a day away from rated play
	// counts for in [System.Away]: Lichess's 0.21436, under which a
	// settled RD of 60 grows to about 110 over a year without a game.
	DayPeriods = 0.21436
)

// maxIterations bounds the volatility iteration: the Illinois algorithm
// converges within a few dozen steps for any rating a person can reach,
// so a loop longer than this means the inputs were absurd.
const maxIterations = 1000

// Rating is one player's standing in one rating pool, on the Glicko scale.
type Rating struct {
	Value      float64 // the rating, 1500 for a new player
	RD         float64 // the rating deviation, 350 for a new player
	Volatility float64 // σ, 0.06 for a new player
}

// New returns the rating of a player who has not played yet.
func New() Rating {
	return Rating{Value: DefaultRating, RD: DefaultRD, Volatility: DefaultVolatility}
}

// String gives the rating as "1500 ± 350 (σ 0.06)".
func (r Rating) String() string {
	return fmt.Sprintf("%.0f ± %.0f (σ %.4g)", r.Value, r.RD, r.Volatility)
}

// Check reports whether r is a rating the system can work with: finite,
// with a positive RD and volatility.
func (r Rating) Check() error {
	switch {
	case math.IsNaN(r.Value) || math.IsInf(r.Value, 0):
		return fmt.Errorf("rating %v is not a number", r.Value)
	case !(r.RD > 0) || math.IsInf(r.RD, 0):
		return fmt.Errorf("rating deviation %v is not a positive number", r.RD)
	case !(r.Volatility > 0) || math.IsInf(r.Volatility, 0):
		return fmt.Errorf("volatility %v is not a positive number", r.Volatility)
	}
	return nil
}

// The scores of a game, from one player's side.
const (
	Loss = 0.0
	Draw = 0.5
	Win  = 1.0
)

// Result is one game of a rating period, from the rated player's side:
// the opponent's rating at the start of the period and the score.
type Result struct {
	Opponent Rating
	Score    float64 // Win, Draw or Loss; any value from 0 to 1 is allowed
}

// System holds the constants of a rating pool. Its zero value is Parlour's
// system: τ = 0.5 and no RD above 350.
type System struct {
	// Tau is τ; zero means DefaultTau.
	Tau float64
	// MaxRD caps the RD an update returns, so that a player who has been
	// away is never less certain than a newcomer; zero means DefaultRD.
	// The cap applies to the result only, never inside the formulas, so
	// that a period with games follows the paper exactly.
	MaxRD float64
}

func (s System) tau() float64 {
	if s.Tau == 0 {
		return DefaultTau
	}
	return s.Tau
}

func (s System) maxRD() float64 {
	if s.MaxRD == 0 {
		return DefaultRD
	}
	return s.MaxRD
}

func (s System) check() error {
	if t := s.tau(); !(t > 0) || math.IsInf(t, 0) {
		return fmt.Errorf("τ %v is not a positive number", s.Tau)
	}
	if m := s.maxRD(); !(m > 0) {
		return fmt.Errorf("maximum rating deviation %v is not a positive number", s.MaxRD)
	}
	return nil
}

// Update returns r after one rating period in which its player had results.
// Every opponent's rating is taken as it was at the start of the period.
// With no results it returns [System.Idle] of r.
func (s System) Update(r Rating, results []Result) (Rating, error) {
	if err := s.check(); err != nil {
		return r, err
	}
	if err := r.Check(); err != nil {
		return r, err
	}
	for i, res := range results {
		if err := res.Opponent.Check(); err != nil {
			return r, fmt.Errorf("opponent %d: %w", i+1, err)
		}
		if !(res.Score >= 0 && res.Score <= 1) {
			return r, fmt.Errorf("result %d: score %v is not between 0 and 1", i+1, res.Score)
		}
	}
	if len(results) == 0 {
		return s.Idle(r), nil
	}
	p, err := s.period(r, results)
	if err != nil {
		return r, err
	}
	return p.rating(s.maxRD()), nil
}

// Idle returns r after a rating period in which its player did not play:
// the rating and volatility stay, and the RD grows to √(φ² + σ²) on the
// Glicko-2 scale, at most to the system's maximum RD. Idle trusts its
// inputs; Update(r, nil) does the same after checking them.
func (s System) Idle(r Rating) Rating { return s.grow(r, 1) }

// Away returns r as it stands after d without a rated game: the rating
// and volatility stay, and the RD grows as over d's share of idle
// periods ([DayPeriods] a day), to √(φ² + σ²t) for t periods on the
// Glicko-2 scale, at most to the system's maximum RD. Ratings are
// stored as each game left them; Away gives the uncertainty a player's
// absence has added since, so that a rating unused for a year is no
// longer shown, ranked or played as settled. A d of zero or less
// changes nothing.
func (s System) Away(r Rating, d time.Duration) Rating {
	if d <= 0 {
		return r
	}
	return s.grow(r, d.Hours()/24*DayPeriods)
}

// grow is the paper's step for t periods without a game.
func (s System) grow(r Rating, t float64) Rating {
	phi := r.RD / Scale
	phiStar := math.Sqrt(phi*phi + r.Volatility*r.Volatility*t)
	r.RD = min(phiStar*Scale, s.maxRD())
	return r
}

// Game rates one game between a and b as one rating period for each, as
// Lichess does: each player is updated from this result alone, against the
// other's rating from before the game. scoreA is a's score (Win, Draw or
// Loss); b's is 1 − scoreA.
func (s System) Game(a, b Rating, scoreA float64) (newA, newB Rating, err error) {
	if err := a.Check(); err != nil {
		return a, b, fmt.Errorf("the first player's %w", err)
	}
	if err := b.Check(); err != nil {
		return a, b, fmt.Errorf("the second player's %w", err)
	}
	newA, err = s.Update(a, []Result{{Opponent: b, Score: scoreA}})
	if err != nil {
		return a, b, fmt.Errorf("rating the first player: %w", err)
	}
	newB, err = s.Update(b, []Result{{Opponent: a, Score: 1 - scoreA}})
	if err != nil {
		return a, b, fmt.Errorf("rating the second player: %w", err)
	}
	return newA, newB, nil
}

// step holds the intermediate quantities of one update, named as in the
// paper, so that tests can check each against the worked example.
type step struct {
	value          float64   // the player's rating before, on the Glicko scale
	mu, phi, sigma float64   // the player before, on the Glicko-2 scale
	g, e           []float64 // g(φj) and E(μ, μj, φj) for each opponent
	v              float64   // the estimated variance from the results alone
	delta          float64   // Δ, the estimated improvement
	sigmaNew       float64   // σ′
	phiStar        float64   // φ*, the pre-period RD
	phiNew, muNew  float64   // φ′ and μ′
}

// period carries out steps 2 to 7 of the paper for one player.
func (s System) period(r Rating, results []Result) (step, error) {
	// Step 2: to the Glicko-2 scale.
	p := step{
		value: r.Value,
		mu:    (r.Value - DefaultRating) / Scale,
		phi:   r.RD / Scale,
		sigma: r.Volatility,
		g:     make([]float64, len(results)),
		e:     make([]float64, len(results)),
	}
	// Steps 3 and 4: v and Δ.
	var sumV, sumD float64
	for i, res := range results {
		muJ := (res.Opponent.Value - DefaultRating) / Scale
		phiJ := res.Opponent.RD / Scale
		g := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(p.mu-muJ)))
		p.g[i], p.e[i] = g, e
		sumV += g * g * e * (1 - e)
		sumD += g * (res.Score - e)
	}
	if !(sumV > 0) {
		// E is 0 or 1 to float64 precision: the opponents are so far
		// apart that the games carry no information.
		return p, errors.New("the ratings are too far apart to rate the games")
	}
	p.v = 1 / sumV
	p.delta = p.v * sumD
	// Step 5: the new volatility.
	sigma, err := volatility(p.phi, p.sigma, p.v, p.delta, s.tau())
	if err != nil {
		return p, err
	}
	p.sigmaNew = sigma
	// Step 6: the pre-period RD.
	p.phiStar = math.Sqrt(p.phi*p.phi + sigma*sigma)
	// Step 7: the new RD and rating.
	p.phiNew = 1 / math.Sqrt(1/(p.phiStar*p.phiStar)+1/p.v)
	p.muNew = p.mu + p.phiNew*p.phiNew*sumD
	return p, nil
}

// rating carries out step 8: back to the Glicko scale. It adds the change
// to the old rating rather than converting μ′ whole, so that a rating the
// results leave alone is not nudged by rounding in the round trip.
func (p step) rating(maxRD float64) Rating {
	return Rating{
		Value:      p.value + Scale*(p.muNew-p.mu),
		RD:         min(Scale*p.phiNew, maxRD),
		Volatility: p.sigmaNew,
	}
}

// volatility finds σ′ by the Illinois algorithm (a regula falsi that halves
// the stale end's value), as in step 5 of the paper.
func volatility(phi, sigma, v, delta, tau float64) (float64, error) {
	a := math.Log(sigma * sigma)
	d2, p2 := delta*delta, phi*phi
	f := func(x float64) float64 {
		ex := math.Exp(x)
		return ex*(d2-p2-v-ex)/(2*(p2+v+ex)*(p2+v+ex)) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if d2 > p2+v {
		B = math.Log(d2 - p2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
			if k > maxIterations {
				return 0, errors.New("the volatility iteration found no bracket")
			}
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > Tolerance; i++ {
		if i == maxIterations {
			return 0, errors.New("the volatility iteration did not converge")
		}
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2), nil
}

// Leaderboard thresholds, as Lichess's: a player appears on a leaderboard
// only once the rating means something.
const (
	LeaderboardGames = 5   // at least this many rated games
	LeaderboardRD    = 110 // and an RD below this
)

// Provisional reports whether r is still too uncertain to show without a
// question mark: its RD is LeaderboardRD or more.
func Provisional(r Rating) bool { return !(r.RD < LeaderboardRD) }

// OnLeaderboard reports whether a player with rating r after games rated
// games may appear on a leaderboard: at least LeaderboardGames games and an
// RD below LeaderboardRD.
func OnLeaderboard(r Rating, games int) bool {
	return games >= LeaderboardGames && !Provisional(r)
}
