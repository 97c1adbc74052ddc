package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/bus"
	"parlour/server"
	"parlour/server/internal/servertest"
	"parlour/store"
	"parlour/store/postgres"
)

// gatedStore is a node's store whose reads of one table, or of one
// identity, the test can hold up once: the read is made, then waits for
// the test to let it return, as a slow round trip to the database would.
type gatedStore struct {
	*postgres.Store
	mu         sync.Mutex
	tables     map[string]*gate
	identities map[string]*gate
}

// gate is one call held up: held closes once it waits, release lets it
// go on, and done (when made) closes once it returned.
type gate struct{ held, release, done chan struct{} }

func newGatedStore(st *postgres.Store) *gatedStore {
	return &gatedStore{Store: st, tables: map[string]*gate{}, identities: map[string]*gate{}}
}

// arm holds up the next read of key in m.
func (g *gatedStore) arm(m map[string]*gate, key string) *gate {
	gt := &gate{held: make(chan struct{}), release: make(chan struct{})}
	g.mu.Lock()
	m[key] = gt
	g.mu.Unlock()
	return gt
}

func (g *gatedStore) wait(m map[string]*gate, key string) {
	g.mu.Lock()
	gt := m[key]
	delete(m, key)
	g.mu.Unlock()
	if gt != nil {
		close(gt.held)
		<-gt.release
	}
}

func (g *gatedStore) Table(ctx context.Context, id string) (store.Table, error) {
	t, err := g.Store.Table(ctx, id)
	g.wait(g.tables, id)
	return t, err
}

func (g *gatedStore) Identity(ctx context.Context, id string) (store.Identity, error) {
	g.wait(g.identities, id)
	return g.Store.Identity(ctx, id)
}

