package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/store"
)

// TestClusterHandsATableOver: a table made through node a, whose requests
// then all come through node b (as behind a balancer that hashes the
// table's path), is handed to b: b owns it, a no longer, and b stops
// forwarding. Not while a spectator's socket on a watches it. Around the
// hand-over, readers poll the table through b and the players move
// through b: every answer is a success, and every acknowledged move is in
// the record once. Requests through b and c in turn leave it where it is.
func TestClusterHandsATableOver(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b", "c")
	a, b, c := nodes[0], nodes[1], nodes[2]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, ann, ben := twoSeats(t, a, b)
	tokens := [2]string{ann.Token, ben.Token}

	// A socket on a, the owner, keeps the table there.
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(a.srv.URL, "http")+"/api/v1/tables/"+id+"/socket", nil)
	if err != nil {
		t.Fatal(err)
	}
	hello, _ := json.Marshal(map[string]any{"type": "hello"})
	ws.Write(ctx, websocket.MessageText, hello)
	ws.SetReadLimit(4 << 20)
	if _, _, err := ws.Read(ctx); err != nil { // the first update: the watcher is there
		t.Fatal(err)
	}
	for range 40 {
		if st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+id, "", nil, nil); st != http.StatusOK {
			t.Fatalf("GET through b: %d %s", st, body)
		}
	}
	if got := metric(t, a, "parlour_cluster_handed_total"); got != "0" {
		t.Fatalf("a handed %s tables away while a socket on it watched", got)
	}
	ws.Close(websocket.StatusNormalClosure, "")

	// Requests through b and c in turn do not move it either.
	for i := range 60 {
		if st, body := nodeCall(t, []*node{b, c}[i%2], "GET", "/api/v1/tables/"+id, "", nil, nil); st != http.StatusOK {
			t.Fatalf("GET: %d %s", st, body)
		}
	}
	if got := metric(t, a, "parlour_cluster_handed_total"); got != "0" {
		t.Fatalf("a handed %s tables away while their requests came through b and c in turn", got)
	}

	// Two readers through b while the players move through b.
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var mu sync.Mutex
	var failures []string
	for _, n := range []*node{b, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if st, body := nodeCall(t, n, "GET", "/api/v1/tables/"+id, "", nil, nil); st != http.StatusOK {
					mu.Lock()
					failures = append(failures, n.name+": "+strconv.Itoa(st)+" "+body)
					mu.Unlock()
				}
			}
		}()
	}
	var acked []string
	handedAt := -1
	for turn := 0; turn < 200; turn++ {
		var u wireUpdate
		if st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+id, tokens[0], nil, &u); st != http.StatusOK {
			t.Fatalf("GET through b: %d %s", st, body)
		}
		if u.Table.Status == store.Finished {
			break
		}
		seat := int(u.Table.ToMove[0])
		mv := chooseMove(t, ctx, u, seat)
		var res struct {
			Version int `json:"version"`
		}
		if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", tokens[seat], map[string]any{"move": mv, "version": u.Version}, &res); st != http.StatusOK {
			t.Fatalf("move %d through b: %d %s", len(acked)+1, st, body)
		}
		acked = append(acked, mv)
		if handedAt < 0 && metric(t, a, "parlour_cluster_handed_total") == "1" {
			handedAt = len(acked)
		}
	}
	close(stop)
	wg.Wait()
	for _, f := range failures {
		t.Errorf("a reader's GET failed: %s", f)
	}
	if handedAt < 0 {
		t.Fatal("a never handed the table to b")
	}
	if oa, ob := metric(t, a, "parlour_cluster_owned_tables"), metric(t, b, "parlour_cluster_owned_tables"); oa != "0" || ob != "1" {
		t.Errorf("after the hand-over a owns %s tables and b %s; want 0 and 1", oa, ob)
	}
	l, err := b.st.Lease(ctx, id)
	if err != nil || l.Owner != "b" {
		t.Errorf("the lease: %+v, %v; want b's", l, err)
	}

	// b serves the table itself now: its forwards stop.
	before := metric(t, b, "parlour_cluster_forwarded_total")
	for range 10 {
		nodeCall(t, b, "GET", "/api/v1/tables/"+id, "", nil, nil)
	}
	if after := metric(t, b, "parlour_cluster_forwarded_total"); after != before {
		t.Errorf("b forwarded %s requests, then %s after ten more reads of a table it owns", before, after)
	}
	recordHolds(t, c, id, acked)
	t.Logf("handed to b after move %d of %d; every move and read answered", handedAt, len(acked))
}
