package socket

import (
	"bytes"
	"encoding/json"
	"testing"

	"parlour/game"
	"parlour/server/table"
	"parlour/store"
)

// TestUpdateEnvelope: an update's JSON between UpdateHead and UpdateTail,
// as the table hands it to the socket, is the socket's update message as
// json.Marshal encodes a ServerMessage.
func TestUpdateEnvelope(t *testing.T) {
	t.Parallel()
	for _, u := range []table.Update{
		{},
		{Version: 3, Seat: 1, Table: table.Info{ID: "abcdefgh23456789", Status: store.Playing}, View: map[string]any{"n": 2}},
		{Version: 9, Seat: -1, Moves: []table.MoveInfo{{Seat: 0, Move: "guess 10", Events: []game.Event{{Kind: "answer", Text: "<higher>"}}}}},
	} {
		b, err := json.Marshal(&u)
		if err != nil {
			t.Fatal(err)
		}
		got := append(append([]byte(UpdateHead), b...), UpdateTail...)
		want, err := json.Marshal(ServerMessage{Type: "update", Update: &u})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("version %d:\n got %s\nwant %s", u.Version, got, want)
		}
	}
}
