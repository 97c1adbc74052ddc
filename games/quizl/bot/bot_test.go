package bot

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

// playout plays one whole game of bots through the referee, each bot
// setting up its own grid, and returns the record's moves and the result.
func playout(t *testing.T, levels []string, seed uint64, rules map[string]any, lex *lexicon.Lexicon) ([]string, game.Result) {
	t.Helper()
	ctx := context.Background()
	names := make([]string, len(levels))
	bots := make([]game.Bot, len(levels))
	for i, l := range levels {
		names[i] = fmt.Sprintf("%s%d", l, i)
		b, err := New(l, seed+uint64(i), lex)
		if err != nil {
			t.Fatal(err)
		}
		bots[i] = b
	}
	rs, err := game.ResolveValues(quizl.Game{}.Options(), rules)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Players: names, Rules: rs, Lexicon: lex, Seed: seed}
	setups := make([]json.RawMessage, len(levels))
	for i, b := range bots {
		raw, err := b.Setup(ctx, cfg, game.Seat(i))
		if err != nil {
			t.Fatal(err)
		}
		if setups[i], err = (quizl.Game{}).CheckSetup(cfg, game.Seat(i), raw); err != nil {
			t.Fatalf("%s made an illegal grid: %v", levels[i], err)
		}
	}
	st, err := quizl.Game{}.New(cfg, setups)
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for len(st.ToMove()) > 0 {
		if len(moves) > 400 {
			t.Fatalf("game %v seed %d does not end: %v", levels, seed, moves)
		}
		s := st.ToMove()[0]
		mv, err := bots[s].Move(ctx, cfg, s, st.View(s))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Apply(s, mv); err != nil {
			t.Fatalf("%s played the illegal move %q: %v", levels[s], mv, err)
		}
		moves = append(moves, fmt.Sprintf("%d:%s", s, mv))
	}
	return moves, st.Result()
}

// TestLevelsPlayWholeGames plays games at every level, with two to four
// players and under several rule options: only legal moves, every game
// ends, and the same seed gives the same game.
func TestLevelsPlayWholeGames(t *testing.T) {
	lex := lexicon.Default()
	tables := [][]string{
		{game.Strong, game.Easy},
		{game.Medium, game.Strong},
		{game.Easy, game.Medium, game.Strong},
		{game.Easy, game.Easy, game.Medium, game.Strong},
	}
	rules := []map[string]any{nil, {quizl.OptPenalty: 0}, {quizl.OptPenalty: 5, quizl.OptAward: 10}}
	for i, levels := range tables {
		for j, r := range rules {
			if (testing.Short() || i > 0) && j > 0 {
				continue // every rule set on the first table only
			}
			seed := uint64(10*i + j)
			moves, res := playout(t, levels, seed, r, lex)
			if res.Status != game.Finished {
				t.Fatalf("%v: not finished", levels)
			}
			if i == 0 {
				again, res2 := playout(t, levels, seed, r, lex)
				if !slices.Equal(moves, again) || !slices.Equal(res.Scores, res2.Scores) {
					t.Fatalf("%v seed %d: two different games from one seed", levels, seed)
				}
			}
		}
	}
}

// TestSolitaire: every level finds the password of a grid the grid maker
// hid, without tripping.
func TestSolitaire(t *testing.T) {
	lex := lexicon.Default()
	ctx := context.Background()
	var grids []*quizl.Grid
	for seed := range uint64(3) {
		g, err := Grid(t.Context(), "", game.Medium, seed, lex)
		if err != nil {
			t.Fatal(err)
		}
		grids = append(grids, g)
	}
	for _, l := range []string{game.Easy, game.Medium, game.Strong} {
		b, err := New(l, 3, lex)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range grids {
			cfg := game.Config{Players: []string{"solver"}, Rules: game.Defaults(quizl.Game{}.Options()), Lexicon: lex}
			st, err := quizl.NewStateGrids(cfg, []*quizl.Grid{g})
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; len(st.ToMove()) > 0; n++ {
				mv, err := b.Move(ctx, cfg, 0, st.ViewOf(0))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := st.Apply(0, mv); err != nil {
					t.Fatalf("%s: illegal move %q: %v", l, mv, err)
				}
			}
			if v := st.ViewOf(0); v.Boards[0].Outcome != quizl.Right {
				t.Errorf("%s solver did not find %s: %s after %v", l, g.Password, v.Boards[0].Outcome, v.Called)
			}
		}
	}
}

