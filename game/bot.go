package game

import (
	"context"
	"encoding/json"
)

// Bot is a computer player for one seat of one play. It sees exactly what a
// person in that seat sees, its seat's view, and answers with a move in the
// game's notation, through the same door as a person.
type Bot interface {
	// Setup returns the bot's secret setup, for games that have one.
	Setup(ctx context.Context, cfg Config, seat Seat) (json.RawMessage, error)
	// Move chooses a move for seat given its view (the value State.View
	// returns for seat). It is called only when seat is to move.
	Move(ctx context.Context, cfg Config, seat Seat, view any) (string, error)
}

// The computer players' levels, weakest first.
const (
	Easy   = "easy"
	Medium = "medium"
	Strong = "strong"
)
