package server_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	natsgo "github.com/nats-io/nats.go"

	"parlour/server"
)

// TestClusterOwnerWithADeadConnection: after an outage NATS may keep a
// dead connection of the owner's (one it has not yet found dead, which
// can take it minutes) among those that answer for a table, and route
// some of the table's requests there, where nothing answers them. A
// request through b must not wait for that: reads and moves through b
// are answered at once, by the owner's live connection.
func TestClusterOwnerWithADeadConnection(t *testing.T) {
	t.Parallel()
	var natsURL string
	nodes := startClusterOpts(t, clusterOpts{nats: func(name, url string) string { natsURL = url; return url }}, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, ann, ben := twoSeats(t, a, b)
	dead, err := natsgo.Connect(natsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close()
	// The dead connection answers for the table (and for node a) as a's
	// did, and never answers anything.
	for _, subject := range []string{"parlour.owner." + id, "parlour.node.a"} {
		if _, err := dead.QueueSubscribe(subject, "owner", func(*natsgo.Msg) {}); err != nil {
			t.Fatal(err)
		}
	}
	if err := dead.Flush(); err != nil {
		t.Fatal(err)
	}
	var slowest time.Duration
	took := func(what string, start time.Time) {
		d := time.Since(start)
		if d > 2*time.Second {
			t.Fatalf("%s through b took %v; the owner answers at once", what, d.Round(time.Millisecond))
		}
		slowest = max(slowest, d)
	}
	for i := range 8 {
		start := time.Now()
		var u wireUpdate
		if st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u); st != 200 {
			t.Fatalf("read %d through b: %d %s", i, st, body)
		}
		took(fmt.Sprintf("read %d", i), start)
		if i%2 == 1 {
			continue
		}
		seat, tok := int(u.Table.ToMove[0]), ann.Token
		if seat == 1 {
			tok = ben.Token
		}
		mv := chooseMove(t, ctx, u, seat)
		start = time.Now()
		var res server.MoveResult
		if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", tok, map[string]any{"move": mv}, &res); st != 200 {
			t.Fatalf("move %d through b: %d %s", i/2, st, body)
		}
		took(fmt.Sprintf("move %d", i/2), start)
	}
	t.Logf("the slowest of 12 requests through b took %v", slowest.Round(time.Millisecond))
}
