package games

import (
	"encoding/json"
	"fmt"

	"parlour/games/nymphabet"
	"parlour/games/quizl"
	"parlour/games/salvo"
	"parlour/games/wordfight"
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
