package bot

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"parlour/bench"
	"parlour/game"
	"parlour/games/wordfight"
	"parlour/lexicon"
)

var benchGames = flag.Int("wordfight.bench", 0, "play this many games per matchup in TestBench and print the table")

var enLex = sync.OnceValue(lexicon.Default)

// vocabs shares vocabularies between the tests' players, which New would
// build afresh for each.
var vocabs sync.Map // rarest -> *vocabulary

// newBot is New with a shared vocabulary.
func newBot(t *testing.T, level string, seed uint64) *Bot {
	t.Helper()
	p, err := levelParams(level)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := vocabs.Load(p.rarest)
	if !ok {
		v, _ = vocabs.LoadOrStore(p.rarest, newVocabulary(enLex(), p.rarest))
	}
	return &Bot{p: p, seed: seed, lex: enLex(), vocab: v.(*vocabulary)}
}

// TestBench runs a small bench; with -wordfight.bench=N it plays N games
// per matchup and prints the table docs/bots.md quotes.
func TestBench(t *testing.T) {
	games := 4
	if testing.Short() {
		games = 2
	}
	if *benchGames > 0 {
		games = *benchGames
	}
	ms, err := Bench(context.Background(), games, 1, enLex())
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != len(pairings()) {
		t.Fatalf("%d matchups, want %d", len(ms), len(pairings()))
	}
	for _, m := range ms {
		if m.Games != games || len(m.Values) != games || len(m.MoveTimes) == 0 {
			t.Errorf("%s: %d games, %d values, %d move times", m.Name, m.Games, len(m.Values), len(m.MoveTimes))
		}
	}
	// The figures that matter, on a handful of games: strong beats the
	// first-placement greedy player, the best-scoring one, and two medium
	// players at one table, more often than not. (The full figures are
	// -wordfight.bench and TestSeeds; see docs/bots.md.)
	for _, i := range []int{3, 5, 6} {
		if s := ms[i].Summary(); s.WinRates[game.Strong] < 0.5 {
			t.Errorf("%s: strong won %.0f%%", s.Name, 100*s.WinRates[game.Strong])
		}
	}
	// The best-scoring greedy player is a real opponent: it beats medium.
	if s := ms[7].Summary(); s.WinRates[BestGreedy] < 0.5 {
		t.Errorf("%s: greedy-best won %.0f%%", s.Name, 100*s.WinRates[BestGreedy])
	}
	if *benchGames > 0 {
		bench.Print(os.Stdout, "Sightless Word Fight", ms)
	}
	if _, err := Bench(context.Background(), 0, 1, enLex()); err == nil {
		t.Error("Bench accepted zero games")
	}
}

// newPlayer returns a player of any level, the baselines included.
func newPlayer(t *testing.T, level string, seed uint64) game.Bot {
	t.Helper()
	if level == BestGreedy {
		return newBestGreedy(seed, enLex(), bestGreedyWords(enLex()))
	}
	return newBot(t, level, seed)
}

func TestNew(t *testing.T) {
	for _, l := range Levels() {
		if _, err := New(l, 1, enLex()); err != nil {
			t.Errorf("New(%q): %v", l, err)
		}
	}
	if _, err := New("grandmaster", 1, enLex()); err == nil {
		t.Error("New accepted an unknown level")
	}
	if _, err := New(game.Strong, 1, nil); err == nil {
		t.Error("New accepted no lexicon")
	}
}

// jsonBot hands its bot the view as JSON, as a remote front end would.
type jsonBot struct{ game.Bot }

func (j jsonBot) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	b, err := json.Marshal(view)
	if err != nil {
		return "", err
	}
	return j.Bot.Move(ctx, cfg, seat, json.RawMessage(b))
}

