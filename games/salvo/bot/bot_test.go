package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/game"
	"parlour/games/salvo"
)

func rulesOf(t testing.TB, raw map[string]any) game.Rules {
	t.Helper()
	r, err := game.ResolveValues(salvo.Game{}.Options(), raw)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNew(t *testing.T) {
	for _, l := range append(Levels(), "Strong", " easy ") {
		if _, err := New(l, 1, nil); err != nil {
			t.Errorf("New(%q): %v", l, err)
		}
	}
	if _, err := New("grandmaster", 1, nil); err == nil || !strings.Contains(err.Error(), "no Salvo player called") {
		t.Errorf("New(grandmaster): %v", err)
	}
}

// play runs one game between bots at levels through the referee and
// returns every move, checking that each is accepted and the game ends.
func play(t *testing.T, rules game.Rules, levels []string, seed uint64) ([]string, game.Result) {
	t.Helper()
	ctx := context.Background()
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = fmt.Sprintf("%s-%d", l, i)
	}
	cfg := game.Config{Players: names, Rules: rules, Seed: seed}
	bots := make([]game.Bot, len(levels))
	setups := make([]json.RawMessage, len(levels))
	for i, l := range levels {
		b, err := New(l, seed+uint64(i), nil)
		if err != nil {
			t.Fatal(err)
		}
		bots[i] = b
		raw, err := b.Setup(ctx, cfg, game.Seat(i))
		if err != nil {
			t.Fatal(err)
		}
		if setups[i], err = (salvo.Game{}).CheckSetup(cfg, game.Seat(i), raw); err != nil {
			t.Fatalf("%s's fleet %s refused: %v", l, raw, err)
		}
	}
	st, err := salvo.Game{}.New(cfg, setups)
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for st.Result().Status == game.InProgress {
		if len(moves) > 2000 {
			t.Fatalf("seed %d: the game does not end", seed)
		}
		seat := st.ToMove()[0]
		mv, err := bots[seat].Move(ctx, cfg, seat, st.View(seat))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Apply(seat, mv); err != nil {
			t.Fatalf("seed %d: %s played %q: %v", seed, names[seat], mv, err)
		}
		moves = append(moves, names[seat]+": "+mv)
	}
	return moves, st.Result()
}

// TestCompleteGames plays complete games at every level, two and three
// players, under varied rules: every move is legal, every game ends, and
// the same seed plays the same game.
func TestCompleteGames(t *testing.T) {
	ruleSets := []map[string]any{
		{},
		{salvo.OptPlacement: salvo.PlacementFree, salvo.OptDiagonal: true},
		{salvo.OptShotsLostBy: salvo.LostByOwner, salvo.OptDiagonal: true},
	}
	levels := Levels()
	for i, l := range levels {
		opp := levels[(i+1)%len(levels)]
		raw := ruleSets[i%len(ruleSets)]
		t.Run(l+" vs "+opp, func(t *testing.T) {
			rules := rulesOf(t, raw)
			a, ra := play(t, rules, []string{l, opp}, uint64(10+i))
			b, rb := play(t, rules, []string{l, opp}, uint64(10+i))
			if !slices.Equal(a, b) || fmt.Sprint(ra) != fmt.Sprint(rb) {
				t.Errorf("the same seed played two different games")
			}
			if len(ra.Winners) != 1 {
				t.Errorf("result %+v", ra)
			}
		})
	}
	if testing.Short() {
		return
	}
	t.Run("three players", func(t *testing.T) {
		_, res := play(t, rulesOf(t, nil), []string{game.Strong, game.Medium, HuntTarget}, 3)
		if len(res.Winners) == 0 {
			t.Errorf("result %+v", res)
		}
	})
}

