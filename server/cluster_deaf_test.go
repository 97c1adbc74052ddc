package server_test

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/bus"
	"parlour/server"
	"parlour/server/internal/servertest"
	"parlour/store"
)

// freezable is a TCP proxy to a NATS server that the test can freeze, as
// SIGSTOP freezes the NATS server's process: bytes the nodes send are
// taken in but go no further, nothing comes back, and connections made
// meanwhile get no greeting; on thaw everything held goes through, and a
// connection its node gave up on meanwhile ends then (as the thawed
// server reads its end).
type freezable struct {
	t      *testing.T
	target string
	ln     net.Listener
	mu     sync.Mutex
	thawed chan struct{} // closed while not frozen
	conns  []net.Conn
}

func freezeProxy(t *testing.T, natsURL string) (*freezable, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &freezable{t: t, target: strings.TrimPrefix(natsURL, "nats://"), ln: ln, thawed: make(chan struct{})}
	close(p.thawed)
	go p.accept()
	t.Cleanup(func() {
		p.mu.Lock()
		p.ln.Close()
		p.mu.Unlock()
		p.thaw()
		p.mu.Lock()
		for _, c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
	})
	return p, "nats://" + ln.Addr().String()
}

func (p *freezable) gate() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.thawed
}

func (p *freezable) freeze() {
	p.mu.Lock()
	p.thawed = make(chan struct{})
	p.mu.Unlock()
}

func (p *freezable) thaw() {
	p.mu.Lock()
	select {
	case <-p.thawed:
	default:
		close(p.thawed)
	}
	p.mu.Unlock()
}

// kill drops every connection and refuses new ones, as a NATS server
// killed does, until restart.
func (p *freezable) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ln.Close()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// restart takes connections again at the same address.
func (p *freezable) restart() {
	p.mu.Lock()
	addr := p.ln.Addr().String()
	p.mu.Unlock()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go p.accept()
}

func (p *freezable) accept() {
	p.mu.Lock()
	ln := p.ln
	p.mu.Unlock()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			<-p.gate() // a frozen server greets nobody
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				return
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go p.pipe(up, c)
			go p.pipe(c, up)
		}()
	}
}

