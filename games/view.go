package games

import (
	"encoding/json"
	"fmt"

	"parlour/game"
	"parlour/games/nymphabet"
	"parlour/games/quizl"
	"parlour/games/salvo"
	"parlour/games/wordfight"
	"parlour/lexicon"
)

// DecodeView reads a seat's view as the API sends it (an update's or a
// table's "view") into a pointer to the view type of the game called
// name, the form NewBot's players take, so that a program in Go can play
// over the API with Parlour's own computer players.
func DecodeView(name string, raw json.RawMessage) (any, error) {
	var v any
	switch name {
	case "quizl":
		v = &quizl.View{}
	case "salvo":
		v = &salvo.View{}
	case "wordfight":
		v = &wordfight.View{}
	case "nymphabet":
		v = &nymphabet.View{}
	default:
		return nil, fmt.Errorf("no game called %q", name)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("reading a %s view: %w", name, err)
	}
	return v, nil
}

// Config returns the game.Config of a play of the game called name as
// the API shows it: the table's rules as JSON decodes them (numbers as
// float64, table options such as a clock among them) and its players'
// names, with lex for words. With DecodeView it gives NewBot's players
// what they take.
func Config(name string, rules game.Rules, players []string, lex *lexicon.Lexicon) (game.Config, error) {
	g, err := Registry().Lookup(name)
	if err != nil {
		return game.Config{}, err
	}
	r, err := game.ResolveValues(g.Options(), rules)
	if err != nil {
		return game.Config{}, fmt.Errorf("the table's rules: %w", err)
	}
	return game.Config{Players: players, Rules: r, Lexicon: lex}, nil
}
