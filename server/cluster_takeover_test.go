package server_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parlour/bus"
	"parlour/server"
)

// cuttable is a TCP proxy to a NATS server that the test can cut, as a
// power cut or a pulled cable cuts a node off: its connections drop
// without a word, and nothing more gets through until it is restored.
type cuttable struct {
	t      *testing.T
	target string
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
	closed bool
}

// proxyNATS starts a cuttable proxy to the NATS server at natsURL and
// returns it with the URL to connect to it by.
func proxyNATS(t *testing.T, natsURL string) (*cuttable, string) {
	t.Helper()
	p := &cuttable{t: t, target: strings.TrimPrefix(natsURL, "nats://"), addr: "127.0.0.1:0"}
	p.listen()
	t.Cleanup(p.cut)
	return p, "nats://" + p.addr
}

// listen takes connections at p.addr and passes them on.
func (p *cuttable) listen() {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.ln, p.addr, p.closed = ln, ln.Addr().String(), false
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			if p.closed {
				p.mu.Unlock()
				c.Close()
				up.Close()
				return
			}
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
}

// cut drops every connection and takes no more.
func (p *cuttable) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	p.ln.Close()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// restore takes connections again, at the same address.
func (p *cuttable) restore() { p.listen() }

// TestClusterOwnerDiesAfterTheMove: Ann's move, sent through node b,
// reaches a, the table's owner, which commits it (or dies before it
// can), then is cut off and dies without answering. b hears nothing
// until the forward's time is up; it then cannot know whether the move
// was made. A move conditional on the table's version is made again on
// the new owner (b, once a's lease runs out): if a had made it, the new
// owner recognises it and answers it as made (repeated), else makes it
// now; either way it is in the record once and Ann hears it was made. A
// move without a version is not made again: Ann hears 503, that it may
// or may not have been made, and the record holds it at most once.
// Play goes on afterwards through the other nodes.
func TestClusterOwnerDiesAfterTheMove(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		conditional bool
		commit      bool // a makes the move before it dies
	}{
		{"conditional, made before the death", true, true},
		{"conditional, not made", true, false},
		{"unconditional, made before the death", false, true},
		{"unconditional, not made", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var armed atomic.Bool
			reached, release := make(chan struct{}), make(chan struct{})
			var proxy *cuttable
			nodes := startClusterOpts(t, clusterOpts{
				forward: 3 * time.Second, // how long b waits for a's answer
				nats: func(name, url string) string {
					if name != "a" {
						return url
					}
					var via string
					proxy, via = proxyNATS(t, url)
					return via
				},
				wrap: func(name string, h bus.Handler) bus.Handler {
					if name != "a" {
						return h
					}
					return func(ctx context.Context, req bus.Request) ([]byte, error) {
						if !bytes.Contains(req.Data, []byte(`/moves"`)) || !armed.CompareAndSwap(true, false) {
							return h(ctx, req)
						}
						var out []byte
						err := errors.New("the node died before it made the move")
						if tc.commit {
							out, err = h(ctx, req)
						}
						close(reached)
						<-release // the node is cut off meanwhile: the answer goes nowhere
						return out, err
					}
				},
			}, "a", "b", "c")
			a, b, c := nodes[0], nodes[1], nodes[2]
			ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
			defer cancel()

			id, ann, ben := twoSeats(t, a, b)
			var u wireUpdate
			if st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u); st != 200 || len(u.Table.ToMove) != 1 || u.Table.ToMove[0] != 0 {
				t.Fatalf("the table through b: %d %s; want Ann to move", st, body)
			}
			mv := chooseMove(t, ctx, u, 0)
			req := map[string]any{"move": mv}
			if tc.conditional {
				req["version"] = u.Version
			}

			armed.Store(true)
			type answer struct {
				status int
				body   string
				res    server.MoveResult
			}
			answered := make(chan answer, 1)
			start := time.Now()
			go func() {
				var an answer
				an.status, an.body = nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", ann.Token, req, &an.res)
				answered <- an
			}()
			select {
			case <-reached:
			case <-ctx.Done():
				t.Fatal("the move never reached the owner")
			}
			proxy.cut() // a is cut off from NATS, then dies
			close(release)
			a.kill()

			var an answer
			select {
			case an = <-answered:
			case <-ctx.Done():
				t.Fatal("the move was never answered")
			}
			took := time.Since(start)
			t.Logf("answered %v after the move was sent: %d %s", took.Round(time.Millisecond), an.status, strings.TrimSpace(an.body))

			row, err := c.st.Table(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			made := 0
			for _, m := range row.Moves {
				if m.Seat == 0 {
					made++
				}
			}
			switch {
			case tc.conditional:
				if an.status != 200 || an.res.Version != u.Version+1 || an.res.Repeated != tc.commit {
					t.Errorf("the conditional move: %d %s; want 200 at version %d, repeated %v", an.status, an.body, u.Version+1, tc.commit)
				}
				if made != 1 || len(row.Moves) != 1 {
					t.Errorf("the record holds %d moves (%d of them Ann's %q), want her move once", len(row.Moves), made, mv)
				}
			default:
				if an.status != 503 || !strings.Contains(an.body, "may or may not have been done") {
					t.Errorf("the move without a version: %d %s; want 503 saying it may or may not have been made", an.status, an.body)
				}
				want := 0
				if tc.commit {
					want = 1
				}
				if made != want || len(row.Moves) != want {
					t.Errorf("the record holds %d moves (%d of them Ann's %q), want %d", len(row.Moves), made, mv, want)
				}
			}
			if took > 3*time.Second+2*time.Second+3*time.Second {
				t.Errorf("the answer took %v: more than the forward's time and a takeover", took)
			}

			// Play goes on through the others: a repeat of the
			// conditional move now is answered as made, and Ben moves.
			if tc.conditional {
				var again server.MoveResult
				if st, body := nodeCall(t, c, "POST", "/api/v1/tables/"+id+"/moves", ann.Token, req, &again); st != 200 || !again.Repeated || again.Version != u.Version+1 {
					t.Errorf("the same conditional move again through c: %d %s, want 200 repeated", st, body)
				}
			}
			if len(row.Moves) == 0 {
				if st, body := nodeCall(t, c, "POST", "/api/v1/tables/"+id+"/moves", ann.Token, map[string]any{"move": mv, "version": u.Version}, nil); st != 200 {
					t.Fatalf("Ann's move made again through c: %d %s", st, body)
				}
			}
			var v wireUpdate
			if st, body := nodeCall(t, c, "GET", "/api/v1/tables/"+id, ben.Token, nil, &v); st != 200 || len(v.Table.ToMove) != 1 || v.Table.ToMove[0] != 1 {
				t.Fatalf("the table through c: %d %s; want Ben to move", st, body)
			}
			if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", ben.Token, map[string]any{"move": chooseMove(t, ctx, v, 1), "version": v.Version}, nil); st != 200 {
				t.Fatalf("Ben's move through b after the takeover: %d %s", st, body)
			}
			if row, _ = c.st.Table(ctx, id); len(row.Moves) != 2 {
				t.Errorf("the record holds %d moves after Ben's, want 2", len(row.Moves))
			}
		})
	}
}

