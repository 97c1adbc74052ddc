package game

import (
	"fmt"
	"slices"
	"sort"
)

// Rated is implemented by games whose two-player tables may be rated. A
// rating says how well somebody plays one game, so only the game knows
// which of its options leave it the same game and which make another one:
// a server asks, on the Game found in the registry, rather than naming
// games and options itself. A game that does not implement Rated is never
// rated.
type Rated interface {
	// RatedOptions names the options a rated table may set away from
	// their defaults: those that leave what a good move is unchanged
	// (when a series of tables ends, say). Every other option of the
	// game keeps its default at a rated table. The clock is not the
	// game's to name: it is a table option, and always allowed.
	RatedOptions() []string
	// PoolOption names the Choice option whose choices play differently
	// enough that each is rated apart, a rating pool of its own, or ""
	// when the game is one pool. A rated table may choose it freely.
	PoolOption() string
}

// Pools returns the names of g's rating pools: none when g is not Rated,
// g's name when it is one pool, and name-choice for each choice of its
// PoolOption ("nymphabet-standard"), sorted.
func Pools(g Game) []string {
	r, ok := g.(Rated)
	if !ok {
		return nil
	}
	opt := r.PoolOption()
	if opt == "" {
		return []string{g.Name()}
	}
	var out []string
	for _, o := range g.Options() {
		if o.Name == opt {
			for _, c := range o.Choices {
				out = append(out, g.Name()+"-"+c)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Pool returns the rating pool of a rated table of g playing rules, and
// false when g is not Rated.
func Pool(g Game, rules Rules) (string, bool) {
	r, ok := g.(Rated)
	if !ok {
		return "", false
	}
	if opt := r.PoolOption(); opt != "" {
		return g.Name() + "-" + rules.String(opt), true
	}
	return g.Name(), true
}

// Unrated returns the names of the options rules sets away from their
// defaults that a rated table of g may not change, sorted; none when a
// table of g with rules may be rated. Every option but the clock counts
// when g is not Rated.
func Unrated(g Game, rules Rules) []string {
	var allowed []string
	if r, ok := g.(Rated); ok {
		allowed = append(slices.Clip(r.RatedOptions()), r.PoolOption())
	}
	var out []string
	for name := range NonDefault(g.Options(), rules) {
		if name != ClockOption && !slices.Contains(allowed, name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// CheckRated reports an error when g is Rated but names options it does
// not have, or a pool option that is not a Choice: a mistake of the
// game's, caught by its tests rather than by a rated table.
func CheckRated(g Game) error {
	r, ok := g.(Rated)
	if !ok {
		return nil
	}
	find := func(name string) (Option, bool) {
		i := slices.IndexFunc(g.Options(), func(o Option) bool { return o.Name == name })
		if i < 0 {
			return Option{}, false
		}
		return g.Options()[i], true
	}
	for _, name := range r.RatedOptions() {
		if _, ok := find(name); !ok {
			return fmt.Errorf("%s: a rated table may change %q, which is not one of its options", g.Name(), name)
		}
	}
	if name := r.PoolOption(); name != "" {
		o, ok := find(name)
		switch {
		case !ok:
			return fmt.Errorf("%s: its rating pools are the choices of %q, which is not one of its options", g.Name(), name)
		case o.Kind != Choice || len(o.Choices) == 0:
			return fmt.Errorf("%s: its rating pools are the choices of %q, which is not a choice", g.Name(), name)
		case slices.Contains(r.RatedOptions(), name):
			return fmt.Errorf("%s: %q is both its pool option and a rated option", g.Name(), name)
		}
	}
	return nil
}
