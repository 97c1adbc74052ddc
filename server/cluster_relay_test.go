package server_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	natsgo "github.com/nats-io/nats.go"

	"parlour/games"
	"parlour/lexicon"
	"parlour/server/table"
)

// TestGamesThroughClusterNodes plays complete games of all four games
// on a cluster of three nodes, each person at a table talking to another
// node (the table's owner is the node its creator used; the others'
// requests, event streams and sockets are forwarded), with the secrecy
// and commitment checks of TestGamesThroughBothDoors: nothing secret
// reaches a seat it is not meant for through a node that is not the
// owner, and every commitment opens at the end.
func TestGamesThroughClusterNodes(t *testing.T) {
	t.Parallel()
	short := map[string]any{"width": 9, "height": 9, "strike_limit": 1}
	for _, sc := range []scenario{
		{"quizl people", "quizl", nil, []string{"ws", "http"}},
		{"salvo three", "salvo", nil, []string{"http", "ws", "computer:easy"}},
		{"wordfight people", "wordfight", short, []string{"http", "ws"}},
		{"nymphabet people", "nymphabet", nil, []string{"ws", "http"}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			nodes := startCluster(t, "a", "b", "c")
			e := &env{t: t, srv: nodes[0].srv, svc: nodes[0].svc, reg: games.Registry(), lex: lexicon.Default()}
			for _, n := range nodes {
				e.nodes = append(e.nodes, n.srv.URL)
			}
			e.run(sc)
			if metric(t, nodes[1], "parlour_cluster_forwarded_total") == "0" {
				t.Error("node b forwarded nothing: the person on it did not play through it")
			}
			if metric(t, nodes[0], "parlour_cluster_owned_tables") != "1" {
				t.Errorf("node a owns %s tables, want the game's 1", metric(t, nodes[0], "parlour_cluster_owned_tables"))
			}
		})
	}
}

// TestClusterLeave: seats are left through a node that does not own the
// table; the last leave cancels it everywhere: every node answers 410 for
// it, the event stream another node relayed ends, and neither node lists
// it among Ann's tables.
func TestClusterLeave(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	var ann, ben table.Seated
	// Ann's identity token lists her tables; her seat's acts for the seat.
	var annID table.Identity
	if st, body := nodeCall(t, a, "POST", "/api/v1/identity", "", map[string]any{"name": "Ann"}, &annID); st != 201 {
		t.Fatalf("Ann's identity: %d %s", st, body)
	}
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables", annID.Token, map[string]any{"game": "quizl", "seats": []string{"me", "open"}}, &ann); st != 201 {
		t.Fatalf("create through a: %d %s", st, body)
	}
	id := ann.Table
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/join", "", map[string]any{"name": "Ben"}, &ben); st != 200 {
		t.Fatalf("join through b: %d %s", st, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	events := followEvents[wireUpdate](ctx, b.srv.URL, id, ann.Token, 16)
	if u := <-events; u.Table.ID != id {
		t.Fatalf("the first update through b: %+v", u)
	}

	var left table.Left
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/leave", ben.Token, nil, &left); st != 200 || left.Cancelled || left.Seat != 1 {
		t.Fatalf("Ben leaves through b: %d %s", st, body)
	}
	var u wireUpdate
	if st, body := nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u); st != 200 || u.Table.Seats[1].Kind != "open" {
		t.Fatalf("the table through a after Ben left: %d %s", st, body)
	}
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/leave", ann.Token, nil, &left); st != 200 || !left.Cancelled {
		t.Fatalf("Ann leaves through b: %d %s", st, body)
	}
	// The updates of the seat coming open; then the stream ends.
	for ended := false; !ended; {
		select {
		case _, ok := <-events:
			ended = !ok
		case <-ctx.Done():
			t.Fatal("the stream through b did not end when the table was cancelled")
		}
	}
	for _, n := range nodes {
		if st, body := nodeCall(t, n, "GET", "/api/v1/tables/"+id, ann.Token, nil, nil); st != http.StatusGone || !strings.Contains(body, "closed before its game began") {
			t.Errorf("the cancelled table through %s: %d %s", n.name, st, body)
		}
		var mine struct{ Tables []table.SeatedTable }
		if st, body := nodeCall(t, n, "GET", "/api/v1/identity/tables", annID.Token, nil, &mine); st != 200 || len(mine.Tables) != 0 {
			t.Errorf("Ann's tables through %s: %d %s", n.name, st, body)
		}
	}
}

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
	// A request the dead connection took would wait out the forward's
	// time and be answered 503: each must be answered 200.
	var slowest time.Duration
	took := func(what string, start time.Time) {
		slowest = max(slowest, time.Since(start))
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
		var res table.MoveResult
		if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", tok, map[string]any{"move": mv}, &res); st != 200 {
			t.Fatalf("move %d through b: %d %s", i/2, st, body)
		}
		took(fmt.Sprintf("move %d", i/2), start)
	}
	t.Logf("the slowest of 12 requests through b took %v", slowest.Round(time.Millisecond))
}