// TestClusterRequestMidTakeoverWaits: the owner of a table dies without
// letting its lease go; requests about the table through two other nodes
// at once (a read and a move) wait for one of them to take the table
// over, rather than fail, and are answered within a second: the dead
// owner is gone from the bus, so its lease is taken over before it runs
// out (a new epoch fences it). The move is made once.
func TestClusterRequestMidTakeoverWaits(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b", "c")
	a, b, c := nodes[0], nodes[1], nodes[2]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id, ann, ben := twoSeats(t, a, b)
	var u wireUpdate
	if st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u); st != 200 {
		t.Fatalf("the table through b: %d %s", st, body)
	}
	mv := chooseMove(t, ctx, u, 0)
	l, err := b.st.Lease(ctx, id)
	if err != nil || l.Owner != "a" {
		t.Fatalf("the lease: %+v, %v; want a's", l, err)
	}

	a.kill()
	killed := time.Now()
	// The lease as a last renewed it, which may have come after the
	// read above (for the log of how early the takeover came).
	if after, err := b.st.Lease(ctx, id); err != nil {
		t.Fatal(err)
	} else if after.Owner == "a" {
		l = after // else already taken over: a's lease ended before
	}
	type answer struct {
		what   string
		status int
		body   string
		took   time.Duration
		at     time.Time
	}
	answers := make(chan answer, 2)
	go func() {
		st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+id, ben.Token, nil, nil)
		answers <- answer{"Ben's read through b", st, body, time.Since(killed), time.Now()}
	}()
	go func() {
		st, body := nodeCall(t, c, "POST", "/api/v1/tables/"+id+"/moves", ann.Token, map[string]any{"move": mv, "version": u.Version}, nil)
		answers <- answer{"Ann's move through c", st, body, time.Since(killed), time.Now()}
	}()
	for range 2 {
		var an answer
		select {
		case an = <-answers:
		case <-ctx.Done():
			t.Fatal("a request about the table was never answered")
		}
		t.Logf("%s: %d after %v", an.what, an.status, an.took.Round(time.Millisecond))
		if an.status != 200 {
			t.Errorf("%s mid-takeover: %d %s, want 200 once the table is taken over", an.what, an.status, an.body)
		}
		// Served by a new owner, which takes the lease over as soon as
		// it sees the dead owner gone from the bus (twice, a quarter
		// second apart), well before the lease (2 s) would run out.
		if an.took > time.Second {
			t.Errorf("%s answered %v after the death (%v before the lease's end); want it within a second: the dead owner is gone from the bus", an.what, an.took, l.Expires.Sub(an.at))
		}
	}
	row, err := b.st.Table(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(row.Moves) != 1 {
		t.Errorf("the record holds %d moves, want Ann's once", len(row.Moves))
	}
	if l, err := b.st.Lease(ctx, id); err != nil || l.Owner == "a" || l.Owner == "" {
		t.Errorf("the lease after the takeover: %+v, %v", l, err)
	}
}