// TestNeverTrips: with four letters of the password's line seen, no level
// calls the fifth square: each announces the word (PSALM is not in the
// easy level's vocabulary, yet the easy solver must not trip over it).
func TestNeverTrips(t *testing.T) {
	lex := lexicon.Default()
	g, err := quizl.NewGrid([]string{"TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"}, "PSALM", lex)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Players: []string{"solver"}, Rules: game.Defaults(quizl.Game{}.Options()), Lexicon: lex}
	for _, l := range []string{game.Easy, game.Medium, game.Strong} {
		st, _ := quizl.NewStateGrids(cfg, []*quizl.Grid{g})
		for _, sq := range []string{"54", "64", "74", "84"} {
			if _, err := st.Apply(0, sq); err != nil {
				t.Fatal(err)
			}
		}
		b, _ := New(l, 1, lex)
		for len(st.ToMove()) > 0 {
			mv, err := b.Move(context.Background(), cfg, 0, st.ViewOf(0))
			if err != nil {
				t.Fatal(err)
			}
			if mv == "94" {
				t.Fatalf("%s called 94 with P S A L ? showing in column 4", l)
			}
			if _, err := st.Apply(0, mv); err != nil {
				t.Fatal(err)
			}
		}
		if o := st.ViewOf(0).Boards[0].Outcome; o != quizl.Right {
			t.Errorf("%s: outcome %s", l, o)
		}
	}
}

func TestGrid(t *testing.T) {
	lex := lexicon.Default()
	for _, l := range []string{game.Easy, game.Medium, game.Strong} {
		a, err := Grid(t.Context(), "crane", l, 5, lex)
		if err != nil {
			t.Fatal(err)
		}
		if a.Password != "CRANE" || a.Check(lex) != nil {
			t.Errorf("%s: grid %v around %s is not legal", l, a.Rows(), a.Password)
		}
		b, _ := Grid(t.Context(), "crane", l, 5, lex)
		if *a != *b {
			t.Errorf("%s: two grids from one seed", l)
		}
		c, err := Grid(t.Context(), "", l, 5, lex)
		if err != nil || c.Check(lex) != nil {
			t.Errorf("%s: no grid for a chosen password: %v", l, err)
		}
	}
	if _, err := Grid(t.Context(), "sheep", game.Strong, 1, lex); err == nil {
		t.Error("a grid around SHEEP")
	}
	if _, err := Grid(t.Context(), "crane", "grandmaster", 1, lex); err == nil {
		t.Error("a grid at an unknown level")
	}
}

func TestNewRefuses(t *testing.T) {
	if _, err := New("expert", 1, lexicon.Default()); err == nil {
		t.Error("an unknown level was accepted")
	}
	if _, err := New(game.Easy, 1, nil); err == nil {
		t.Error("no lexicon was accepted")
	}
	b, _ := New(game.Easy, 1, lexicon.Default())
	if _, err := b.Move(context.Background(), game.Config{}, 0, "a view"); err == nil {
		t.Error("a string was taken for a view")
	}
}

// TestGridsLegal makes medium and strong grids around many passwords:
// every one must pass the referee's check.
func TestGridsLegal(t *testing.T) {
	lex := lexicon.Default()
	for i, pw := range quizl.Passwords(lex, 35)[:40] {
		levels := []string{game.Medium}
		if i%5 == 0 {
			levels = append(levels, game.Strong) // the strong one plays trial games: slower
		}
		for _, l := range levels {
			g, err := Grid(t.Context(), pw, l, uint64(i), lex)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Check(lex); err != nil {
				t.Errorf("%s grid around %s: %v", l, pw, err)
			}
		}
	}
}

// TestHide: hide uses rows and columns both, draws the index of the line
// rather than always taking one, prefers the index whose letters say
// least (the last, with the English lexicon) to the one whose letters say
// most, and draws the same line again from the same seed.
func TestHide(t *testing.T) {
	lex := lexicon.Default()
	d := newDecoys(newVocab(lex, 100))
	most, least := 0, 0
	for k := range quizl.Size {
		if d.posH[k] < d.posH[most] {
			most = k
		}
		if d.posH[k] > d.posH[least] {
			least = k
		}
	}
	if most != 4 {
		t.Errorf("the most predictable position is %d, want the last (4) with the English lexicon", most)
	}
	strong, _ := levelOf(game.Strong)
	var byIndex [quizl.Size]int
	for _, pw := range quizl.Passwords(lex, 35)[:40] {
		pw = strings.ToUpper(pw)
		var rows, cols int
		seen := map[int]bool{}
		for s := range uint64(64) {
			ln := d.hide(pw, strong.predictable, rand.New(rand.NewPCG(s, 1)))
			if ln.IsRow() {
				rows++
			} else {
				cols++
			}
			seen[int(ln)%quizl.Size] = true
			byIndex[int(ln)%quizl.Size]++
			if again := d.hide(pw, strong.predictable, rand.New(rand.NewPCG(s, 1))); again != ln {
				t.Fatalf("%s, seed %d: hidden on %s, then on %s", pw, s, ln, again)
			}
		}
		if rows == 0 || cols == 0 {
			t.Errorf("%s: %d rows and %d columns in 64 hidings", pw, rows, cols)
		}
		if len(seen) < 2 {
			t.Errorf("%s: hidden at index %v only in 64 hidings", pw, seen)
		}
	}
	if byIndex[most] <= byIndex[least] {
		t.Errorf("hidings by index %v: the predictable index %d is not preferred to %d", byIndex, most, least)
	}
}