// record plays one game of levels under opts and returns its moves; every
// move must be legal (Play fails otherwise) and the game must end.
func record(t *testing.T, levels []string, opts map[string]any, seed uint64, viaJSON bool) (string, game.Result) {
	t.Helper()
	rules, err := game.ResolveValues(wordfight.Game{}.Options(), opts)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Ann", "Ben", "Cat", "Dan"}[:len(levels)]
	bots := make([]game.Bot, len(levels))
	for i, l := range levels {
		b := newPlayer(t, l, seed+uint64(i))
		bots[i] = b
		if viaJSON {
			bots[i] = jsonBot{b}
		}
	}
	var moves strings.Builder
	cfg := game.Config{Players: names, Rules: rules, Lexicon: enLex(), Seed: seed}
	st, err := Play(context.Background(), cfg, bots, nil)
	if err != nil {
		t.Fatalf("%v under %v: %v", levels, opts, err)
	}
	r := st.Result()
	if r.Status != game.Finished {
		t.Fatalf("%v under %v: the game did not end", levels, opts)
	}
	v := st.SeatView(game.Spectator)
	for _, e := range v.List {
		fmt.Fprintf(&moves, "%s %v;", e.Word, e.Answers)
	}
	for _, a := range v.Audit {
		if !a.Confirmed {
			t.Errorf("audit of seat %d does not confirm its score", a.Seat)
		}
		// No level says cannot while a placement is open.
		if a.Missed > 0 {
			t.Errorf("%s said cannot with a placement open: %+v", levels[a.Seat], a)
		}
	}
	return moves.String(), r
}

// TestCompleteGames plays every level, with two to four players, under
// varied rules: legal moves only, every game ends, and the same seed gives
// the same game.
func TestCompleteGames(t *testing.T) {
	cases := []struct {
		levels []string
		opts   map[string]any
	}{
		{[]string{game.Easy, game.Easy}, map[string]any{"width": 12, "height": 12}},
		{[]string{game.Medium, Greedy}, nil},
		{[]string{game.Strong, game.Strong}, map[string]any{"width": 10, "height": 10}},
		{[]string{game.Strong, game.Medium, game.Easy}, map[string]any{"width": 12, "height": 8, "strikes_per": "player", "strike_limit": 4}},
		{[]string{Greedy, game.Strong, game.Easy, game.Medium}, map[string]any{"multiply": false, "width": 9, "height": 9}},
		{[]string{game.Strong, Greedy}, map[string]any{"strike_limit": 1, "width": 7, "height": 7, "shape": "#.....#/......./......./...#.../......./......./#.....#"}},
		{[]string{game.Strong, game.Easy}, map[string]any{"width": 5, "height": 5}},
	}
	for i, c := range cases {
		seed := uint64(100 + i)
		a, ra := record(t, c.levels, c.opts, seed, false)
		b, rb := record(t, c.levels, c.opts, seed, true)
		if a != b || fmt.Sprint(ra) != fmt.Sprint(rb) {
			t.Errorf("case %d %v: the same seed played two different games:\n%s\n%s", i, c.levels, a, b)
		}
		t.Logf("%v %v: %v", c.levels, c.opts, ra.Scores)
	}
}

// view builds the view a seat would see after the moves, on a small board.
func view(t *testing.T, opts map[string]any, seat game.Seat, moves ...string) *wordfight.View {
	t.Helper()
	rules, err := game.ResolveValues(wordfight.Game{}.Options(), opts)
	if err != nil {
		t.Fatal(err)
	}
	st, err := wordfight.Start(game.Config{Players: []string{"Ann", "Ben"}, Rules: rules, Lexicon: enLex()})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		s, mv, _ := strings.Cut(m, ":")
		if _, err := st.Apply(game.Seat(s[0]-'0'), mv); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	return st.SeatView(seat)
}

