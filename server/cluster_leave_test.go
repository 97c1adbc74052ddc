package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/server"
)

// TestClusterLeave: seats are left through a node that does not own the
// table; the last leave cancels it everywhere: every node answers 410 for
// it, the event stream another node relayed ends, and neither node lists
// it among Ann's tables.
func TestClusterLeave(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	var ann, ben server.Seated
	// Ann's identity token lists her tables; her seat's acts for the seat.
	var annID server.Identity
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

	var left server.Left
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
		var mine struct{ Tables []server.SeatedTable }
		if st, body := nodeCall(t, n, "GET", "/api/v1/identity/tables", annID.Token, nil, &mine); st != 200 || len(mine.Tables) != 0 {
			t.Errorf("Ann's tables through %s: %d %s", n.name, st, body)
		}
	}
}
