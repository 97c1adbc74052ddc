package server_test

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/bus"
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
		ln.Close()
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

func (p *freezable) accept() {
	for {
		c, err := p.ln.Accept()
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
			if err != io.EOF {
				return
			}
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

// servedThrough reads table id through n until it is served, and
// returns how long that took; it fails t past limit.
func servedThrough(t *testing.T, n *node, id, token string, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		st, body := nodeCall(t, n, "GET", "/api/v1/tables/"+id, token, nil, nil)
		if st == 200 {
			return time.Since(start)
		}
		if time.Since(start) > limit {
			t.Fatalf("the table through %s: still %d %s after %v", n.name, st, body, time.Since(start).Round(time.Millisecond))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestClusterTableTakenBackWhileLetGo: node a finds its lease of a table
// gone and lets the table go, slowly (NATS is slow to confirm); meanwhile
// the lease comes back to a, which takes the table up again. Once the
// slow letting go is done, a must still answer for the table on the bus:
// the table is served through b within the lease's time, and play goes
// on through b.
func TestClusterTableTakenBackWhileLetGo(t *testing.T) {
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
	waitFor(t, 10*time.Second, "a to drop its copy", func() bool { return !a.svc.Keeps(id) })
	if st, body := nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, nil); st != 200 || !a.svc.Keeps(id) {
		t.Fatalf("the table through a, once it let go of the old lease: %d %s", st, body)
	}

	took := servedThrough(t, b, id, ben.Token, 20*time.Second)
	t.Logf("served through b %v after a took the table back", took.Round(time.Millisecond))
	if took > 2*time.Second {
		t.Errorf("the table through b took %v, more than the lease's 2s", took.Round(time.Millisecond))
	}
	var u wireUpdate
	nodeCall(t, b, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u)
	seat, tok := int(u.Table.ToMove[0]), ann.Token
	if seat == 1 {
		tok = ben.Token
	}
	mv := chooseMove(t, ctx, u, seat)
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", tok, map[string]any{"move": mv, "version": u.Version}, nil); st != 200 {
		t.Fatalf("a move through b: %d %s", st, body)
	}
	recordHolds(t, a, id, []string{mv})
}

// TestClusterOwnerNobodyReaches: node a holds a table's lease, and
// renews it, but nobody can reach a for the table on the bus (its
// subscription is gone). A request through b must not stall: a is asked
// to answer again (or b takes the lease from it), and the table is
// served through b within the lease's time; a move made then is stored
// once.
func TestClusterOwnerNobodyReaches(t *testing.T) {
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, ann, ben := twoSeats(t, a, b)
	a.svc.Unreachable(id)

	took := servedThrough(t, b, id, ben.Token, 20*time.Second)
	t.Logf("served through b %v after a stopped answering for the table", took.Round(time.Millisecond))
	if took > 2*time.Second {
		t.Errorf("the table through b took %v, more than the lease's 2s", took.Round(time.Millisecond))
	}
	var u wireUpdate
	nodeCall(t, b, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u)
	seat, tok := int(u.Table.ToMove[0]), ann.Token
	if seat == 1 {
		tok = ben.Token
	}
	mv := chooseMove(t, ctx, u, seat)
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", tok, map[string]any{"move": mv, "version": u.Version}, nil); st != 200 {
		t.Fatalf("a move through b: %d %s", st, body)
	}
	recordHolds(t, a, id, []string{mv})
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
// renews it, but nobody reaches a for the table on the bus, and asking a
// to answer again does not help (its bus claims to answer). b takes the
// lease from a within the lease's time and serves the table; a's copy
// goes, and a move made through a afterwards is made once, on b.
func TestClusterOwnerThatCannotHeal(t *testing.T) {
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

	took := servedThrough(t, b, id, ben.Token, 20*time.Second)
	t.Logf("served through b %v after a stopped answering for the table", took.Round(time.Millisecond))
	if took > 3*time.Second {
		t.Errorf("the table through b took %v, more than the lease's 2s and a second", took.Round(time.Millisecond))
	}
	if l, err := b.st.Lease(ctx, id); err != nil || l.Owner != "b" {
		t.Errorf("the lease once b served the table: %+v, %v; want b's", l, err)
	}
	waitFor(t, 10*time.Second, "a to let the table go", func() bool { return !a.svc.Holds(id) })
	var u wireUpdate
	nodeCall(t, b, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u)
	seat, tok := int(u.Table.ToMove[0]), ann.Token
	if seat == 1 {
		tok = ben.Token
	}
	mv := chooseMove(t, ctx, u, seat)
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/moves", tok, map[string]any{"move": mv, "version": u.Version}, nil); st != 200 {
		t.Fatalf("a move through a: %d %s", st, body)
	}
	recordHolds(t, a, id, []string{mv})
}
