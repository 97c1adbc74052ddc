package game

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Registry finds games by name. Build one with NewRegistry; package games
// offers the registry of every Parlour game.
type Registry struct {
	games map[string]Game
	// defaults holds each game's rules at their defaults, shared by
	// every table and record that sets no option (DefaultRules, Start):
	// rules once resolved are only read, and a game in memory keeps them
	// for as long as it is.
	defaults map[string]Rules
}

// NewRegistry returns a registry holding gs. Two games with one name panic:
// that is a programming error, not input.
func NewRegistry(gs ...Game) *Registry {
	r := &Registry{games: make(map[string]Game, len(gs)), defaults: make(map[string]Rules, len(gs))}
	for _, g := range gs {
		if _, dup := r.games[g.Name()]; dup {
			panic("game: duplicate game " + g.Name())
		}
		r.games[g.Name()] = g
		d, err := ResolveFor(g, nil)
		if err != nil {
			panic("game: " + g.Name() + "'s defaults: " + err.Error())
		}
		r.defaults[g.Name()] = d
	}
	return r
}

// DefaultRules returns the rules of the game called name with every
// option at its default, checked (ResolveFor), or nil for no such game.
// The map is shared by every caller: it must only be read.
func (r *Registry) DefaultRules(name string) Rules { return r.defaults[name] }

// rules resolves a record's rule options raw for g (Resolve), sharing
// the registry's map when raw sets none.
func (r *Registry) rules(g Game, raw map[string]json.RawMessage) (Rules, error) {
	if len(raw) == 0 {
		if d := r.defaults[g.Name()]; d != nil {
			return d, nil
		}
	}
	return Resolve(g.Options(), raw)
}

// Lookup returns the game called name.
func (r *Registry) Lookup(name string) (Game, error) {
	g, ok := r.games[name]
	switch {
	case !ok && name == "":
		return nil, fmt.Errorf("say which game: %s", strings.Join(r.Names(), ", "))
	case !ok:
		return nil, fmt.Errorf("no game called %q (there are %s)", clip([]byte(name)), strings.Join(r.Names(), ", "))
	}
	return g, nil
}

// Names lists the registered games' names in order.
func (r *Registry) Names() []string {
	n := make([]string, 0, len(r.games))
	for k := range r.games {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}
