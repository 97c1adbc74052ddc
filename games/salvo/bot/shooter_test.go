package bot

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/salvo"
)

// twoFleets builds a practice game, under shots_lost_by=owner (so that
// the shooter keeps five shots to the end), in which the battleship, the
// cruiser and both submarines are sunk where only one place fits each,
// and the destroyer, hit on C3 in one salvo and on one of D3 and C4 in
// another, lies either on C3-E3 or on C3-C5: two fleets meet every
// report, told apart by E3 or C5 alone. destroyer says where it lies.
// Every other square but the last few is fired at and missed.
func twoFleets(t *testing.T, destroyer string) (*salvo.State, game.Config) {
	t.Helper()
	f, err := salvo.ParseFleet([]string{"H2-H6", "B9-E9", destroyer, "G8-H8", "I4-J4"})
	if err != nil {
		t.Fatal(err)
	}
	rules := rulesOf(t, map[string]any{salvo.OptShotsLostBy: salvo.LostByOwner})
	st, err := salvo.NewPractice(rules, f)
	if err != nil {
		t.Fatal(err)
	}
	ships := f.Board()
	keep := salvo.BoardOf(mustSquares(t, "C3 D3 E3 C4 C5")...)
	var misses []salvo.Square
	for q := range salvo.Square(salvo.Squares) {
		if !ships.Has(q) && !keep.Has(q) {
			misses = append(misses, q)
		}
	}
	next := func(n int) []string {
		var out []string
		for _, q := range misses[:n] {
			out = append(out, q.String())
		}
		misses = misses[n:]
		return out
	}
	salvos := [][]string{
		append([]string{"C3"}, next(4)...),
		append([]string{"D3", "C4"}, next(3)...),
		{"H2", "H3", "H4", "H5", "H6"},
		append([]string{"B9", "C9", "D9", "E9"}, next(1)...),
		append([]string{"G8", "H8", "I4", "J4"}, next(1)...),
	}
	for len(misses) > 10 {
		salvos = append(salvos, next(5))
	}
	for i, s := range salvos {
		if _, err := st.Apply(0, "fire "+strings.Join(s, " ")); err != nil {
			t.Fatalf("salvo %d %v: %v", i+1, s, err)
		}
	}
	return st, game.Config{Players: []string{"you", "the fleet"}, Rules: rules}
}

func mustSquares(t *testing.T, s string) []salvo.Square {
	t.Helper()
	var out []salvo.Square
	for _, f := range strings.Fields(s) {
		q, err := salvo.ParseSquare(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, q)
	}
	return out
}

// TestStrongTellsFleetsApart: with two fleets left that one square tells
// apart, the strong shooter must not fire at both squares that would
// sink the destroyer (the report would be the same for both fleets, and
// every ship sunk, so its outline would be a guess); it fires at one of
// them, and then outlines the right fleet, whichever it is.
func TestStrongTellsFleetsApart(t *testing.T) {
	for _, d := range []string{"C3-E3", "C3-C5"} {
		t.Run(d, func(t *testing.T) {
			st, cfg := twoFleets(t, d)
			v := st.SeatView(0)
			k := newKnowledge(v, salvo.PlacementOf(cfg.Rules), false)
			all, ok := k.belief().enumerate(100)
			if !ok || len(all) != 2 {
				t.Fatalf("the position leaves %d fleets (listed %v), want 2", len(all), ok)
			}
			e3, c5 := mustSquares(t, "E3")[0], mustSquares(t, "C5")[0]
			for seed := range uint64(8) {
				b, _ := newBot(game.Strong, seed)
				mv, err := b.Move(context.Background(), cfg, 0, v)
				if err != nil {
					t.Fatal(err)
				}
				sq := salvo.BoardOf(mustSquares(t, strings.TrimPrefix(mv, "fire "))...)
				if sq.Has(e3) && sq.Has(c5) {
					t.Errorf("seed %d: %s fires at E3 and C5 together: whatever the report, the outline is a guess", seed, mv)
				}
				if !sq.Has(e3) && !sq.Has(c5) {
					t.Errorf("seed %d: %s fires at neither E3 nor C5, which alone tell the fleets apart", seed, mv)
				}
			}
			for seed := range uint64(8) {
				g, cfg := twoFleets(t, d)
				b, _ := newBot(game.Strong, seed)
				for n := 0; g.Result().Status != game.Finished; n++ {
					if n > 20 {
						t.Fatalf("seed %d: the game does not end", seed)
					}
					mv, err := b.Move(context.Background(), cfg, 0, g.SeatView(0))
					if err != nil {
						t.Fatal(err)
					}
					if _, err := g.Apply(0, mv); err != nil {
						t.Fatalf("seed %d: %s: %v", seed, mv, err)
					}
				}
				if w := g.Result().Winners; len(w) != 1 || w[0] != 0 {
					t.Errorf("seed %d: the outline was wrong (winners %v)", seed, w)
				}
			}
		})
	}
}

// TestConfusionPairs: after a salvo at F2 and F9 hits a submarine once, a
// salvo at F3, G8 and H8 that hits submarines twice and sinks one would
// leave F2-F3 with F8-G8 and F8-F9 with G8-H8 agreeing on every report
// for good (F8 sinks the second submarine in both): no place alone is
// confused, the pair is. The risk must count it, and a salvo at F3, G8
// and J8 instead must cost less.
func TestConfusionPairs(t *testing.T) {
	f, err := salvo.ParseFleet([]string{"B2-B6", "B9-E9", "I5-I7", "F2-F3", "F8-G8"})
	if err != nil {
		t.Fatal(err)
	}
	rules := rulesOf(t, nil)
	st, err := salvo.NewPractice(rules, f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Apply(0, "fire F2 F9 D5 H3 H6"); err != nil {
		t.Fatal(err)
	}
	k := newKnowledge(st.SeatView(0), salvo.PlacementOf(rules), true)
	bel := k.belief()
	ss, _ := bel.draw(context.Background(), rand.New(rand.NewPCG(1, 2)), 300)
	c := newConfusion(bel, ss)
	if c.pairs == nil {
		t.Fatal("no pairs of submarine places listed")
	}
	open := func(sq string) salvo.Board {
		return c.full.AndNot(k.mine).AndNot(salvo.BoardOf(mustSquares(t, sq)...))
	}
	risk := func(sq string, pairs bool) float64 {
		saved := c.pairs
		if !pairs {
			c.pairs = nil
		}
		defer func() { c.pairs = saved }()
		return c.risk(salvo.BoardOf(mustSquares(t, sq)...), open(sq))
	}
	bad, badPlaces := risk("F3 G8 H8", true), risk("F3 G8 H8", false)
	good := risk("F3 G8 J8", true)
	if bad <= badPlaces {
		t.Errorf("F3 G8 H8: risk %.5f with pairs, %.5f without: the pairs added nothing", bad, badPlaces)
	}
	if good >= bad {
		t.Errorf("F3 G8 J8 risks %.5f, not less than F3 G8 H8's %.5f", good, bad)
	}
}