// TestStrongPlacesForMostPoints sets up TOPIC crossing PROMONTORY and
// asks for TOPICAL: strong, medium and greedy-best lay it over TOPIC (5 x 7 = 35);
// greedy takes the first placement it finds.
func TestStrongPlacesForMostPoints(t *testing.T) {
	opts := map[string]any{"width": 12, "height": 12}
	v := view(t, opts, 0, "0:declare promontory", "0:place A2 across", "1:place A2 across",
		"1:declare topic", "0:place E1 down", "1:place E1 down", "0:declare topical")
	for _, l := range []string{game.Strong, game.Medium, BestGreedy} {
		b := newPlayer(t, l, 7)
		mv, err := b.Move(context.Background(), game.Config{}, 0, v)
		if err != nil || mv != "place E1 down" {
			t.Errorf("%s: %q, %v; want place E1 down", l, mv, err)
		}
	}
	b := newBot(t, Greedy, 7)
	if mv, err := b.Move(context.Background(), game.Config{}, 0, v); err != nil || !strings.HasPrefix(mv, "place ") {
		t.Errorf("greedy: %q, %v", mv, err)
	}
	// Nowhere to go: every level says cannot.
	v = view(t, map[string]any{"width": 5, "height": 5}, 0,
		"0:declare zebra", "0:place A1 across", "1:place A1 across", "1:declare quiz")
	for _, l := range Levels() {
		b := newPlayer(t, l, 7)
		if mv, err := b.Move(context.Background(), game.Config{}, 0, v); err != nil || mv != "cannot" {
			t.Errorf("%s: %q, %v; want cannot", l, mv, err)
		}
	}
}

// TestStrongDeclares checks that strong, leading with one strike to go,
// declares a word its rival cannot place: Ben said cannot to MUG, so no
// word of his grid holds U or G, and a word crossing only those letters
// ends the game with Ann ahead.
func TestStrongDeclares(t *testing.T) {
	opts := map[string]any{"strike_limit": 2, "width": 12, "height": 12, "multiply": false}
	v := view(t, opts, 0,
		"0:declare promontory", "0:place A2 across", "1:place A2 across",
		"1:declare mug", "0:place D2 down", "1:cannot")
	for seed := range uint64(5) {
		b := newBot(t, game.Strong, seed)
		mv, err := b.Move(context.Background(), game.Config{}, 0, v)
		if err != nil || !strings.HasPrefix(mv, "declare ") {
			t.Fatalf("strong: %q, %v", mv, err)
		}
		w := strings.TrimPrefix(mv, "declare ")
		g, _ := wordfight.GridFromRows(v.Grid)
		if _, ok := g.CanPlace(enLex(), w); !ok {
			t.Errorf("strong declared %s, which it cannot place", w)
		}
		if strings.ContainsAny(w, "promonty") {
			t.Errorf("strong declared %s, which Ben can likely place", w)
		}
	}
}

// TestBotRefusesForeignViews checks Move's input checks.
func TestBotRefusesForeignViews(t *testing.T) {
	for _, l := range []string{game.Strong, BestGreedy} {
		b, _ := New(l, 1, enLex())
		refusesForeignViews(t, l, b)
	}
}

func refusesForeignViews(t *testing.T, level string, b game.Bot) {
	t.Helper()
	if _, err := b.Move(context.Background(), game.Config{}, 0, "a view"); err == nil {
		t.Errorf("%s: a string view was accepted", level)
	}
	v := view(t, nil, 1)
	if _, err := b.Move(context.Background(), game.Config{}, 0, v); err == nil {
		t.Errorf("%s: another seat's view was accepted", level)
	}
	if _, err := b.Move(context.Background(), game.Config{}, 0, json.RawMessage(`{"seat":`)); err == nil {
		t.Errorf("%s: broken JSON was accepted", level)
	}
}

// TestRandomTables plays bots of random levels at random small tables
// with random rules and masks: every move must be legal and every game end.
func TestRandomTables(t *testing.T) {
	n := 24
	if testing.Short() {
		n = 6
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range n {
		w, h := 5+rng.IntN(6), 5+rng.IntN(6)
		opts := map[string]any{"width": w, "height": h, "multiply": rng.IntN(2) == 0,
			"strikes_per": []string{"word", "player"}[rng.IntN(2)], "strike_limit": 1 + rng.IntN(4)}
		if rng.IntN(2) == 0 {
			rows := make([]string, h)
			for r := range rows {
				b := []byte(strings.Repeat(".", w))
				b[rng.IntN(w)] = '#'
				rows[r] = string(b)
			}
			opts["shape"] = strings.Join(rows, "/")
		}
		levels := make([]string, 2+rng.IntN(3))
		for j := range levels {
			levels[j] = Levels()[rng.IntN(len(Levels()))]
		}
		record(t, levels, opts, uint64(i), i%3 == 0)
	}
}
