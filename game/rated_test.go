package game

import (
	"slices"
	"strings"
	"testing"
)

// ratedNim is nim with more options, rated as rated and pool say.
type ratedNim struct {
	nim
	rated []string
	pool  string
}

func (ratedNim) Options() []Option {
	return []Option{
		{Name: "pile", Kind: Int, Default: 10, Min: 1, Max: 50},
		{Name: "misere", Kind: Bool, Default: false},
		{Name: "variant", Kind: Choice, Default: "plain", Choices: []string{"plain", "greedy", "double"}},
		{Name: "race_to", Kind: Int, Default: 3, Min: 1, Max: 9},
	}
}

func (g ratedNim) RatedOptions() []string { return g.rated }
func (g ratedNim) PoolOption() string     { return g.pool }

var (
	onePool   = ratedNim{rated: []string{"race_to"}}
	threePool = ratedNim{rated: []string{"race_to"}, pool: "variant"}
)

func TestPools(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		g    Game
		want []string
	}{
		{"not rated", nim{}, nil},
		{"one pool", onePool, []string{"nim"}},
		{"a pool a choice", threePool, []string{"nim-double", "nim-greedy", "nim-plain"}},
	} {
		if got := Pools(tc.g); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Pools = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestPool(t *testing.T) {
	t.Parallel()
	greedy := Defaults(threePool.Options())
	greedy["variant"] = "greedy"
	for _, tc := range []struct {
		name   string
		g      Game
		rules  Rules
		want   string
		wantOK bool
	}{
		{"not rated", nim{}, Defaults(nim{}.Options()), "", false},
		{"one pool", onePool, greedy, "nim", true},
		{"the default choice", threePool, Defaults(threePool.Options()), "nim-plain", true},
		{"another choice", threePool, greedy, "nim-greedy", true},
	} {
		got, ok := Pool(tc.g, tc.rules)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("%s: Pool = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.wantOK)
		}
		// Every pool a table lands in is one of the game's pools.
		if ok && !slices.Contains(Pools(tc.g), got) {
			t.Errorf("%s: pool %q is not among %q", tc.name, got, Pools(tc.g))
		}
	}
}

func TestUnrated(t *testing.T) {
	t.Parallel()
	rules := func(g Game, set map[string]any) Rules {
		r := Defaults(g.Options())
		for k, v := range set {
			r[k] = v
		}
		return r
	}
	for _, tc := range []struct {
		name string
		g    Game
		set  map[string]any
		want []string
	}{
		{"defaults", threePool, nil, nil},
		{"a rated option", threePool, map[string]any{"race_to": 5}, nil},
		{"the pool option", threePool, map[string]any{"variant": "double"}, nil},
		{"the clock", threePool, map[string]any{ClockOption: 60}, nil},
		{"an option that changes the game", threePool, map[string]any{"misere": true, "race_to": 5}, []string{"misere"}},
		{"two, sorted", threePool, map[string]any{"pile": 20, "misere": true}, []string{"misere", "pile"}},
		{"the choice of a game of one pool", onePool, map[string]any{"variant": "double"}, []string{"variant"}},
		{"a game that is not rated", nim{}, map[string]any{"pile": 20, ClockOption: 60}, []string{"pile"}},
		{"set to its default", threePool, map[string]any{"pile": 10}, nil},
	} {
		if got := Unrated(tc.g, rules(tc.g, tc.set)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Unrated = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCheckRated(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		g    Game
		want string // in the error; "" for none
	}{
		{"not rated", nim{}, ""},
		{"one pool", onePool, ""},
		{"a pool a choice", threePool, ""},
		{"no rated options", ratedNim{pool: "variant"}, ""},
		{"an unknown rated option", ratedNim{rated: []string{"race_to", "colour"}}, `"colour", which is not one of its options`},
		{"an unknown pool option", ratedNim{pool: "colour"}, `"colour", which is not one of its options`},
		{"a pool option that is no choice", ratedNim{pool: "misere"}, `"misere", which is not a choice`},
		{"a pool option also rated", ratedNim{rated: []string{"variant"}, pool: "variant"}, "both its pool option and a rated option"},
	} {
		err := CheckRated(tc.g)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: err = %v, want one saying %s", tc.name, err, tc.want)
		}
	}
}
