package table

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"

	"parlour/server/refuse"
)

// place is a Placement that runs every table here, as Here does, and
// keeps what it is told; refuse, when set, refuses every new table.
type place struct {
	Here
	mu      sync.Mutex
	refuse  bool
	created []string
	changed []string
}

func (p *place) Created(_ context.Context, id string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.refuse {
		return refuse.Unavailable("no room for a table")
	}
	p.created = append(p.created, id)
	return nil
}

func (p *place) Changed(id string, mark int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.changed = append(p.changed, id)
}

// TestPlacement: the table service makes a table only where its Placement
// places it, and tells it of a change the other nodes cannot see (a table
// cancelled as its last player leaves, which leaves memory with it).
func TestPlacement(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := &place{}
	f := &fixture{t: t, dir: t.TempDir(), place: p}
	f.open()
	t.Cleanup(f.close)
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.created, []string{a.Table}) {
		t.Fatalf("the placement was told of %v, want %s", p.created, a.Table)
	}
	left, err := f.s.Leave(ctx, f.principal(a.Token), a.Table)
	if err != nil || !left.Cancelled {
		t.Fatalf("Ann leaves her table: %+v, %v", left, err)
	}
	if !slices.Equal(p.changed, []string{a.Table}) {
		t.Fatalf("the placement heard of changes to %v, want %s", p.changed, a.Table)
	}
	p.refuse = true
	before := f.s.InMemory()
	if _, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}}); refuse.Status(err) != http.StatusServiceUnavailable {
		t.Fatalf("a table the placement cannot place: %v, want its 503", err)
	}
	if n := f.s.InMemory(); n != before {
		t.Fatalf("a table nobody could place is in memory (%d tables, %d before)", n, before)
	}
}
