// Package games gathers Parlour's four games for the front ends: the
// registry that finds a referee by name, and the maker of computer players.
// It is the one place that knows every game; the server and the command
// line reach the games through it and package game's contract.
package games

import (
	"fmt"

	"parlour/game"
	"parlour/games/nymphabet"
	"parlour/games/quizl"
	"parlour/games/salvo"
	"parlour/games/wordfight"
	"parlour/lexicon"
)

// Registry returns a registry of every Parlour game.
func Registry() *game.Registry {
	return game.NewRegistry(quizl.Game{}, salvo.Game{}, wordfight.Game{}, nymphabet.Game{})
}

// NewBot returns a computer player for the game called name at level
// (easy, medium or strong), deterministic for seed, using lex for words.
func NewBot(name, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
	switch name {
	case "quizl", "salvo", "wordfight", "nymphabet":
		return nil, fmt.Errorf("no computer players for %s yet", name)
	}
	return nil, fmt.Errorf("no game called %q", name)
}