// TestClusterBusOutage: node b loses NATS (its connection cut) while a,
// which owns a table, keeps it. Through b, a read of the table and a
// move (with or without a version) are answered 503 at once, saying
// nothing was done and to try again, and nothing is stored; through a
// play goes on. Once b's connection is back, b serves the table again by
// itself.
func TestClusterBusOutage(t *testing.T) {
	t.Parallel()
	var proxy *cuttable
	nodes := startClusterOpts(t, clusterOpts{nats: func(name, url string) string {
		if name != "b" {
			return url
		}
		var via string
		proxy, via = proxyNATS(t, url)
		return via
	}}, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	id, ann, ben := twoSeats(t, a, b)
	var u wireUpdate
	nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u)
	mv := chooseMove(t, ctx, u, 0)

	proxy.cut()
	// b's connection notices the cut when it reads the end of it; a
	// request sent before then waits for its answer until its time is
	// up (as one sent into a silent partition does until the pings
	// fail), which is another matter.
	for {
		_, err := b.bus.Nodes(ctx)
		if errors.Is(err, bus.ErrUnavailable) {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("b's bus does not notice it is cut off: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	for _, tc := range []struct {
		what, method, path string
		body               any
	}{
		{"a read of the table", "GET", "/api/v1/tables/" + id, nil},
		{"a move without a version", "POST", "/api/v1/tables/" + id + "/moves", map[string]any{"move": mv}},
		{"a move with a version", "POST", "/api/v1/tables/" + id + "/moves", map[string]any{"move": mv, "version": u.Version}},
	} {
		st, body := nodeCall(t, b, tc.method, tc.path, ann.Token, tc.body, nil)
		if st != 503 || !strings.Contains(body, "nothing was done") || !strings.Contains(body, "try again") {
			t.Errorf("%s through b, cut off from NATS: %d %s; want 503 saying nothing was done, try again", tc.what, st, body)
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the answers through b while it was cut off took %v", d)
	}
	if row, err := a.st.Table(ctx, id); err != nil || len(row.Moves) != 0 {
		t.Fatalf("the record after the refused moves: %v, %v", row.Moves, err)
	}
	var res server.MoveResult
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/moves", ann.Token, map[string]any{"move": mv, "version": u.Version}, &res); st != 200 {
		t.Fatalf("Ann's move through a, the owner, meanwhile: %d %s", st, body)
	}

	proxy.restore()
	back := time.Now()
	for {
		st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+id, ben.Token, nil, &u)
		if st == 200 && u.Version == res.Version {
			break
		}
		if time.Since(back) > 15*time.Second {
			t.Fatalf("the table through b after NATS came back: %d %s", st, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", ben.Token, map[string]any{"move": chooseMove(t, ctx, u, 1), "version": u.Version}, nil); st != 200 {
		t.Fatalf("Ben's move through b after NATS came back: %d %s", st, body)
	}
	if l, err := a.st.Lease(ctx, id); err != nil || l.Owner != "a" {
		t.Errorf("the lease after the outage: %+v, %v; want a's still", l, err)
	}
	t.Logf("b served the table again %v after its connection came back", time.Since(back).Round(time.Millisecond))
}

// TestClusterStoreOutage stops the cluster's PostgreSQL under two nodes.
// Meanwhile nothing is answered 500: what needs the store (a profile, a
// move, a new table) is answered 503 saying to try again, what does not
// (the owner's table in memory, the open tables) as ever; once the
// owner's lease has run out unrenewed, the table is 503 on both nodes.
// When PostgreSQL is back, the nodes serve the table again by
// themselves, a move goes through, and the record holds it once.
func TestClusterStoreOutage(t *testing.T) {
	t.Parallel()
	nodes := startClusterOpts(t, clusterOpts{ownPG: true}, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var sess server.Session
	if st, body := nodeCall(t, a, "POST", "/api/v1/accounts", "", map[string]string{"name": "Ann", "password": testPassword}, &sess); st != 201 {
		t.Fatalf("sign up: %d %s", st, body)
	}
	var ann, ben server.Seated
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables", sess.Token, map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, &ann); st >= 300 {
		t.Fatalf("create: %d %s", st, body)
	}
	id := ann.Table
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/join", "", map[string]any{"name": "Ben"}, &ben); st >= 300 {
		t.Fatalf("join through b: %d %s", st, body)
	}
	var u wireUpdate
	for _, n := range nodes {
		if st, body := nodeCall(t, n, "GET", "/api/v1/tables/"+id, sess.Token, nil, &u); st != 200 {
			t.Fatalf("the table through %s: %d %s", n.name, st, body)
		}
	}
	mv := chooseMove(t, ctx, u, 0)

	a.pg.Stop()
	t.Cleanup(func() { a.pg.Restart(context.Background()) }) // should the test stop half way
	type ask struct {
		what         string
		n            *node
		method, path string
		body         any
		want         int
	}
	check := func(when string, asks []ask) {
		t.Helper()
		for _, q := range asks {
			st, body := nodeCall(t, q.n, q.method, q.path, sess.Token, q.body, nil)
			switch {
			case st != q.want:
				t.Errorf("%s %s through %s: %d %s, want %d", when, q.what, q.n.name, st, body, q.want)
			case st == 503 && !strings.Contains(body, "try again"):
				t.Errorf("%s %s through %s: %s; want it to say to try again", when, q.what, q.n.name, body)
			}
		}
	}
	check("while PostgreSQL is away,", []ask{
		{"the owner's table", a, "GET", "/api/v1/tables/" + id, nil, 200},
		{"Ann's profile", b, "GET", "/api/v1/players/Ann", nil, 503},
		{"Ann's move", b, "POST", "/api/v1/tables/" + id + "/moves", map[string]any{"move": mv, "version": u.Version}, 503},
		{"the open tables", b, "GET", "/api/v1/tables", nil, 200},
		{"a new table", b, "POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, 503},
	})
	time.Sleep(2*time.Second + 500*time.Millisecond) // a's lease runs out unrenewed
	check("once the owner's lease ran out,", []ask{
		{"the table", a, "GET", "/api/v1/tables/" + id, nil, 503},
		{"the table", b, "GET", "/api/v1/tables/" + id, nil, 503},
		{"Ann's move", b, "POST", "/api/v1/tables/" + id + "/moves", map[string]any{"move": mv, "version": u.Version}, 503},
	})

	if err := a.pg.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	var res server.MoveResult
	for {
		st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", sess.Token, map[string]any{"move": mv, "version": u.Version}, &res)
		if st == 200 {
			break
		}
		if st == 500 || time.Since(back) > 30*time.Second {
			t.Fatalf("Ann's move through b after PostgreSQL is back: %d %s", st, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("the move went through %v after PostgreSQL's restart", time.Since(back).Round(time.Millisecond))
	for _, n := range nodes {
		if st, body := nodeCall(t, n, "GET", "/api/v1/tables/"+id, ben.Token, nil, &u); st != 200 || u.Version != res.Version {
			t.Errorf("the table through %s after the outage: %d %s, want version %d", n.name, st, body, res.Version)
		}
	}
	if st, body := nodeCall(t, b, "GET", "/api/v1/players/Ann", "", nil, nil); st != 200 {
		t.Errorf("Ann's profile after the outage: %d %s", st, body)
	}
	row, err := b.st.Table(ctx, id)
	if err != nil || len(row.Moves) != 1 {
		t.Fatalf("the record after the outage: %+v, %v; want Ann's move once", row.Moves, err)
	}
}