// handLease passes table id's lease to node to at a new epoch, as a node
// that saw the owner gone from the bus does.
func handLease(t *testing.T, ctx context.Context, st *postgres.Store, id, to string) store.Lease {
	t.Helper()
	l, err := st.Lease(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	nl, err := st.TakeLease(ctx, l, to, 2*time.Second)
	if err != nil {
		t.Fatalf("passing the lease of %s from %s to %s: %v", id, l.Owner, to, err)
	}
	return nl
}

// seatNames returns the names at u's seats ("open" for an open one).
func seatNames(u wireUpdate) string {
	var names []string
	for _, s := range u.Table.Seats {
		if s.Kind == "open" {
			names = append(names, "open")
		} else {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ",")
}

// storedSeats returns the names at table id's seats as its record holds
// them ("open" for an open one).
func storedSeats(t *testing.T, st store.Store, id string) string {
	t.Helper()
	row, err := st.Table(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Seats []struct {
			Name     string `json:"name"`
			Identity string `json:"identity"`
			Computer string `json:"computer"`
		} `json:"seats"`
	}
	if err := json.Unmarshal(row.Meta, &m); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range m.Seats {
		if s.Identity == "" && s.Computer == "" {
			names = append(names, "open")
		} else {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ",")
}

// joinUntil asks for Ben's seat at table id through n until it is given
// (a node that just lost or took the lease may answer 503 a moment).
func joinUntil(t *testing.T, n *node, id, name string) server.Seated {
	t.Helper()
	var sat server.Seated
	servertest.Eventually(t, 10*time.Second, name+"'s seat through "+n.name, func() bool {
		st, body := nodeCall(t, n, "POST", "/api/v1/tables/"+id+"/join", "", map[string]any{"name": name}, &sat)
		if st != 200 && st != 201 && st != 503 {
			t.Fatalf("%s's join through %s: %d %s", name, n.name, st, body)
		}
		return st < 300
	})
	return sat
}

// TestClusterRefusesATableMadeCutOffFromTheBus: a node cut off from NATS
// cannot answer for a new table on the bus, so it cannot own it: the
// table is refused 503, saying to try again, and nothing is stored (a
// table answered 201 there would live on in the node's memory without
// its lease, and come back stale once the node took the lease again).
// Once the bus is back, a table is made through the node as ever.
func TestClusterRefusesATableMadeCutOffFromTheBus(t *testing.T) {
	t.Parallel()
	var proxy *cuttable
	nodes := startClusterOpts(t, clusterOpts{nats: func(name, url string) string {
		if name != "a" {
			return url
		}
		var via string
		proxy, via = proxyNATS(t, url)
		return via
	}}, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	proxy.cut()
	servertest.Eventually(t, 20*time.Second, "a's bus to notice it is cut off", func() bool {
		_, err := a.bus.Nodes(ctx)
		return errors.Is(err, bus.ErrUnavailable)
	})
	var ann server.Seated
	st, body := nodeCall(t, a, "POST", "/api/v1/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Ann"}, &ann)
	if st == 503 {
		if !strings.Contains(body, "try again") {
			t.Errorf("the refused table: %s; want it to say to try again", body)
		}
		if open, err := a.st.Recent(ctx, store.Open, 10); err != nil || len(open) != 0 {
			t.Errorf("the store after the refused table: %d open tables, %v; want none", len(open), err)
		}
		proxy.restore()
		servertest.Eventually(t, 20*time.Second, "a's bus to come back", func() bool {
			_, err := a.bus.Nodes(ctx)
			return err == nil
		})
		id, _, _ := twoSeats(t, a, b)
		if l, err := a.st.Lease(ctx, id); err != nil || l.Owner != "a" {
			t.Errorf("the lease of a table made through a once NATS is back: %+v, %v", l, err)
		}
		return
	}
	t.Errorf("a table made through a node cut off from NATS: %d %s; want 503", st, body)
	if st >= 300 {
		return
	}
	// What came of it: play moves to b, and a, taking the lease again,
	// serves its copy from before.
	id := ann.Table
	proxy.restore()
	servertest.Eventually(t, 20*time.Second, "a's bus to come back", func() bool {
		_, err := a.bus.Nodes(ctx)
		return err == nil
	})
	ben := joinUntil(t, b, id, "Ben")
	var u wireUpdate
	nodeCall(t, b, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u)
	seat, tok := int(u.Table.ToMove[0]), ann.Token
	if seat == 1 {
		tok = ben.Token
	}
	var res server.MoveResult
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", tok, map[string]any{"move": chooseMove(t, ctx, u, seat), "version": u.Version}, &res); st != 200 {
		t.Fatalf("a move through b: %d %s", st, body)
	}
	b.svc.Pause() // b's lease runs out; a takes the table again
	servertest.Eventually(t, 20*time.Second, "a to serve the table", func() bool {
		st, _ := nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u)
		return st == 200 && a.svc.Holds(id)
	})
	if u.Version != res.Version || seatNames(u) != "Ann,Ben" {
		t.Errorf("the table through a once it took the lease again: version %d, seats %s; the move through b made version %d, seats Ann,Ben", u.Version, seatNames(u), res.Version)
	}
	st, body = nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/join", "", map[string]any{"name": "Cat"}, nil)
	t.Errorf("a stranger's join through a: %d %s; the record's seats now: %s", st, body, storedSeats(t, a.st, id))
}

// TestClusterRebuildsACopyReadAcrossALeaseChange: node a reads a table's
// record as its owner, slowly; meanwhile the lease passes to b, which
// seats Ben, and back to a at a new epoch. The copy a read before is of
// a lease a did not hold throughout: a drops it and serves the table
// rebuilt from its record, Ben seated, through every node, and a
// stranger's join finds the table full.
func TestClusterRebuildsACopyReadAcrossALeaseChange(t *testing.T) {
	t.Parallel()
	var gated *gatedStore
	nodes := startClusterOpts(t, clusterOpts{store: func(name string, st *postgres.Store) store.Store {
		if name != "a" {
			return st
		}
		gated = newGatedStore(st)
		return gated
	}}, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var ann server.Seated
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Ann"}, &ann); st >= 300 {
		t.Fatalf("create through b: %d %s", st, body)
	}
	id := ann.Table

	handLease(t, ctx, a.st, id, "a")
	servertest.Eventually(t, 10*time.Second, "b to let the table go", func() bool { return !b.svc.Holds(id) })
	g := gated.arm(gated.tables, id)
	done := make(chan struct{})
	go func() {
		defer close(done)
		nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, nil)
	}()
	<-g.held // a has read the record, and not yet kept it

	handLease(t, ctx, a.st, id, "b")
	joinUntil(t, b, id, "Ben")
	servertest.Eventually(t, 10*time.Second, "a to let the lease go", func() bool { return !a.svc.Holds(id) })
	handLease(t, ctx, a.st, id, "a")
	close(g.release)
	<-done

	want := storedSeats(t, a.st, id)
	if want != "Ann,Ben" {
		t.Fatalf("the record's seats: %s, want Ann,Ben", want)
	}
	for _, n := range nodes {
		var u wireUpdate
		if st, body := nodeCall(t, n, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u); st != 200 || seatNames(u) != "Ann,Ben" {
			t.Errorf("the table through %s: %d, seats %s (%s); want Ann,Ben as stored", n.name, st, seatNames(u), body)
		}
	}
	if !a.svc.Holds(id) {
		t.Errorf("a does not hold the lease it was given")
	}
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/join", "", map[string]any{"name": "Cat"}, nil); st != 409 {
		t.Errorf("a stranger's join through a: %d %s; want 409, the table is full", st, body)
	}
	if got := storedSeats(t, a.st, id); got != "Ann,Ben" {
		t.Errorf("the record's seats after a stranger's join: %s, want Ann,Ben", got)
	}
}

