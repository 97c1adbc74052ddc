// Package games gathers Parlour's four games for the front ends: the
// registry that finds a referee by name, and the maker of computer players.
// It is the one place that knows every game; the server and the command
// line reach the games through it and package game's contract.
package games

import (
	"fmt"

	"parlour/game"
	"parlour/games/nymphabet"
	nymbot "parlour/games/nymphabet/bot"
	"parlour/games/quizl"
	quizlbot "parlour/games/quizl/bot"
	"parlour/games/salvo"
	salvobot "parlour/games/salvo/bot"
	"parlour/games/wordfight"
	wfbot "parlour/games/wordfight/bot"
	"parlour/lexicon"
)

// Registry returns a registry of every Parlour game.
func Registry() *game.Registry {
	return game.NewRegistry(quizl.Game{}, salvo.Game{}, wordfight.Game{}, nymphabet.Game{})
}

// NewBot returns a computer player for the game called name at level
// (easy, medium or strong), deterministic for seed, using lex for words.
func NewBot(name, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
	var make func(string, uint64, *lexicon.Lexicon) (game.Bot, error)
	switch name {
	case "quizl":
		make = quizlbot.New
	case "salvo":
		make = salvobot.New
	case "wordfight":
		make = wfbot.New
	case "nymphabet":
		make = nymbot.New
	default:
		return nil, fmt.Errorf("no game called %q", name)
	}
	b, err := make(level, seed, lex)
	if err != nil {
		return nil, fmt.Errorf("%s computer player: %w", name, err)
	}
	return b, nil
}
