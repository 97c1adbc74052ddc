// Package nymphabet referees Nymphabet, the alphabet take-away game: two
// players write words in turn, each word beginning with the next undeleted
// letter of the alphabet and deleting that letter and the run of
// alphabetical successors it holds in order.
//
// The package holds every rule of the standard game and of the cyclic and
// scoring variants (RULES.md §4) and nothing else: no I/O, no clock, no
// randomness. Front ends, computer players and `parlour replay` reach it
// through the game.Game contract; its per-seat view is the View type.
package nymphabet

import (
	"encoding/json"
	"errors"
	"fmt"

	"parlour/game"
	"parlour/lexicon"
)

// Mode is the variant a table plays, the value of the rule option "mode".
type Mode string

// The variants of Nymphabet.
const (
	// Standard starts at A and ends when Z is deleted; the player who
	// wrote the last word loses.
	Standard Mode = "standard"
	// Cyclic lets the first word start anywhere; the alphabet wraps from Z
	// to A, the game ends when all 26 letters are deleted and the player
	// who wrote the last word wins.
	Cyclic Mode = "cyclic"
	// Scoring is Cyclic, but each player scores the product of the number
	// of letters they deleted on each turn; the higher product wins.
	Scoring Mode = "scoring"
)

// The names of Nymphabet's rule options.
const (
	OptMode      = "mode"
	OptNoRepeats = "no_repeats"
)

// Letters is the size of the alphabet the game deletes.
const Letters = 26

// Wraps reports whether the alphabet is cyclic in mode m.
func (m Mode) Wraps() bool { return m == Cyclic || m == Scoring }

// Deletes reports how many letters word deletes when it is written in mode
// m with left letters still undeleted. word must be in lower case and
// begin with the current letter. The run of consecutive letters is
// lexicon.Run's; in the cyclic modes it stops short of the letters already
// deleted, so it never deletes more than left.
func (m Mode) Deletes(word string, left int) int {
	return min(lexicon.Run(word, m.Wraps()), left)
}

// Game is Nymphabet as a game.Game. Its zero value is ready to use.
type Game struct{}

var _ game.Game = Game{}

// Name returns "nymphabet", the game's name in records.
func (Game) Name() string { return "nymphabet" }

// Title returns "Nymphabet".
func (Game) Title() string { return "Nymphabet" }

// Words is true: every word played is checked against the table's
// lexicon (game.Worded).
func (Game) Words() bool { return true }

// ScoresLabel says what the scores count (game.ScoreNamer): the letters
// each player deleted, or in the scoring mode the product of the letters
// each of their turns deleted.
func (Game) ScoresLabel(r game.Rules) string {
	if Mode(r.String(OptMode)) == Scoring {
		return "scores (the letters each turn deleted, multiplied)"
	}
	return "letters deleted"
}

// Players reports that Nymphabet is for exactly two players.
func (Game) Players() (min, max int) { return 2, 2 }

// Options lists the rule options: the mode, and whether a word may be
// played twice.
func (Game) Options() []game.Option {
	return []game.Option{
		{
			Name:    OptMode,
			Label:   "Mode",
			Kind:    game.Choice,
			Default: string(Standard),
			Choices: []string{string(Standard), string(Cyclic), string(Scoring)},
			Help:    "standard: A to Z, the last word loses; cyclic: start anywhere, wrap round, the last word wins; scoring: cyclic, the higher product of letters deleted per turn wins",
		},
		{
			Name:    OptNoRepeats,
			Label:   "No repeated words",
			Kind:    game.Bool,
			Default: false,
			Help:    "refuse a word that has already been played in this game",
		},
	}
}

// HasSetup reports false: Nymphabet has no secret setup.
func (Game) HasSetup() bool { return false }

// CheckSetup refuses every setup: Nymphabet has none.
func (Game) CheckSetup(game.Config, game.Seat, json.RawMessage) (json.RawMessage, error) {
	return nil, errors.New("Nymphabet has no setup")
}

// AutoSetup returns nil: Nymphabet has no setup.
func (Game) AutoSetup(game.Config, game.Seat, uint64) (json.RawMessage, error) {
	return nil, nil
}

// New starts a play under cfg. cfg.Rules must be resolved (game.Resolve);
// a missing option takes its default.
func (g Game) New(cfg game.Config, setups []json.RawMessage) (game.State, error) {
	if len(cfg.Players) != 2 {
		return nil, fmt.Errorf("Nymphabet takes 2 players, not %d", len(cfg.Players))
	}
	if len(setups) > 0 {
		return nil, errors.New("Nymphabet has no setup")
	}
	if cfg.Lexicon == nil {
		return nil, errors.New("Nymphabet needs a lexicon to check words")
	}
	mode := Standard
	if v, ok := cfg.Rules[OptMode]; ok {
		s, _ := v.(string)
		switch m := Mode(s); m {
		case Standard, Cyclic, Scoring:
			mode = m
		default:
			return nil, fmt.Errorf("rule option mode: %q is not one of standard, cyclic, scoring", s)
		}
	}
	return newState(cfg, mode, cfg.Rules.Bool(OptNoRepeats)), nil
}
