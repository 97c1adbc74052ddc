package bot

import (
	"context"
	"flag"
	"math/rand/v2"
	"testing"

	"parlour/games/salvo"
	"parlour/lexicon"
)

var countsFlag = flag.Bool("salvo.counts", false, "also count the fleets of the three other placement rule sets (about 20 s)")

// TestCountFleets checks the exact count of the fleets the default rules
// allow, and that the count is kept with the lexicon: asked again with a
// cancelled context, it still answers. With -salvo.counts it checks
// that, for the three other placement rule sets, the count lies within
// the 95% interval of Knuth's estimate that the analysis gave before.
func TestCountFleets(t *testing.T) {
	t.Parallel()
	lex := lexicon.Default()
	p := salvo.Placement{Strict: true}
	n, err := fleetsBefore(t.Context(), lex, p)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2_636_553_896 {
		t.Errorf("default rules: %d fleets, want 2,636,553,896", n)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if m, err := fleetsBefore(ctx, lex, p); err != nil || m != n {
		t.Errorf("the count kept: %d, %v; want %d", m, err, n)
	}
	if _, err := countFleets(ctx, p); err == nil {
		t.Errorf("countFleets with a cancelled context: no error")
	}
	if !*countsFlag {
		return
	}
	for _, p := range []salvo.Placement{{}, {Diagonal: true}, {Strict: true, Diagonal: true}} {
		n, err := countFleets(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		k := &knowledge{place: p}
		est, err := k.belief().estimate(t.Context(), rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if f := float64(n); f < est.Low || f > est.High {
			t.Errorf("%+v: %d fleets counted, estimated %v (%v-%v)", p, n, est.Fleets, est.Low, est.High)
		}
		t.Logf("%+v: %d fleets (estimate %.0f, %.0f-%.0f)", p, n, est.Fleets, est.Low, est.High)
	}
}

// BenchmarkCountFleets times the count for the default rules.
func BenchmarkCountFleets(b *testing.B) {
	for b.Loop() {
		if _, err := countFleets(b.Context(), salvo.Placement{Strict: true}); err != nil {
			b.Fatal(err)
		}
	}
}
