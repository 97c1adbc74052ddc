package table

import (
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games"
	"parlour/server/internal/servertest"
)

// TestPools: the pools are what the games tell (game.Rated), and a game
// that tells nothing is not rated.
func TestPools(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		reg  *game.Registry
		want []string
	}{
		{"every game", games.Registry(), []string{"nymphabet-cyclic", "nymphabet-scoring", "nymphabet-standard", "quizl", "salvo", "wordfight"}},
		{"games that are not rated", servertest.Registry(), nil},
	} {
		if got := Pools(tc.reg); !slices.Equal(got, tc.want) {
			t.Errorf("%s: pools %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCheckRatedRules: a rated table keeps the rules the game does not let
// it change, and lands in the pool its rules choose.
func TestCheckRatedRules(t *testing.T) {
	t.Parallel()
	reg := games.Registry()
	two := []seatMeta{{}, {}}
	me := asker{account: true}
	for _, tc := range []struct {
		game string
		set  map[string]any
		pool string // "" when refused with err
		err  string
	}{
		{"nymphabet", map[string]any{"mode": "cyclic", "no_repeats": true}, "nymphabet-cyclic", ""},
		{"quizl", map[string]any{"set_target": 50, game.ClockOption: 60}, "quizl", ""},
		{"quizl", map[string]any{"wrong_announcement_award": 10}, "", `a rated table plays by the default rules, and "Points to the grid's owner for a wrong password" changes the game; leave it out or play unrated`},
		{"wordfight", map[string]any{"width": 10, "height": 10}, "", `"Board height" and "Board width" change the game`},
		{"guess", nil, "", "Guess is not rated"},
	} {
		var g game.Game
		var err error
		if tc.game == "guess" {
			g = servertest.Guess{}
		} else if g, err = reg.Lookup(tc.game); err != nil {
			t.Fatal(err)
		}
		rules, err := game.ResolveValues(g.Options(), tc.set)
		if err != nil {
			t.Fatal(err)
		}
		pool, err := checkRated(g, rules, "", two, me)
		switch {
		case tc.err == "" && (err != nil || pool != tc.pool):
			t.Errorf("%s %v: pool %q, %v; want %q", tc.game, tc.set, pool, err, tc.pool)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %v: err = %v, want one saying %q", tc.game, tc.set, err, tc.err)
		}
	}
}