// TestClusterFencesAJoinReadUnderAnOldLease: Cat's join reaches node a,
// the table's owner, and waits (its identity read is slow) while the
// lease passes to b, which seats Ben, and back to a at a new epoch. Her
// join, decided on the copy a read under its old lease, must not be
// stored: the write is fenced by the epoch the table was read at, not by
// the lease a holds when it writes. Ben keeps his seat.
func TestClusterFencesAJoinReadUnderAnOldLease(t *testing.T) {
	t.Parallel()
	var gated *gatedStore
	nodes := startClusterOpts(t, clusterOpts{store: func(name string, st *postgres.Store) store.Store {
		if name != "a" {
			return st
		}
		gated = newGatedStore(st)
		return gated
	}}, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var ann server.Seated
	var cat server.Identity // a seat's token joins nothing else: Cat's identity does
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Ann"}, &ann); st >= 300 {
		t.Fatalf("create through a: %d %s", st, body)
	}
	if st, body := nodeCall(t, b, "POST", "/api/v1/identity", "", map[string]any{"name": "Cat"}, &cat); st >= 300 {
		t.Fatalf("Cat's identity through b: %d %s", st, body)
	}
	id := ann.Table
	p, err := b.svc.Authenticate(ctx, cat.Token)
	if err != nil {
		t.Fatal(err)
	}
	g := gated.arm(gated.identities, p.Identity)
	type answer struct {
		st   int
		body string
	}
	joined := make(chan answer, 1)
	go func() {
		st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/join", cat.Token, map[string]any{}, nil)
		joined <- answer{st, body}
	}()
	select { // a has Cat's join, decided on its copy, and writes next
	case <-g.held:
	case got := <-joined:
		t.Fatalf("Cat's join was answered before it reached the store: %d %s", got.st, got.body)
	case <-ctx.Done():
		t.Fatal("Cat's join never reached the store")
	}

	handLease(t, ctx, a.st, id, "b")
	servertest.Eventually(t, 10*time.Second, "a to let the lease go", func() bool { return !a.svc.Holds(id) })
	joinUntil(t, b, id, "Ben")
	handLease(t, ctx, a.st, id, "a")
	servertest.Eventually(t, 10*time.Second, "a to serve the table again", func() bool {
		var u wireUpdate
		st, _ := nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u)
		return st == 200 && seatNames(u) == "Ann,Ben"
	})
	close(g.release)
	if got := <-joined; got.st < 300 {
		t.Errorf("Cat's join on a's old copy: %d %s; want it refused", got.st, got.body)
	}
	if seats := storedSeats(t, a.st, id); seats != "Ann,Ben" {
		t.Errorf("the record's seats after Cat's join on a's old copy: %s, want Ann,Ben", seats)
	}
}
