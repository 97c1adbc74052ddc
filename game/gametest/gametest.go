// Package gametest holds helpers for testing game referees: playing a
// scripted sequence of moves through the game contract.
package gametest

import (
	"strings"
	"testing"

	"parlour/game"
)

// Play applies moves written "seat:move" (seat a single digit, counted
// from 0) to st in order, failing the test on any refusal, and returns
// every event the moves caused.
func Play(t testing.TB, st game.State, moves ...string) []game.Event {
	t.Helper()
	var evs []game.Event
	for _, m := range moves {
		seat, mv, ok := strings.Cut(m, ":")
		if !ok || len(seat) != 1 || seat[0] < '0' || seat[0] > '9' {
			t.Fatalf("scripted move %q: want seat:move", m)
		}
		e, err := st.Apply(game.Seat(seat[0]-'0'), mv)
		if err != nil {
			t.Fatalf("move %q: %v", m, err)
		}
		evs = append(evs, e...)
	}
	return evs
}
