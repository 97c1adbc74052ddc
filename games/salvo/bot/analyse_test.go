package bot

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"parlour/game"
	"parlour/games/salvo"
)

// bruteCount counts the fleets that agree with every report of k by brute
// force: every combination of places per ship (each ship's places kept
// only when its own hits match, a necessary condition), each fleet checked
// with the referee's placement rules and its reports recomputed from the
// salvos. It returns false when the combinations exceed limit.
func bruteCount(k *knowledge, limit float64) (int, bool) {
	var lists [4][]salvo.Ship
	size := 1.0
	for c := range 4 {
		cl := salvo.ClassOf(c)
		for _, sh := range k.place.Placements(cl.Len()) {
			b, ok := sh.Board(), true
			for _, r := range k.reports {
				n := b.And(r.squares).Count()
				if cl == salvo.Submarine && n > r.hits[cl] || cl != salvo.Submarine && n != r.hits[cl] {
					ok = false
					break
				}
			}
			if ok {
				lists[c] = append(lists[c], sh)
			}
		}
		size *= float64(len(lists[c]))
	}
	size *= float64(len(lists[3]))
	if size > limit {
		return 0, false
	}
	agrees := func(f salvo.Fleet) bool {
		if k.place.Check(f) != nil {
			return false
		}
		var before salvo.Board
		for j, r := range k.reports {
			var hits, sank salvo.Tally
			after := k.upto[j]
			for i, sh := range f {
				b, c := sh.Board(), salvo.ClassOf(i)
				hits[c] += b.And(r.squares).Count()
				if b.AndNot(after).Empty() && !b.AndNot(before).Empty() {
					sank[c]++
				}
			}
			if hits != r.hits || sank != r.sank {
				return false
			}
			before = after
		}
		return true
	}
	n := 0
	var f salvo.Fleet
	for _, a := range lists[0] {
		f[0] = a
		for _, b := range lists[1] {
			if b.Board().Intersects(a.Board()) {
				continue
			}
			f[1] = b
			for _, c := range lists[2] {
				if c.Board().Intersects(a.Board().Or(b.Board())) {
					continue
				}
				f[2] = c
				for i, d := range lists[3] {
					f[3] = d
					for _, e := range lists[3][i+1:] {
						f[4] = e
						if agrees(f) {
							n++
						}
					}
				}
			}
		}
	}
	return n, true
}

// TestCountAgreesWithBruteForce plays practice games under strict and free
// placement and checks, after every salvo whose fleets the brute force can
// list, that the exact count agrees with it; where the count is an
// estimate of an exactly known number, that the number lies near it.
func TestCountAgreesWithBruteForce(t *testing.T) {
	ctx := context.Background()
	checked, estimated, most := 0, 0, 0
	for _, c := range []struct {
		placement string
		seed      uint64
	}{{salvo.PlacementStrict, 1}, {salvo.PlacementFree, 2}, {salvo.PlacementStrict, 3}} {
		rules := rulesOf(t, map[string]any{salvo.OptPlacement: c.placement})
		place := salvo.PlacementOf(rules)
		fleet := salvo.RandomFleet(rand.New(rand.NewPCG(c.seed, 9)), place)
		st, err := salvo.NewPractice(rules, fleet)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := newBot(game.Strong, c.seed)
		cfg := game.Config{Players: []string{"you", "the fleet"}, Rules: rules}
		for st.Result().Status != game.Finished {
			v := st.SeatView(0)
			k := newKnowledge(v, place, true)
			got, err := k.belief().count(ctx, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			if want, ok := bruteCount(k, 1e6); ok {
				checked++
				most = max(most, want)
				if got.Exact && got.Fleets != float64(want) {
					t.Errorf("%s, %d salvos: count %v, brute force %d", c.placement, len(k.reports), got.Fleets, want)
				}
				if !got.Exact {
					estimated++
					if math.Abs(got.Fleets-float64(want)) > 3*(got.High-got.Low)/2+1 {
						t.Errorf("%s, %d salvos: estimate %v (%v-%v), brute force %d", c.placement, len(k.reports), got.Fleets, got.Low, got.High, want)
					}
				}
			}
			mv, err := b.Move(ctx, cfg, 0, v)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Apply(0, mv); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d positions small enough for the brute force", checked)
	}
	t.Logf("%d positions checked against the brute force (up to %d fleets), %d of them estimated", checked, most, estimated)
}

// TestEstimateCoversExact checks the estimate against exact counts of
// positions the enumeration can still finish.
func TestEstimateCoversExact(t *testing.T) {
	rules := rulesOf(t, nil)
	place := salvo.PlacementOf(rules)
	fleet := salvo.RandomFleet(rand.New(rand.NewPCG(5, 5)), place)
	st, _ := salvo.NewPractice(rules, fleet)
	b, _ := newBot(game.Strong, 5)
	cfg := game.Config{Players: []string{"you", "the fleet"}, Rules: rules}
	tried := 0
	for st.Result().Status != game.Finished {
		v := st.SeatView(0)
		bel := newKnowledge(v, place, true).belief()
		if n, ok := bel.exact(10_000_000); ok && n > 50 && tried < 3 {
			tried++
			r := rand.New(rand.NewPCG(3, uint64(len(v.Salvos))))
			var sum, sum2 float64
			for range probes {
				x := bel.descend(r, nil)
				sum += x
				sum2 += x * x
			}
			mean := sum / probes
			half := 1.96 * math.Sqrt(max(0, sum2/probes-mean*mean)/probes)
			if math.Abs(mean-float64(n)) > 3*half {
				t.Errorf("%d salvos: estimate %.0f ± %.0f, exact %d", len(v.Salvos), mean, half, n)
			}
		}
		mv, _ := b.Move(context.Background(), cfg, 0, v)
		if _, err := st.Apply(0, mv); err != nil {
			t.Fatal(err)
		}
	}
	if tried == 0 {
		t.Error("no position to compare the estimate with")
	}
}
