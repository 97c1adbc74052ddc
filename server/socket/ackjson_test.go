package socket

import (
	"bytes"
	"encoding/json"
	"testing"

	"parlour/game"
	"parlour/server/table"
	"parlour/store"
)

// TestAckAppendJSON holds the socket's answer to a move to json.Marshal's
// bytes, with and without an id and a version.
func TestAckAppendJSON(t *testing.T) {
	t.Parallel()
	evs := []game.Event{{Kind: "answer", Text: "Zo\u00eb <b> \u2028", Data: map[string]any{"n": 3, "answer": "higher"}}}
	for _, r := range []table.MoveResult{
		{},
		{Version: 7, Status: store.Playing, ToMove: []game.Seat{}, Events: []game.Event{}},
		{Version: 12, Status: store.Finished, ToMove: []game.Seat{0, 2}, Events: evs, TimedOut: true},
	} {
		for _, id := range []string{"", "m1", `"<id>"`} {
			got, err := appendAck(nil, id, &r)
			want, merr := json.Marshal(ServerMessage{Type: "ack", ID: id, Version: r.Version, Result: &r})
			if merr != nil {
				t.Fatal(merr)
			}
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("ack %q: %v\n got %s\nwant %s", id, err, got, want)
			}
		}
	}
	if _, err := appendAck(nil, "m2", &table.MoveResult{Events: []game.Event{{Kind: "bad", Data: make(chan int)}}}); err == nil {
		t.Error("data json cannot encode: no error")
	}
}