func TestNearBest(t *testing.T) {
	for _, c := range []struct {
		scores []float64
		tie    float64
		want   int
	}{
		{nil, nearTie, 0},
		{[]float64{1}, nearTie, 1},
		{[]float64{1, 0.995, 0.98}, nearTie, 2},
		{[]float64{1, 0.995, 0.98}, 0.03, 3},
		{[]float64{1, 0.995, 0.98}, 0, 1},
		{[]float64{-1, -1.005, -1.2}, nearTie, 2},
		{[]float64{-1, -1.005, -1.2}, 0.25, 3},
		{[]float64{0, 0, 0}, nearTie, 3},
		{[]float64{2, 1}, nearTie, 1},
		{[]float64{2, 1}, 0.6, 2},
	} {
		if got := nearBest(c.scores, c.tie, func(x float64) float64 { return x }); got != c.want {
			t.Errorf("nearBest(%v, %v) = %d, want %d", c.scores, c.tie, got, c.want)
		}
	}
}

// TestOpeningVaries checks that the strong solver does not open on the
// same square in every game, which a grid maker could learn to avoid, and
// that one seed still gives one opening.
func TestOpeningVaries(t *testing.T) {
	lex := lexicon.Default()
	g, err := Grid(t.Context(), "", game.Medium, 1, lex)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Players: []string{"solver"}, Rules: game.Defaults(quizl.Game{}.Options()), Lexicon: lex}
	first := func(seed uint64) string {
		t.Helper()
		st, err := quizl.NewStateGrids(cfg, []*quizl.Grid{g})
		if err != nil {
			t.Fatal(err)
		}
		b, err := New(game.Strong, seed, lex)
		if err != nil {
			t.Fatal(err)
		}
		mv, err := b.Move(context.Background(), cfg, 0, st.ViewOf(0))
		if err != nil {
			t.Fatal(err)
		}
		return mv
	}
	seen := map[string]bool{}
	for seed := range uint64(20) {
		seen[first(seed)] = true
	}
	if len(seen) < 3 {
		t.Errorf("20 seeds opened on only %v", seen)
	}
	if a, b := first(7), first(7); a != b {
		t.Errorf("seed 7 opened on %s and then %s", a, b)
	}
}

// TestSubsets: a line that shares many letters, in place, with common
// words scores higher by decoys.subsets than the same letters in an order
// no word has, and more of them in place scores higher still.
func TestSubsets(t *testing.T) {
	d := newDecoys(newVocab(lexicon.Default(), 100))
	line := func(s string) *[5]uint8 {
		var b [5]uint8
		for i := range 5 {
			b[i] = s[i] - 'A'
		}
		return &b
	}
	for _, c := range []struct{ better, worse string }{
		{"BLANQ", "QNLBA"}, // four letters of BLANK in place
		{"STORX", "XROTS"}, // four of STORE, STORM, STORY
		{"STORX", "SXORQ"}, // four in place beat three
		{"CRANX", "CRXQZ"},
		{"MOUTZ", "ZTUOM"},
	} {
		b, w := d.subsets(line(c.better)), d.subsets(line(c.worse))
		if b <= w {
			t.Errorf("subsets(%s) = %.2f, not above subsets(%s) = %.2f", c.better, b, c.worse, w)
		}
	}
}