func TestSetup(t *testing.T) {
	for _, raw := range []map[string]any{
		{}, {salvo.OptDiagonal: true}, {salvo.OptPlacement: salvo.PlacementFree},
	} {
		rules := rulesOf(t, raw)
		cfg := game.Config{Players: []string{"a", "b"}, Rules: rules}
		for _, l := range Levels() {
			b, _ := New(l, 5, nil)
			s1, err := b.Setup(context.Background(), cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := (salvo.Game{}).CheckSetup(cfg, 1, s1); err != nil {
				t.Errorf("%s under %v: %s: %v", l, raw, s1, err)
			}
			s2, _ := b.Setup(context.Background(), cfg, 1)
			if string(s1) != string(s2) {
				t.Errorf("%s: two fleets from one seed", l)
			}
		}
	}
}

// TestStrongOutlinesRightly plays the strong shooter against random fleets:
// it must find each in reasonable time and outline it rightly. A salvo
// early in the game can leave two fleets that no later report will tell
// apart; the shooter weighs that risk (confusion.risk) so that it happens
// in fewer than one game in two hundred on the bench, and none of these
// games may outline wrongly.
func TestStrongOutlinesRightly(t *testing.T) {
	games := 16
	if testing.Short() {
		games = 4
	}
	wrong, total := 0, 0
	rules := rulesOf(t, nil)
	for i := range games {
		f := salvo.RandomFleet(rand.New(rand.NewPCG(uint64(i), 99)), salvo.PlacementOf(rules))
		n, right, err := Practice(context.Background(), rules, f, game.Strong, uint64(i), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !right {
			t.Logf("game %d: the strong player outlined %v wrongly", i, f.Strings())
			wrong++
		}
		total += n
		if n > 40 {
			t.Errorf("game %d: %d salvos to sink a fleet", i, n)
		}
	}
	if mean := float64(total) / float64(games); mean > 20 {
		t.Errorf("%.1f salvos a fleet on average, want at most 20 (the bench finds about 16)", mean)
	}
	if wrong > 0 {
		t.Errorf("%d wrong outlines in %d games", wrong, games)
	}
}

func TestHardFleet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range []salvo.Placement{{Strict: true}, {Diagonal: true}, {}} {
		f := HardFleet(context.Background(), r, p)
		if err := p.Check(f); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
	}
}

// TestHardFleetSameOnAnyCores checks that the placer's choice depends on
// its seed alone, not on how many trial games ran at once, and that a
// cancelled search returns the least dense fleet it drew, legal, without
// playing a trial game.
func TestHardFleetSameOnAnyCores(t *testing.T) {
	p := salvo.Placement{Strict: true}
	rounds := []trialRound{{4, 1}, {2, 2}}
	pick := func(procs int) salvo.Fleet {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		return hardFleet(context.Background(), rand.New(rand.NewPCG(3, 4)), p, rounds)
	}
	one, two := pick(1), pick(2)
	if one != two {
		t.Errorf("one core chose %v, two cores %v", one.Strings(), two.Strings())
	}
	if err := p.Check(one); err != nil {
		t.Error(err)
	}
	// A search cancelled before it starts plays no trial game: it returns
	// the least dense of its first round's fleets, which a search of no
	// trial games returns from the same draws.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	f := HardFleet(ctx, rand.New(rand.NewPCG(3, 4)), p)
	t.Logf("a cancelled search returned in %v", time.Since(start))
	if err := p.Check(f); err != nil {
		t.Errorf("a cancelled search: %v", err)
	}
	if least := hardFleet(context.Background(), rand.New(rand.NewPCG(3, 4)), p, []trialRound{{24, 0}}); f != least {
		t.Errorf("a cancelled search chose %v, want the least dense fleet %v", f.Strings(), least.Strings())
	}
}

func TestBench(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every matchup")
	}
	ms, err := Bench(context.Background(), 1, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + 2*len(Levels()) + 6; len(ms) != want {
		t.Fatalf("%d matchups, want %d", len(ms), want)
	}
	for _, m := range ms {
		if strings.HasSuffix(m.Name, "placer's fleets") {
			level := strings.TrimSuffix(m.Name, " vs placer's fleets")
			if m.Over == nil || m.Over.Name != level+" vs random fleets" || m.Paired {
				t.Errorf("%s: compared with %v (paired %v), want %s's random fleets, unpaired", m.Name, m.Over, m.Paired, level)
			}
		}
		s := m.Summary()
		if s.Games != 1 || s.Mean <= 0 || len(m.MoveTimes) == 0 {
			t.Errorf("%s: %+v", m.Name, s)
		}
		// Practice games count wrong outlines exactly: the fleet wins.
		if strings.HasSuffix(m.Name, "fleets") {
			if len(s.Counts) != 1 || s.Counts[0].What != "wrong outlines" || s.Counts[0].N != m.Wins["fleet"] || s.Counts[0].Of != 1 {
				t.Errorf("%s: counts %+v, wins %v", m.Name, s.Counts, m.Wins)
			}
		}
	}
}

func ExampleNew() {
	rules := game.Defaults(salvo.Game{}.Options())
	cfg := game.Config{Players: []string{"Ann", "Bot"}, Rules: rules}
	b, _ := New(game.Strong, 1, nil)
	setup, _ := b.Setup(context.Background(), cfg, 1)
	_, err := salvo.Game{}.CheckSetup(cfg, 1, setup)
	fmt.Println("legal fleet:", err == nil)
	// Output: legal fleet: true
}

// BenchmarkStrongMove times the strong player's salvo in positions taken
// from a game against a random fleet: the opening, after a few salvos, and
// late.
func BenchmarkStrongMove(b *testing.B) {
	rules := game.Defaults(salvo.Game{}.Options())
	f := salvo.RandomFleet(rand.New(rand.NewPCG(3, 4)), salvo.PlacementOf(rules))
	st, err := salvo.NewPractice(rules, f)
	if err != nil {
		b.Fatal(err)
	}
	cfg := game.Config{Players: []string{"you", "the fleet"}, Rules: rules}
	bot, _ := newBot(game.Strong, 1)
	var views []salvo.View
	for st.Result().Status == game.InProgress && len(views) < 12 {
		v := st.SeatView(0)
		views = append(views, v)
		mv, err := bot.Move(context.Background(), cfg, 0, v)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := st.Apply(0, mv); err != nil {
			b.Fatal(err)
		}
	}
	for _, at := range []int{0, 4, len(views) - 1} {
		b.Run(fmt.Sprintf("salvo%d", at+1), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := bot.Move(context.Background(), cfg, 0, views[at]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
