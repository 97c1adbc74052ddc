// Package quizl referees Quizl, word battleships on a 5 x 5 letter grid:
// each player hides a five-letter password among 20 other letters, and the
// players take turns calling squares of each other's grids and announcing
// the passwords they deduce.
//
// The rules are those of RULES.md §1, with every rule option; the move
// notation is that of RECORDS.md: "72" calls the square in row 7, column 2;
// "say WORD" announces a password ("say NAME WORD" with three or more
// players); "resign" gives up.
//
// With one player the game is solitaire: the player attacks a grid the
// computer made, and that grid is the player's setup in the record (the
// player has no grid of their own). See docs/rules/quizl.md.
package quizl

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"parlour/game"
)

// The names of Quizl's rule options.
const (
	// OptPenalty is the points a wrong announcement costs the announcer off
	// their score against that opponent.
	OptPenalty = "wrong_announcement_penalty"
	// OptAward is the points a wrong announcement gives the grid's owner.
	OptAward = "wrong_announcement_award"
	// OptSetTarget is the total that ends a set of games.
	OptSetTarget = game.SetTargetOption
)

// MaxPlayers is the most players a Quizl table seats.
const MaxPlayers = 8

// MaxPoints is what a right announcement scores before any square is
// called: one point for each of the 25 squares.
const MaxPoints = 25

// Game is Quizl as a game.Game. The zero value is ready to use.
type Game struct{}

var _ game.Game = Game{}

// Name returns "quizl".
func (Game) Name() string { return "quizl" }

// Title returns "Quizl".
func (Game) Title() string { return "Quizl" }

// Words is true: every word played is checked against the table's
// lexicon (game.Worded).
func (Game) Words() bool { return true }

// Players reports 1 (solitaire, against a computer-made grid) to
// MaxPlayers.
func (Game) Players() (min, max int) { return 1, MaxPlayers }

// HasSetup reports true: every seat hides a grid.
func (Game) HasSetup() bool { return true }

// Options lists Quizl's rule options.
func (Game) Options() []game.Option {
	return []game.Option{
		{Name: OptPenalty, Label: "Points lost for a wrong password", Kind: game.Int, Default: 1, Min: 0, Max: 5,
			Help: "points a wrong announcement costs the announcer off their score against that opponent"},
		{Name: OptAward, Label: "Points to the grid's owner for a wrong password", Kind: game.Int, Default: 0, Min: 0, Max: 25,
			Help: "points a wrong announcement gives the owner of the grid at once (the later edition uses 10)"},
		{Name: OptSetTarget, Label: "Points that end a set", Kind: game.Int, Default: 25, Min: 1, Max: 1000,
			Help: "a set of games ends after the game in which somebody's total reaches this"},
	}
}

// CheckSetup checks one seat's grid and returns it in canonical form:
// upper-case rows and password. The error names the offending row or
// column and its word, or the repeated letter.
func (Game) CheckSetup(cfg game.Config, seat game.Seat, setup json.RawMessage) (json.RawMessage, error) {
	g, err := ParseSetup(setup, cfg.Lexicon)
	if err != nil {
		return nil, err
	}
	return g.Setup(), nil
}

// AutoSetup makes a random legal grid around a random common password,
// deterministic for seed.
func (Game) AutoSetup(cfg game.Config, seat game.Seat, seed uint64) (json.RawMessage, error) {
	g, err := RandomSetup(cfg.Lexicon, seed)
	if err != nil {
		return nil, err
	}
	return g.Setup(), nil
}

// New starts a play from checked setups, one per seat.
func (Game) New(cfg game.Config, setups []json.RawMessage) (game.State, error) {
	st, err := NewState(cfg, setups)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// rules are the resolved rule options a play needs, read once.
type rules struct {
	penalty, award, setTarget int
}

func readRules(r game.Rules) (rules, error) {
	ru := rules{penalty: 1, award: 0, setTarget: 25}
	if r == nil {
		return ru, nil
	}
	get := func(name string, lo, hi int, dst *int) error {
		v, ok := r[name]
		if !ok {
			return nil
		}
		n, ok := v.(int)
		if !ok {
			return fmt.Errorf("rule option %s: want a whole number, got %v", name, v)
		}
		if n < lo || n > hi {
			return fmt.Errorf("rule option %s: %d is out of range %d-%d", name, n, lo, hi)
		}
		*dst = n
		return nil
	}
	if err := get(OptPenalty, 0, 5, &ru.penalty); err != nil {
		return ru, err
	}
	if err := get(OptAward, 0, 25, &ru.award); err != nil {
		return ru, err
	}
	if err := get(OptSetTarget, 1, 1000, &ru.setTarget); err != nil {
		return ru, err
	}
	return ru, nil
}

// HidesSetup reports whether the setup of seat owner must be kept from
// viewer while the game is in progress, beyond the rule that every setup
// is kept from the other seats. In solitaire the one seat's setup is the
// computer's grid the player attacks, so it is kept from the player too.
// Tools that write a record for one player mid-game (game.Record.For)
// should drop such setups.
func (Game) HidesSetup(cfg game.Config, owner, viewer game.Seat) bool {
	return len(cfg.Players) == 1 || owner != viewer
}

// RenameMove implements game.MoveRenamer: with three or more players an
// announcement names the player it is for, under the name that player
// had when it was made.
func (Game) RenameMove(move string, from, to []string) string {
	if len(from) < 3 || len(to) != len(from) {
		return move
	}
	t := strings.TrimSpace(move)
	i := strings.IndexFunc(t, unicode.IsSpace)
	if i < 0 || !strings.EqualFold(t[:i], "say") {
		return move
	}
	rest := strings.TrimSpace(t[i:])
	fs := strings.Fields(rest)
	if len(fs) < 2 {
		return move
	}
	word := fs[len(fs)-1]
	name := strings.TrimSpace(strings.TrimSuffix(rest, word))
	for s, p := range from {
		if strings.EqualFold(p, name) {
			return "say " + to[s] + " " + word
		}
	}
	return move
}

var _ game.MoveRenamer = Game{}