// TestHardest: hardest picks the grid whose trial games cost the panel
// most, as trial counts them, each solver's mean cost over its tables
// weighed by its norm, by the panel's mean, by its least, or a mix of the
// two, the earlier of equals; and a trial game ends with the password
// found, at a cost of at least one call.
func TestHardest(t *testing.T) {
	t.Parallel()
	lex := lexicon.Default()
	ctx := t.Context()
	var gs []*quizl.Grid
	for s, pw := range []string{"crane", "psalm", "mouth", "ghost"} {
		g, err := quizl.RandomGrid(pw, lex, uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	names := []string{game.Strong, panelLine, panelInfo}
	var panel []seat
	for i, l := range names {
		for k := range 2 {
			b, err := panelist(l, uint64(i), lex)
			if err != nil {
				t.Fatal(err)
			}
			panel = append(panel, seat{b, uint64(10*i + k), i})
		}
	}
	norm := []float64{8, 11, 9}
	// cost[i][g] is grid i's mean cost to group g over its norm.
	cost := make([][]float64, len(gs))
	for i, g := range gs {
		cost[i] = make([]float64, len(names))
		for _, s := range panel {
			n, err := trial(ctx, s.solver, g, s.seed, lex)
			if err != nil {
				t.Fatal(err)
			}
			if n < 1 {
				t.Errorf("%s solver found %s at a cost of %d", s.solver.label(), g.Password, n)
			}
			cost[i][s.group] += float64(n) / 2 / norm[s.group]
		}
	}
	for _, mix := range []float64{0, 0.5, 1} {
		want, wantWorth := -1, -1.0
		for i := range gs {
			mean, least := 0.0, cost[i][0]
			for _, c := range cost[i] {
				mean += c / float64(len(names))
				least = min(least, c)
			}
			if w := (1-mix)*mean + mix*least; w > wantWorth+1e-12 {
				want, wantWorth = i, w
			}
		}
		got, err := hardest(ctx, gs, panel, norm, mix, lex)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("mix %.1f: hardest = %d, want %d (costs %.2f)", mix, got, want, cost)
		}
	}
	if got, _ := hardest(ctx, []*quizl.Grid{gs[0], gs[0]}, panel, norm, 0.5, lex); got != 0 {
		t.Errorf("hardest of one grid twice = %d, want the first", got)
	}
}

// TestGridCancelled: a grid maker whose context has ended says so and
// makes nothing.
func TestGridCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, l := range []string{game.Medium, game.Strong} {
		g, err := Grid(ctx, "crane", l, 1, lexicon.Default())
		if !errors.Is(err, context.Canceled) || g != nil {
			t.Errorf("%s: Grid with a cancelled context = %v, %v", l, g, err)
		}
	}
}

// TestGridOn: the grid maker fills around a password the player chose,
// on the line they chose, at every level, and refuses what cannot be one.
func TestGridOn(t *testing.T) {
	lex := lexicon.Default()
	for i, l := range []string{game.Easy, game.Medium, game.Strong} {
		line := quizl.Line(3 + 3*i) // row 8, column 1, column 4
		g, random, err := GridOn(t.Context(), "crane", line, l, uint64(i), lex)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if random {
			t.Errorf("%s: the grid was filled at random", l)
		}
		if g.Line != line || g.Read(line) != "CRANE" || g.Password != "CRANE" {
			t.Errorf("%s: want CRANE on %v; the password %s is on %v, which reads %s", l, line, g.Password, g.Line, g.Read(line))
		}
		if err := (&quizl.Grid{Letters: g.Letters, Password: g.Password}).Check(lex); err != nil {
			t.Errorf("%s: the grid is not legal: %v", l, err)
		}
	}
	for _, tc := range []struct {
		pw, level string
		line      quizl.Line
		err       string
	}{
		{"", game.Medium, 0, "no password"},
		{"crane", game.Medium, -1, "no line"},
		{"crane", game.Medium, 10, "no line"},
		{"crane", "wily", 0, "no Quizl level"},
		{"sheep", game.Medium, 0, "repeats"},
		{"qxzvj", game.Easy, 0, "not a word"},
	} {
		if _, _, err := GridOn(t.Context(), tc.pw, tc.line, tc.level, 1, lex); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("GridOn(%q, %d, %s) = %v, want an error containing %q", tc.pw, tc.line, tc.level, err, tc.err)
		}
	}
}

func TestRaceTheta(t *testing.T) {
	const theta = 0.35
	board := &quizl.Board{Penalty: 1}
	tests := []struct {
		name   string
		v      quizl.View
		want   float64
		within bool // want theta times a fraction strictly between 0 and 1
	}{
		{"opponent still playing", quizl.View{Seat: 0, Done: []bool{false, false}, Scores: []int{0, 0}, Called: make([]string, 6)}, theta, false},
		{"solitaire", quizl.View{Seat: 0, Done: []bool{false}, Scores: []int{0}, Called: make([]string, 6)}, theta, false},
		{"spectator", quizl.View{Seat: -1, Done: []bool{true, true}, Scores: []int{3, 4}}, theta, false},
		// 25 - 6 calls - 1 penalty = 18 at most: 17 to beat leaves none spare.
		{"no spare point", quizl.View{Seat: 0, Done: []bool{false, true}, Scores: []int{0, 17}, Called: make([]string, 6)}, 0, false},
		{"only a draw in reach", quizl.View{Seat: 0, Done: []bool{false, true}, Scores: []int{0, 18}, Called: make([]string, 6)}, 0, false},
		{"lost beyond reach", quizl.View{Seat: 0, Done: []bool{false, true}, Scores: []int{0, 20}, Called: make([]string, 6)}, theta, false},
		{"two spare points", quizl.View{Seat: 0, Done: []bool{false, true}, Scores: []int{0, 15}, Called: make([]string, 6)}, theta * 3 / 6, true},
		{"far ahead", quizl.View{Seat: 0, Done: []bool{false, true}, Scores: []int{0, 5}, Called: make([]string, 6)}, theta, false},
		{"best of two done opponents", quizl.View{Seat: 1, Done: []bool{true, false, true}, Scores: []int{17, 0, 9}, Called: make([]string, 6)}, 0, false},
	}
	for _, tt := range tests {
		got := raceTheta(&tt.v, board, theta, -1)
		if math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: raceTheta = %v, want %v", tt.name, got, tt.want)
		}
		if tt.within && !(got > 0 && got < theta) {
			t.Errorf("%s: %v not between 0 and %v", tt.name, got, theta)
		}
	}
}

