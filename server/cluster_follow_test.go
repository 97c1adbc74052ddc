package server_test

import (
	"context"
	"testing"
	"time"
)

// TestClusterSocketMovesOn: on a cluster, a later hello moves a socket
// on to another table when the socket's node runs that table (or takes
// it, as no node runs it yet). A table another node runs is refused with
// a 421 that says to open a socket onto it, and so is any later hello on
// a socket that reaches its own table through another node, and so is
// a "leave" on such a socket. A refused hello leaves the socket where it
// was.
func TestClusterSocketMovesOn(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	onA, ann, _ := twoSeats(t, a, b)
	onB, _, _ := twoSeats(t, b, a)
	alsoOnA, cara, _ := twoSeats(t, a, b)
	if metric(t, a, "parlour_cluster_owned_tables") != "2" || metric(t, b, "parlour_cluster_owned_tables") != "1" {
		t.Fatalf("a owns %s tables and b %s, want 2 and 1", metric(t, a, "parlour_cluster_owned_tables"), metric(t, b, "parlour_cluster_owned_tables"))
	}

	local := dialSocket(t, ctx, a, "Ann on a", onA, ann.Token)
	local.await(`"id":"` + onA + `"`)
	local.send(ctx, map[string]any{"type": "hello", "table": onB, "id": "h1"})
	local.await(`"id":"h1","error":"that table is run by another server of the cluster: open a new socket onto it","status":421`)
	local.send(ctx, map[string]any{"type": "hello", "table": alsoOnA, "token": cara.Token, "id": "h2"})
	local.await(`"id":"` + alsoOnA + `"`)

	remote := dialSocket(t, ctx, b, "Ann on b", onA, ann.Token)
	remote.await(`"id":"` + onA + `"`)
	remote.send(ctx, map[string]any{"type": "hello", "table": onB, "id": "h3"})
	remote.await(`"id":"h3","error":"this socket reaches its table through another server of the cluster, and cannot move on to another table: open a new socket onto it","status":421`)
	remote.send(ctx, map[string]any{"type": "leave", "id": "l"})
	remote.await(`"id":"l","error":"this socket reaches its table through another server of the cluster, and cannot move on to another table: open a new socket onto it","status":421`)
	remote.send(ctx, map[string]any{"type": "ping", "id": "p"})
	remote.await(`"type":"pong","id":"p"`)
}
