package server_test

import (
	"testing"

	"parlour/games"
	"parlour/lexicon"
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
