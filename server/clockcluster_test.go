package server_test

import (
	"testing"
	"time"
)

// TestClusterFischerClockTakenOver: when the node that owns a table with
// a Fischer clock dies, the node that takes the table over finds every
// seat's time from the stored start and moves: the waiting seat's time
// left to the microsecond, the running seat's deadline unchanged.
func TestClusterFischerClockTakenOver(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	type seatTime struct {
		Deadline *time.Time `json:"deadline"`
		TimeLeft *float64   `json:"time_left"`
	}
	type view struct {
		Table struct {
			ToMove []int `json:"to_move"`
			Clock  *struct {
				Kind string `json:"kind"`
			} `json:"clock"`
			Seats []seatTime `json:"seats"`
		} `json:"table"`
	}
	var ann, ben struct{ Table, Token string }
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Ann",
		"rules": map[string]any{"clock": map[string]any{"kind": "fischer", "initial": 600, "increment": 5}}}, &ann); st != 201 {
		t.Fatalf("create through a: %d %s", st, body)
	}
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+ann.Table+"/join", "", map[string]any{"name": "Ben"}, &ben); st != 200 {
		t.Fatalf("join through b: %d %s", st, body)
	}
	for i, mv := range []string{"abdicated", "eight", "fig"} {
		tok := []string{ann.Token, ben.Token}[i%2]
		if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+ann.Table+"/moves", tok, map[string]any{"move": mv}, nil); st != 200 {
			t.Fatalf("%s: %d %s", mv, st, body)
		}
	}
	var before, after view
	if st, body := nodeCall(t, a, "GET", "/api/v1/tables/"+ann.Table, "", nil, &before); st != 200 {
		t.Fatalf("view on a: %d %s", st, body)
	}
	s := before.Table.Seats
	if before.Table.Clock == nil || before.Table.Clock.Kind != "fischer" || len(s) != 2 || s[0].Deadline != nil || s[0].TimeLeft == nil || s[1].Deadline == nil {
		t.Fatalf("the owner shows %+v", before.Table)
	}
	a.kill()
	if st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+ann.Table, "", nil, &after); st != 200 {
		t.Fatalf("view on b after a died: %d %s", st, body)
	}
	s2 := after.Table.Seats
	if len(s2) != 2 || s2[0].TimeLeft == nil || *s2[0].TimeLeft != *s[0].TimeLeft || s2[1].Deadline == nil || !s2[1].Deadline.Equal(*s[1].Deadline) {
		t.Errorf("Ann had %v left and Ben's deadline was %v; after the takeover %v and %v", *s[0].TimeLeft, s[1].Deadline, s2[0].TimeLeft, s2[1].Deadline)
	}
}