// pipe copies src to dst, holding what it read while frozen.
func (p *freezable) pipe(dst, src net.Conn) {
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		<-p.gate()
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// gatedBus is a node's bus whose letting go of one table the test can
// hold up once, as a slow round trip to NATS would.
type gatedBus struct {
	bus.Bus
	mu      sync.Mutex
	disowns map[string]*gate
}

func (g *gatedBus) arm(id string) *gate {
	gt := &gate{held: make(chan struct{}), release: make(chan struct{}), done: make(chan struct{})}
	g.mu.Lock()
	g.disowns[id] = gt
	g.mu.Unlock()
	return gt
}

func (g *gatedBus) Disown(ctx context.Context, id string) error {
	g.mu.Lock()
	gt := g.disowns[id]
	delete(g.disowns, id)
	g.mu.Unlock()
	if gt == nil {
		return g.Bus.Disown(ctx, id)
	}
	close(gt.held)
	<-gt.release
	defer close(gt.done)
	return g.Bus.Disown(ctx, id)
}

// seenThrough follows table id's event stream through n for token (a
// watcher there asks the table's owner for its updates by the table's
// address on the bus) until it shows version want, connecting again
// whenever the stream ends, and returns how long that took; it fails t
// past limit.
func seenThrough(t *testing.T, n *node, id, token string, want int, limit time.Duration) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit+10*time.Second)
	defer cancel()
	start := time.Now()
	for {
		for u := range followEvents[wireUpdate](ctx, n.srv.URL, id, token, 64) {
			if u.Version >= want {
				cancel()
				return time.Since(start)
			}
		}
		if time.Since(start) > limit {
			t.Fatalf("version %d did not show through %s in %v", want, n.name, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// movesStored fails t unless table id's record holds n moves.
func movesStored(t *testing.T, st store.Store, id string, n int) {
	t.Helper()
	row, err := st.Table(context.Background(), id)
	if err != nil || len(row.Moves) != n {
		t.Fatalf("the record holds %d moves (%v), want %d", len(row.Moves), err, n)
	}
}

// moveThrough makes the next move of the Nymphabet table id through n,
// for whichever of ann and ben is to move, and returns the version it
// made.
func moveThrough(t *testing.T, n *node, id string, ann, ben server.Seated) int {
	t.Helper()
	var u wireUpdate
	if st, body := nodeCall(t, n, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u); st != 200 {
		t.Fatalf("the table through %s: %d %s", n.name, st, body)
	}
	seat, tok := int(u.Table.ToMove[0]), ann.Token
	if seat == 1 {
		tok = ben.Token
	}
	var res server.MoveResult
	if st, body := nodeCall(t, n, "POST", "/api/v1/tables/"+id+"/moves", tok, map[string]any{"move": chooseMove(t, context.Background(), u, seat), "version": u.Version}, &res); st != 200 {
		t.Fatalf("a move through %s: %d %s", n.name, st, body)
	}
	return res.Version
}

// TestClusterTableTakenBackWhileLetGo: node a finds its lease of a table
// gone and lets the table go, slowly (NATS is slow to confirm); meanwhile
// the lease comes back to a, which takes the table up again. Once the
// slow letting go is done, a must still answer for the table on the bus:
// a move through a shows on a stream through b (whose watcher asks the
// table's owner by the table's address) within the lease's time, and
// play goes on through b.
func TestClusterTableTakenBackWhileLetGo(t *testing.T) {
	t.Parallel()
	var gb *gatedBus
	nodes := startClusterOpts(t, clusterOpts{bus: func(name string, b bus.Bus) bus.Bus {
		if name != "a" {
			return b
		}
		gb = &gatedBus{Bus: b, disowns: map[string]*gate{}}
		return gb
	}}, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, ann, ben := twoSeats(t, a, b)

	g := gb.arm(id)
	handLease(t, ctx, a.st, id, "b")
	<-g.held // a lets the table go
	handLease(t, ctx, a.st, id, "a")
	if st, body := nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, nil); st != 200 {
		t.Fatalf("the table through a, which holds its lease again: %d %s", st, body)
	}
	close(g.release)
	<-g.done
	// The letting go drops a's copy; a local player's request reads it
	// again, and a keeps it (and its lease) from then on.
	servertest.Eventually(t, 10*time.Second, "a to drop its copy", func() bool { return !a.svc.Keeps(id) })
	if st, body := nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, nil); st != 200 || !a.svc.Keeps(id) {
		t.Fatalf("the table through a, once it let go of the old lease: %d %s", st, body)
	}

	v := moveThrough(t, a, id, ann, ben)
	took := seenThrough(t, b, id, ben.Token, v, 20*time.Second)
	t.Logf("a's move showed through b %v after b asked", took.Round(time.Millisecond))
	if took > 2*time.Second {
		t.Errorf("a's move took %v to show through b, more than the lease's 2s", took.Round(time.Millisecond))
	}
	moveThrough(t, b, id, ann, ben)
	movesStored(t, a.st, id, 2)
}

// TestClusterOwnerNobodyReaches: node a holds a table's lease, and
// renews it, but nobody can reach a by the table's address on the bus
// (its subscription is gone). A watcher through b, which asks the owner
// by that address, must not stall: a is asked to answer again, and a's
// move shows through b within the lease's time; play goes on.
func TestClusterOwnerNobodyReaches(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	id, ann, ben := twoSeats(t, a, b)
	a.svc.Unreachable(id)

	v := moveThrough(t, a, id, ann, ben)
	took := seenThrough(t, b, id, ben.Token, v, 20*time.Second)
	t.Logf("a's move showed through b %v after b asked", took.Round(time.Millisecond))
	if took > 2*time.Second {
		t.Errorf("a's move took %v to show through b, more than the lease's 2s", took.Round(time.Millisecond))
	}
	moveThrough(t, b, id, ann, ben)
	movesStored(t, a.st, id, 2)
}

// deafBus is a node's bus that, once told to, claims to answer for a
// table without doing so, as a subscription NATS no longer routes to
// would.
type deafBus struct {
	bus.Bus
	mu   sync.Mutex
	deaf map[string]bool
}

func (d *deafBus) Own(ctx context.Context, id string) error {
	d.mu.Lock()
	deaf := d.deaf[id]
	d.mu.Unlock()
	if deaf {
		return nil
	}
	return d.Bus.Own(ctx, id)
}

// TestClusterOwnerThatCannotHeal: node a holds a table's lease and
// renews it, but nobody reaches a by the table's address on the bus,
// and asking a to answer again does not help (its bus claims to answer).
// A watcher through b finds nobody answering: b takes the lease from a
// within the lease's time and shows a's move; a's copy goes, and a move
// made through a afterwards is made once, on b.
func TestClusterOwnerThatCannotHeal(t *testing.T) {
	t.Parallel()
	var db *deafBus
	nodes := startClusterOpts(t, clusterOpts{bus: func(name string, b bus.Bus) bus.Bus {
		if name != "a" {
			return b
		}
		db = &deafBus{Bus: b, deaf: map[string]bool{}}
		return db
	}}, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, ann, ben := twoSeats(t, a, b)
	db.mu.Lock()
	db.deaf[id] = true
	db.mu.Unlock()
	a.svc.Unreachable(id)

	v := moveThrough(t, a, id, ann, ben)
	took := seenThrough(t, b, id, ben.Token, v, 20*time.Second)
	t.Logf("a's move showed through b %v after b asked", took.Round(time.Millisecond))
	if took > 3*time.Second {
		t.Errorf("a's move took %v to show through b, more than the lease's 2s and a second", took.Round(time.Millisecond))
	}
	if l, err := b.st.Lease(ctx, id); err != nil || l.Owner != "b" {
		t.Errorf("the lease once b showed the move: %+v, %v; want b's", l, err)
	}
	servertest.Eventually(t, 10*time.Second, "a to let the table go", func() bool { return !a.svc.Holds(id) })
	moveThrough(t, a, id, ann, ben)
	movesStored(t, a.st, id, 2)
}

// storedVersion returns table id's version and seats as its record
// holds them.
func storedVersion(t *testing.T, st store.Store, id string) (int, string) {
	t.Helper()
	row, err := st.Table(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Changes int `json:"changes"`
	}
	if err := json.Unmarshal(row.Meta, &m); err != nil {
		t.Fatal(err)
	}
	return m.Changes + len(row.Moves), storedSeats(t, st, id)
}

// TestClusterNATSKilledAndFrozenUnderLoad plays six tables through
// three nodes, each read and move through the nodes in turn, while NATS
// is killed (every connection dropped, none taken for a while) and later
// frozen (it takes bytes in and answers nothing, as under SIGSTOP, for
// longer than the nodes take to notice); new tables asked for meanwhile
// are refused 503. Afterwards every table, those made once NATS is back
// included, read through every node within a few lease times, matches
// its record (the same version and seats), and every acknowledged move
// is in the record.
func TestClusterNATSKilledAndFrozenUnderLoad(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a minute of load")
	}
	var proxy *freezable
	var via string
	nodes := startClusterOpts(t, clusterOpts{nats: func(name, url string) string {
		if proxy == nil {
			proxy, via = freezeProxy(t, url)
		}
		return via
	}}, "a", "b", "c")
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	type played struct {
		id       string
		ann, ben server.Seated
		mu       sync.Mutex
		acked    []string
	}
	var tables []*played
	for i := range 6 {
		id, ann, ben := twoSeats(t, nodes[i%3], nodes[(i+1)%3])
		tables = append(tables, &played{id: id, ann: ann, ben: ben})
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i, p := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := i; ; k++ {
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
				}
				n := nodes[k%3]
				var u wireUpdate
				if st, _ := nodeCall(t, n, "GET", "/api/v1/tables/"+p.id, p.ann.Token, nil, &u); st != 200 {
					continue
				}
				if u.Table.Status == store.Finished || len(u.Table.ToMove) == 0 {
					return
				}
				seat, tok := int(u.Table.ToMove[0]), p.ann.Token
				if seat == 1 {
					tok = p.ben.Token
				}
				mv := chooseMove(t, ctx, u, seat)
				// The same move at the same version until it is answered:
				// a conditional move is made once however often it is
				// sent.
				for try := 0; try < 40; try++ {
					var res server.MoveResult
					st, _ := nodeCall(t, nodes[(k+try)%3], "POST", "/api/v1/tables/"+p.id+"/moves", tok, map[string]any{"move": mv, "version": u.Version}, &res)
					if st == 200 {
						p.mu.Lock()
						p.acked = append(p.acked, mv)
						p.mu.Unlock()
						break
					}
					if st != 503 {
						break
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
		}()
	}
	var made []string
	var mmu sync.Mutex
	// A node cut off from NATS cannot own a new table: it refuses it.
	create := func(when string, away bool) {
		for _, n := range nodes {
			var s server.Seated
			st, body := nodeCall(t, n, "POST", "/api/v1/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Dot"}, &s)
			switch {
			case st < 300 && away:
				t.Errorf("a new table through %s %s: %d %s; want 503", n.name, when, st, body)
				fallthrough
			case st == 201 || st == 200:
				mmu.Lock()
				made = append(made, s.Table)
				mmu.Unlock()
			case st != 503:
				t.Errorf("a new table through %s %s: %d %s", n.name, when, st, body)
			}
		}
	}
	time.Sleep(2 * time.Second)
	proxy.kill()
	time.Sleep(500 * time.Millisecond)
	create("while NATS is killed", true)
	time.Sleep(3 * time.Second)
	proxy.restart()
	time.Sleep(3 * time.Second)
	proxy.freeze()
	time.Sleep(12 * time.Second) // the nodes notice in 10 to 15 s
	create("while NATS is frozen", true)
	time.Sleep(4 * time.Second)
	proxy.thaw()
	thawed := time.Now()
	time.Sleep(3 * time.Second)
	create("once NATS is back", false)
	close(stop)
	wg.Wait()

	ids := append([]string(nil), made...)
	for _, p := range tables {
		ids = append(ids, p.id)
	}
	var slowest time.Duration
	for _, id := range ids {
		for _, n := range nodes {
			start := time.Now()
			for {
				wantV, wantSeats := storedVersion(t, n.st, id)
				var u wireUpdate
				st, body := nodeCall(t, n, "GET", "/api/v1/tables/"+id, "", nil, &u)
				if st == 200 && u.Version == wantV && seatNames(u) == wantSeats {
					break
				}
				if time.Since(start) > 10*time.Second {
					t.Errorf("table %s through %s: %d, version %d, seats %s (%.200s); the record: version %d, seats %s",
						id, n.name, st, u.Version, seatNames(u), body, wantV, wantSeats)
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			slowest = max(slowest, time.Since(start))
		}
	}
	for _, p := range tables {
		row, err := nodes[0].st.Table(ctx, p.id)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for _, m := range row.Moves {
			if i < len(p.acked) && m.Text == p.acked[i] {
				i++
			}
		}
		if i < len(p.acked) {
			t.Errorf("table %s: %d moves acknowledged, only %d of them in the record of %d moves", p.id, len(p.acked), i, len(row.Moves))
		}
	}
	n := 0
	for _, p := range tables {
		n += len(p.acked)
	}
	t.Logf("%d moves acknowledged; %d new tables made; every table matched its record through every node, the slowest %v after the reads began (%v after the thaw)",
		n, len(made), slowest.Round(time.Millisecond), time.Since(thawed).Round(time.Millisecond))
}