// annAndStrong returns the two-player game of the race tests: Ann's
// random grid (password CRANE) and strong's, whose password is PSALM.
func annAndStrong(t *testing.T, lex *lexicon.Lexicon) (game.Config, *quizl.Grid, *quizl.Grid) {
	t.Helper()
	mine, err := quizl.NewGrid([]string{"TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"}, "PSALM", lex)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := quizl.RandomGrid("crane", lex, 3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Players: []string{"ann", "strong"}, Rules: game.Defaults(quizl.Game{}.Options()), Lexicon: lex}
	return cfg, theirs, mine
}

// TestStrongRaces plays a two-player position where the opponent has just
// announced its password right, leaving strong only a draw within reach:
// strong then announces its likeliest word rather than call a square,
// which would lose outright; with the opponent still playing, it calls.
func TestStrongRaces(t *testing.T) {
	lex := lexicon.Default()
	cfg, theirs, mine := annAndStrong(t, lex)
	position := func(last string) *quizl.State {
		st, err := quizl.NewStateGrids(cfg, []*quizl.Grid{theirs, mine})
		if err != nil {
			t.Fatal(err)
		}
		for i, mv := range []string{"50", "50", "52", "92", "54", "94", last} {
			if _, err := st.Apply(game.Seat(i%2), mv); err != nil {
				t.Fatalf("%s: %v", mv, err)
			}
		}
		return st
	}
	b, _ := New(game.Strong, 1, lex)
	// Ann announced PSALM after three calls: 22 points. Strong has called
	// three squares: 22 at most, a draw if it announces right now.
	st := position("say psalm")
	if v := st.ViewOf(1); !v.Done[0] || v.Scores[0] != 22 {
		t.Fatalf("ann: done %v, score %d; want done on 22", v.Done[0], v.Scores[0])
	}
	mv, err := b.Move(context.Background(), cfg, 1, st.ViewOf(1))
	if err != nil || !strings.HasPrefix(mv, "say ") {
		t.Errorf("strong, a draw in reach only if it announces now: %q, %v; want an announcement", mv, err)
	}
	// The same calls with Ann still playing: strong calls a square.
	st = position("60")
	mv, err = b.Move(context.Background(), cfg, 1, st.ViewOf(1))
	if err != nil || strings.HasPrefix(mv, "say ") {
		t.Errorf("strong, with Ann still playing: %q, %v; want a call", mv, err)
	}
}

