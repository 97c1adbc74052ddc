package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"parlour/bench"
	"parlour/game"
	"parlour/games/salvo"
	"parlour/lexicon"
)

// Bench measures the Salvo players under the default rules. For every
// shooter it plays games of practice (nobody firing back) against random
// legal fleets and against fleets from the strong player's placer, and
// counts the salvos needed to sink the fleet, and how many more the
// placer's fleets cost each shooter than random ones; the same fleets face
// every shooter, and the placer's time per fleet is timed. Then it plays two-player games between levels, alternating who
// starts, for win rates. Each game takes its fleets and the players'
// seeds from seed. lex is not used: Salvo has no words.
func Bench(ctx context.Context, games int, seed uint64, lex *lexicon.Lexicon) ([]*bench.Matchup, error) {
	rules := game.Defaults(salvo.Game{}.Options())
	p := salvo.PlacementOf(rules)
	var out []*bench.Matchup
	onRandom := map[string]*bench.Matchup{}
	placer := bench.NewMatchup("strong placer", "ms to place a fleet")
	for _, kind := range []string{"random fleets", "placer's fleets"} {
		fleets := make([]salvo.Fleet, games)
		for i := range fleets {
			r := rand.New(rand.NewPCG(seed, uint64(i)))
			if kind == "random fleets" {
				fleets[i] = salvo.RandomFleet(r, p)
			} else {
				start := time.Now()
				fleets[i] = HardFleet(ctx, r, p)
				d := time.Since(start)
				placer.Add(float64(d)/float64(time.Millisecond), "")
				placer.Time(d)
			}
		}
		if kind != "random fleets" {
			out = append(out, placer)
		}
		for _, level := range Levels() {
			m := bench.NewMatchup(level+" vs "+kind, "salvos to sink")
			m.Counted = map[string]string{"fleet": "wrong outlines"}
			if kind == "random fleets" {
				onRandom[level] = m
			} else {
				// Other fleets than the random ones: compared unpaired.
				m.Over = onRandom[level]
			}
			for i, f := range fleets {
				n, right, err := Practice(ctx, rules, f, level, seed+uint64(i), m.Time)
				if err != nil {
					return out, fmt.Errorf("%s, game %d: %w", m.Name, i+1, err)
				}
				winner := "fleet"
				if right {
					winner = level
				}
				m.Add(float64(n), winner)
			}
			out = append(out, m)
		}
	}
	for _, pair := range [][2]string{
		{game.Strong, HuntTarget},
		{game.Strong, Density},
		{game.Strong, game.Medium},
		{game.Medium, game.Easy},
		{game.Easy, Random},
		{game.Strong, FleetDensity},
	} {
		m := bench.NewMatchup(pair[0]+" vs "+pair[1], "winner's salvos")
		for i := range games {
			levels := pair
			if i%2 == 1 {
				levels[0], levels[1] = levels[1], levels[0]
			}
			timed := 0
			if levels[1] == pair[0] {
				timed = 1
			}
			winner, salvos, err := Duel(ctx, rules, levels, seed+uint64(i), game.Seat(timed), m.Time)
			if err != nil {
				return out, fmt.Errorf("%s, game %d: %w", m.Name, i+1, err)
			}
			label := "draw"
			if winner >= 0 {
				label = levels[winner]
			}
			m.Add(float64(salvos), label)
		}
		out = append(out, m)
	}
	return out, nil
}

// maxMoves bounds a game: Salvo can take no more than one salvo per square
// of the ocean per opponent, and an outline.
const maxMoves = 4 * (salvo.Squares + 1)

// Practice plays one game of practice: the player at level fires at fleet
// alone until it outlines. It returns the salvos fired and whether the
// outline was right; timed, when set, gets the time of every move.
func Practice(ctx context.Context, rules game.Rules, fleet salvo.Fleet, level string, seed uint64, timed func(time.Duration)) (salvos int, right bool, err error) {
	b, err := newBot(level, seed)
	if err != nil {
		return 0, false, err
	}
	st, err := salvo.NewPractice(rules, fleet)
	if err != nil {
		return 0, false, err
	}
	cfg := game.Config{Players: []string{"you", "the fleet"}, Rules: rules}
	for range maxMoves {
		if st.Result().Status == game.Finished {
			res := st.Result()
			return salvos, len(res.Winners) == 1 && res.Winners[0] == 0, nil
		}
		v := st.SeatView(0)
		t0 := time.Now()
		mv, err := b.Move(ctx, cfg, 0, v)
		if err != nil {
			return 0, false, err
		}
		if timed != nil {
			timed(time.Since(t0))
		}
		if _, err := st.Apply(0, mv); err != nil {
			return 0, false, fmt.Errorf("the %s player's move was refused: %w", level, err)
		}
		if !v.MustOutline {
			salvos++
		}
	}
	return 0, false, fmt.Errorf("the %s player did not finish in %d moves", level, maxMoves)
}

// Duel plays one two-player game between the players at levels (seat 0
// first) with their own fleets, and returns the winning seat (Spectator
// for none) and how many salvos the winner fired. timed, when set, gets
// the time of every move of seat timedSeat.
func Duel(ctx context.Context, rules game.Rules, levels [2]string, seed uint64, timedSeat game.Seat, timed func(time.Duration)) (game.Seat, int, error) {
	cfg := game.Config{Players: []string{levels[0] + " (1)", levels[1] + " (2)"}, Rules: rules, Seed: seed}
	bots := make([]*Bot, 2)
	setups := make([]json.RawMessage, 2)
	for i, l := range levels {
		b, err := newBot(l, seed*2+uint64(i))
		if err != nil {
			return game.Spectator, 0, err
		}
		bots[i] = b
		raw, err := b.Setup(ctx, cfg, game.Seat(i))
		if err != nil {
			return game.Spectator, 0, err
		}
		if raw, err = (salvo.Game{}).CheckSetup(cfg, game.Seat(i), raw); err != nil {
			return game.Spectator, 0, fmt.Errorf("the %s player's fleet was refused: %w", l, err)
		}
		setups[i] = raw
	}
	gs, err := salvo.Game{}.New(cfg, setups)
	if err != nil {
		return game.Spectator, 0, err
	}
	st := gs.(*salvo.State)
	for range maxMoves {
		res := st.Result()
		if res.Status == game.Finished {
			if len(res.Winners) != 1 {
				return game.Spectator, 0, nil
			}
			w := res.Winners[0]
			n := 0
			for _, s := range st.SeatView(w).Salvos {
				if s.By == w {
					n++
				}
			}
			return w, n, nil
		}
		seat := st.ToMove()[0]
		t0 := time.Now()
		mv, err := bots[seat].Move(ctx, cfg, seat, st.SeatView(seat))
		if err != nil {
			return game.Spectator, 0, err
		}
		if timed != nil && seat == timedSeat {
			timed(time.Since(t0))
		}
		if _, err := st.Apply(seat, mv); err != nil {
			return game.Spectator, 0, fmt.Errorf("the %s player's move was refused: %w", levels[seat], err)
		}
	}
	return game.Spectator, 0, fmt.Errorf("the game did not finish in %d moves", maxMoves)
}
