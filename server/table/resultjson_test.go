package table

import (
	"bytes"
	"encoding/json"
	"testing"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/store"
)

// TestResultAppendJSON holds the encoders of moves' answers and of an
// update's moves to json.Marshal's bytes: no seats and no events (nil and
// empty), events with recipients and data (a map, a game's own), the
// flags and text to escape.
func TestResultAppendJSON(t *testing.T) {
	t.Parallel()
	evs := []game.Event{
		{Kind: "call", Text: "Zoë <b> called 72", Data: quizl.Called{Seat: 1, Square: "72"}},
		{To: []game.Seat{1}, Kind: "revealed", Text: "R at 72", Data: quizl.Revealed{Square: "72", Letters: []quizl.Letter{{Seat: 0, Name: "Ann & Ben", Square: "72", Letter: "R"}}}},
		{Kind: "answer", Text: "\u2028", Data: map[string]any{"n": 3, "answer": "higher"}},
	}
	results := []MoveResult{
		{},
		{Version: 7, Status: store.Playing, ToMove: []game.Seat{}, Events: []game.Event{}},
		{Version: 12, Status: store.Finished, ToMove: []game.Seat{0, 2}, Events: evs, TimedOut: true},
		{Version: 3, Status: store.Playing, ToMove: []game.Seat{1}, Events: evs[:1], Repeated: true},
	}
	check := func(what string, got []byte, err error, v any) {
		t.Helper()
		want, merr := json.Marshal(v)
		if merr != nil {
			t.Fatal(merr)
		}
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v\n got %s\nwant %s", what, err, got, want)
		}
	}
	for _, r := range results {
		got, err := r.AppendJSON(nil)
		check("result", got, err, r)
	}
	for _, ms := range [][]MoveInfo{nil, {}, {{Version: 4, Seat: 1, Player: "Ben \"B\"", Move: "72", Events: evs}, {Version: 5, Events: []game.Event{}}}} {
		got, err := appendMoves(nil, ms)
		check("moves", got, err, ms)
	}
	if _, err := (&MoveResult{Events: []game.Event{{Kind: "bad", Data: make(chan int)}}}).AppendJSON(nil); err == nil {
		t.Error("data json cannot encode: no error")
	}
}