// TestRivalTarget checks that strong foresees the opponent's score only
// when what the opponent's calls showed of strong's grid make strong's
// password the opponent's likeliest word: then the opponent is about to
// announce it, scoring 25 less its calls and penalties.
func TestRivalTarget(t *testing.T) {
	lex := lexicon.Default()
	cfg, theirs, mine := annAndStrong(t, lex)
	b, err := newBot(game.Strong, 1, lex)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		ann   []string // Ann's moves; strong answers each with a call of its own
		rival float64
		want  int
	}{
		// P, S, A and L of column 4: PSALM is all Ann can think of.
		{"four letters of the password seen", []string{"54", "64", "74", "84"}, 0.5, 21},
		{"and a wrong word first", []string{"say plant", "54", "64", "74", "84"}, 0.5, 20},
		{"foresight off", []string{"54", "64", "74", "84"}, 0, -1},
		// Knowing as much, Ann called another square: she does not
		// announce when the reckoning says she will.
		{"and then a pass", []string{"54", "64", "74", "84", "50"}, 0.5, -1},
		{"three letters, then the fourth", []string{"54", "64", "74", "50", "84"}, 0.5, 20},
		{"nothing of the password seen", []string{"50", "61", "72", "83"}, 0.5, -1},
		{"one letter seen", []string{"54"}, 0.5, -1},
	}
	strongCalls := []string{"50", "51", "52", "53", "54", "60", "61"}
	for _, tt := range tests {
		st, err := quizl.NewStateGrids(cfg, []*quizl.Grid{theirs, mine})
		if err != nil {
			t.Fatal(err)
		}
		for i, mv := range tt.ann {
			if _, err := st.Apply(0, mv); err != nil {
				t.Fatalf("%s: ann %s: %v", tt.name, mv, err)
			}
			if _, err := st.Apply(1, strongCalls[i]); err != nil {
				t.Fatalf("%s: strong %s: %v", tt.name, strongCalls[i], err)
			}
		}
		b.lv.rival = tt.rival
		v := st.ViewOf(1)
		if got := b.rivalTarget(&v, b.vocab(lex)[1]); got != tt.want {
			t.Errorf("%s: rivalTarget = %d, want %d", tt.name, got, tt.want)
		}
	}
	// Ann done: the race knows her score without foresight; in
	// solitaire there is nobody to foresee.
	b.lv.rival = 0.5
	st, _ := quizl.NewStateGrids(cfg, []*quizl.Grid{theirs, mine})
	for i, mv := range []string{"54", "64", "74", "84", "say psalm"} {
		if _, err := st.Apply(0, mv); err != nil {
			t.Fatal(err)
		}
		if i < 4 {
			if _, err := st.Apply(1, strongCalls[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if v := st.ViewOf(1); b.rivalTarget(&v, b.vocab(lex)[1]) != -1 {
		t.Errorf("ann done: rivalTarget foresaw a score")
	}
	solo := quizl.View{Seat: 0, Players: []string{"solver"}, Done: []bool{false}, Scores: []int{0}}
	if got := b.rivalTarget(&solo, b.vocab(lex)[1]); got != -1 {
		t.Errorf("solitaire: rivalTarget = %d, want -1", got)
	}
}

// TestRaceThetaForeseen checks that a foreseen score stands in for an
// opponent still playing in a two-player game, and for nobody with more
// players.
func TestRaceThetaForeseen(t *testing.T) {
	const theta = 0.35
	board := &quizl.Board{Penalty: 1}
	two := quizl.View{Seat: 0, Done: []bool{false, false}, Scores: []int{0, 0}, Called: make([]string, 6)}
	if got := raceTheta(&two, board, theta, 17); got != 0 {
		t.Errorf("two players, 17 foreseen with 18 at most: raceTheta = %v, want 0", got)
	}
	if got := raceTheta(&two, board, theta, -1); got != theta {
		t.Errorf("two players, nothing foreseen: raceTheta = %v, want %v", got, theta)
	}
	three := quizl.View{Seat: 0, Done: []bool{false, false, true}, Scores: []int{0, 0, 5}, Called: make([]string, 6)}
	if got := raceTheta(&three, board, theta, 17); got != theta {
		t.Errorf("three players, one still playing: raceTheta = %v, want %v", got, theta)
	}
}

// TestDecoyLines checks that a word announced wrongly which fits a row
// makes the other rows likelier, not the columns, and that a wrong word
// fitting no line with three letters known changes nothing.
func TestDecoyLines(t *testing.T) {
	board := &quizl.Board{Grid: []string{".....", "CRAN.", ".....", ".....", "....."}, Wrong: []string{"CRANE"}}
	k := read(board)
	k.parallel = 1
	var pat [quizl.Lines][5]int8
	for l := range quizl.Line(quizl.Lines) {
		for i := range quizl.Size {
			pat[l][i] = k.known[l.Square(i)]
		}
	}
	got := decoyLines(k, &pat)
	for l := range quizl.Line(quizl.Lines) {
		want := 0.0
		if l.IsRow() && l != 1 {
			want = 1
		}
		if got[l] != want {
			t.Errorf("line %v: %v, want %v", l, got[l], want)
		}
	}
	k.wrong = []string{"SLATE"}
	if got := decoyLines(k, &pat); got != [quizl.Lines]float64{} {
		t.Errorf("a wrong word fitting no line: %v, want nothing", got)
	}
	// In the analysis, the rows gain weight against the columns.
	k.wrong = []string{"CRANE"}
	v := newVocab(lexicon.Default(), 100)
	k.parallel = 0
	before := analyse(v, k)
	k.parallel = 1
	after := analyse(v, k)
	rows := func(a *analysis) float64 {
		var p float64
		for l := range quizl.Line(quizl.Size) {
			if l != 1 {
				p += a.linesP[l]
			}
		}
		return p
	}
	if !(rows(after) > rows(before)) {
		t.Errorf("the other rows hold %.3f with the decoy weighed, %.3f without; want more", rows(after), rows(before))
	}
}

// TestShapeLines checks that rows reading like the starts of common words
// make the rows likelier to hold the password than the columns, whose
// letters read like nothing, and that a row's own word-like letters do
// not count for it, only its parallels'.
func TestShapeLines(t *testing.T) {
	lex := lexicon.Default()
	v := newVocab(lex, 100)
	d := decoysOf(lex, v)
	// Rows 5 and 6 read CRAN. and SLOT. (near common words); the columns
	// through them read CS..., RL... and so on, nothing much.
	board := &quizl.Board{Grid: []string{"CRAN.", "SLOT.", ".....", ".....", "....."}}
	k := read(board)
	var pat [quizl.Lines][5]int8
	for l := range quizl.Line(quizl.Lines) {
		for i := range quizl.Size {
			pat[l][i] = k.known[l.Square(i)]
		}
	}
	got := shapeLines(d, &pat)
	if !(got[2] > got[7]) {
		t.Errorf("row 7 %.2f, column 2 %.2f: want the row likelier", got[2], got[7])
	}
	if !(got[2] > got[0]) {
		t.Errorf("row 7 %.2f, row 5 %.2f: want row 7, whose parallels read like words, likelier", got[2], got[0])
	}
	// In the analysis, the rows other than 5 and 6 gain against the
	// columns when the shapes are weighed.
	before := analyse(v, k)
	k.shapes, k.shapeW = d, 1
	after := analyse(v, k)
	rows := func(a *analysis) float64 { return a.linesP[2] + a.linesP[3] + a.linesP[4] }
	if !(rows(after) > rows(before)) {
		t.Errorf("rows 7-9 hold %.3f with shapes weighed, %.3f without; want more", rows(after), rows(before))
	}
	// A line with nothing known says nothing.
	empty := [5]int8{-1, -1, -1, -1, -1}
	if w := d.wordlike(&empty); w != 0 {
		t.Errorf("wordlike of an unknown line: %v, want 0", w)
	}
}

// TestHideShares checks the shares of a setter hiding by the first
// measure of hide: they sum to one, none is above the cap, and a solver
// weighing them puts more belief on the line index a word is likeliest to
// be hidden at than on the one it is least likely at, where nothing else
// tells the two apart.
func TestHideShares(t *testing.T) {
	lex := lexicon.Default()
	full := newVocab(lex, 100)
	d := decoysOf(lex, full)
	told := 0
	for _, w := range []string{"CRANE", "PSALM", "MOUTH", "JUMPY"} {
		i := slices.IndexFunc(full.words, func(e entry) bool { return e.word == w })
		if i < 0 {
			t.Fatalf("%s is not in the vocabulary", w)
		}
		b := full.words[i].b
		// A vocabulary of this word alone, so that the lines differ only
		// by where a setter hides it.
		v := (&vocab{words: full.words[i : i+1]}).withHiding(d)
		p := d.hideShares(&b)
		var sum float64
		hi, lo := 0, 0
		for k, x := range p {
			sum += x
			if x > hideCap+1e-9 {
				t.Errorf("%s: index %d has share %.3f, above the cap %v", w, k, x, hideCap)
			}
			if x > p[hi] {
				hi = k
			}
			if x < p[lo] {
				lo = k
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: shares sum to %v", w, sum)
		}
		if p[hi] <= p[lo] {
			continue // indifferent: nothing to tell apart
		}
		told++
		// One letter seen, on no line of index hi or lo (the word's
		// letters hold none of those the grid shows): rows hi and lo then
		// differ only by the shares.
		var off byte
		for c := byte('Z'); c >= 'A'; c-- {
			if !strings.ContainsRune(w, rune(c)) {
				off = c
				break
			}
		}
		rows := make([]string, 5)
		for r := range rows {
			rows[r] = "....."
		}
		spare := 0
		for spare == hi || spare == lo {
			spare++
		}
		rows[spare] = string(off) + "...."
		if hi == 0 || lo == 0 {
			rows[spare] = "...." + string(off)
		}
		k := read(&quizl.Board{Grid: rows})
		k.hidden = 1
		a := analyse(v, k)
		if !(a.linesP[hi] > a.linesP[lo]) {
			t.Errorf("%s: row index %d (share %.2f) holds %.4f, index %d (share %.2f) %.4f; want the first more", w, hi, p[hi], a.linesP[hi], lo, p[lo], a.linesP[lo])
		}
		k.hidden = 0
		if a := analyse(v, k); math.Abs(a.linesP[hi]-a.linesP[lo]) > 1e-9 {
			t.Errorf("%s: unweighed, rows %d and %d differ: %.4f, %.4f", w, hi, lo, a.linesP[hi], a.linesP[lo])
		}
	}
	if told == 0 {
		t.Error("no word had a likeliest index")
	}
}

// TestWrongRun counts the viewer's wrong announcements since its last
// call or right announcement, whatever the other seats did between them.
func TestWrongRun(t *testing.T) {
	t.Parallel()
	boards := []quizl.Board{{Name: "ann", Wrong: []string{"CRANE", "PLANT", "SLATE"}}, {Name: "ben", Wrong: []string{"MOUSE"}}}
	tests := []struct {
		name  string
		moves []quizl.Seen
		want  int
	}{
		{"no moves", nil, 0},
		{"a call last", []quizl.Seen{{Seat: 1, Move: "say crane"}, {Seat: 1, Move: "52"}}, 0},
		{"two wrong since a call", []quizl.Seen{{Seat: 1, Move: "52"}, {Seat: 1, Move: "say crane"}, {Seat: 0, Move: "60"}, {Seat: 1, Move: "say PLANT"}}, 2},
		{"three players, named", []quizl.Seen{{Seat: 1, Move: "say ann slate"}, {Seat: 1, Move: "say ben mouse"}, {Seat: 1, Move: "say ann crane"}}, 3},
		{"a right word breaks the run", []quizl.Seen{{Seat: 1, Move: "say slate"}, {Seat: 1, Move: "say psalm"}, {Seat: 1, Move: "say crane"}}, 1},
		{"the other seat's wrong words", []quizl.Seen{{Seat: 0, Move: "say crane"}, {Seat: 0, Move: "say plant"}}, 0},
	}
	for _, tt := range tests {
		v := quizl.View{Seat: 1, Boards: boards, Moves: tt.moves}
		if got := wrongRun(&v); got != tt.want {
			t.Errorf("%s: wrongRun = %d, want %d", tt.name, got, tt.want)
		}
	}
}

var collapseGames = flag.Int("quizl.collapse", 0, "play this many two-player games of strong against each rival in TestWrongAnnouncements (default 2)")

// Strong's wrong announcements in two-player games may come at most
// maxWrongRun in a row, make up at most wrongShareGame of its moves in any
// one game of more than a few moves, and at most wrongShareAll of its
// moves over all the games. Strong announces whenever the likeliest word
// is worth a wrong announcement's penalty, so some are expected (about a
// sixth of its moves against itself, on the bench); the shares are loose
// enough for a bad game and catch only a collapse into guessing.
const (
	wrongShareAll  = 0.25
	wrongShareGame = 0.5
	// wrongShareMoves is how many moves a game must hold for its share to
	// count: in a game of five moves two wrong announcements already make
	// 40%.
	wrongShareMoves = 8
)

// TestWrongAnnouncements plays strong against each of collapseRivals,
// above all the line-shadowing baseline, which calls along strong's
// password line and never announces, and checks that strong never makes
// more than maxWrongRun wrong announcements in a row, nor more than the
// shares above. The shadowing baseline is the hard case: strong foresees
// that a rival who has seen a password's line will announce it, and a
// rival who never does must not lead it to announce wrongly again and
// again. -quizl.collapse N plays N games a rival.
func TestWrongAnnouncements(t *testing.T) {
	t.Parallel()
	n := 2
	if *collapseGames > 0 {
		n = *collapseGames
	}
	rivals := collapseRivals()
	if testing.Short() {
		rivals = rivals[:1] // the line-shadowing baseline
	}
	lex := lexicon.Default()
	var wrong, moves float64
	for _, rival := range rivals {
		w, r, s, mv, err := duels(t.Context(), rival, game.Medium, n, 9, lex)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i := range w.Values {
			if r.Values[i] > maxWrongRun {
				t.Errorf("against %s, game %d: %v wrong announcements in a row, want at most %d", rival, i, r.Values[i], maxWrongRun)
			}
			m := float64(mv[i])
			wrong += w.Values[i]
			moves += m
			if m >= wrongShareMoves && s.Values[i] > wrongShareGame {
				t.Errorf("against %s, game %d: %.0f%% of strong's %.0f moves were wrong announcements, want at most %.0f%%", rival, i, 100*s.Values[i], m, 100*wrongShareGame)
			}
			if m >= wrongShareMoves {
				worst = max(worst, s.Values[i])
			}
		}
		ws, rs := w.Summary(), r.Summary()
		t.Logf("against %s: %.2f wrong a game (95%% %.2f-%.2f), longest run %.2f on average, worst share in a game of %d moves or more %.0f%%", rival, ws.Mean, ws.CI95[0], ws.CI95[1], rs.Mean, wrongShareMoves, 100*worst)
	}
	if share := wrong / moves; share > wrongShareAll {
		t.Errorf("wrong announcements made %.1f%% of strong's moves, want at most %.0f%%", 100*share, 100*wrongShareAll)
	} else {
		t.Logf("wrong announcements: %.0f of strong's %.0f moves (%.1f%%)", wrong, moves, 100*share)
	}
}
