package players

import (
	"context"
	"errors"
	"parlour/server/table"
	"slices"
	"testing"
	"time"
)

// TestSeatedMergesTheOtherNodes: the tables a player sits at are this
// node's and the other nodes', each once, newest first; a node that did
// not answer is said, with what the others hold all the same.
func TestSeatedMergesTheOtherNodes(t *testing.T) {
	t.Parallel()
	peers := &fakePeers{}
	f := newFixture(t, func(c *Config) { c.Peers = peers })
	ctx := context.Background()
	p := f.signUp("Ann")
	info, err := f.tables.Create(ctx, p, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	here := f.tables.SeatedAt(p.Identity)
	if len(here) != 1 {
		t.Fatalf("this node's tables: %+v", here)
	}
	older := table.SeatedTable{Info: table.Info{ID: "elsewhere-older", Created: here[0].Created.Add(-time.Hour)}}
	newer := table.SeatedTable{Info: table.Info{ID: "elsewhere-newer", Created: here[0].Created.Add(time.Hour)}}
	peers.seated = []table.SeatedTable{older, here[0], newer}
	peers.err = errors.New("a node did not answer")
	got, err := f.s.Seated(ctx, p.Identity)
	var ids []string
	for _, s := range got {
		ids = append(ids, s.ID)
	}
	if want := []string{"elsewhere-newer", info.Table, "elsewhere-older"}; !slices.Equal(ids, want) {
		t.Fatalf("seated: %v, want %v", ids, want)
	}
	if err == nil {
		t.Fatal("a node that did not answer went unsaid")
	}
	// DeleteAccount will not go ahead on a list that may be short.
	if err := f.s.DeleteAccount(ctx, p, testPassword); err == nil {
		t.Fatal("an account deleted while a node did not answer")
	}
}
