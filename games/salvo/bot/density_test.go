package bot

import (
	"context"
	"math/rand/v2"
	"testing"

	"parlour/game"
	"parlour/games/salvo"
)

// TestFleetDensitySound plays the fleet-density baseline against random
// fleets under three rule sets and checks, before every move, that its
// reasoning never rules out the true fleet: each ship's true place is
// among its places, the true submarines add up to the reports, and every
// fleet it draws is legal. It must also sink every fleet in reasonable
// time.
func TestFleetDensitySound(t *testing.T) {
	for _, raw := range []map[string]any{
		{}, {salvo.OptDiagonal: true}, {salvo.OptPlacement: salvo.PlacementFree},
	} {
		rules := rulesOf(t, raw)
		p := salvo.PlacementOf(rules)
		cfg := game.Config{Players: []string{"you", "the fleet"}, Rules: rules}
		for i := range 3 {
			f := salvo.RandomFleet(rand.New(rand.NewPCG(uint64(i), 5)), p)
			st, err := salvo.NewPractice(rules, f)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := newBot(FleetDensity, uint64(i))
			salvos := 0
			for st.Result().Status == game.InProgress {
				v := st.SeatView(0)
				d := newFleetDensity(v, p)
				var truth [salvo.FleetSize]*densityPlace
				for s := range salvo.FleetSize {
					for k := range d.units[s] {
						if d.units[s][k].ship == f[s] {
							truth[s] = &d.units[s][k]
						}
					}
					if truth[s] == nil {
						t.Fatalf("%v, game %d, salvo %d: ship %d (%v) ruled out", raw, i, salvos, s, f[s])
					}
				}
				if !d.subsFit(truth[3], truth[4]) {
					t.Fatalf("%v, game %d, salvo %d: the true submarines ruled out", raw, i, salvos)
				}
				d.draw(rand.New(rand.NewPCG(1, 1)), 50)
				for _, g := range d.samples {
					if err := p.Check(g); err != nil {
						t.Fatalf("drew an illegal fleet %v: %v", g.Strings(), err)
					}
				}
				mv, err := b.Move(context.Background(), cfg, 0, v)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := st.Apply(0, mv); err != nil {
					t.Fatalf("%q refused: %v", mv, err)
				}
				if !v.MustOutline {
					salvos++
				}
			}
			if salvos > 40 {
				t.Errorf("%v, game %d: %d salvos to sink a fleet", raw, i, salvos)
			}
		}
	}
}
