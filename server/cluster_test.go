package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/bus"
	natsbus "parlour/bus/nats"
	"parlour/bus/nats/natstest"
	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server"
	"parlour/store"
	"parlour/store/postgres"
	"parlour/store/postgres/pgtest"
	"parlour/store/sqlite"
)

// node is one node of a test cluster.
type node struct {
	name string
	pg   *pgtest.Server // the cluster's PostgreSQL, shared by every node
	st   *postgres.Store
	bus  *natsbus.Bus
	svc  *server.Service
	h    *server.Handler
	srv  *httptest.Server
	dead bool
}

// startCluster starts PostgreSQL, NATS and n nodes on them; everything is
// removed when t ends.
func startCluster(t *testing.T, names ...string) []*node {
	return startClusterWith(t, 0, names...)
}

// startClusterWith is startCluster with the nodes' walk-away time (0: the
// default).
func startClusterWith(t *testing.T, walkAway time.Duration, names ...string) []*node {
	t.Helper()
	return startClusterOpts(t, clusterOpts{walkAway: walkAway}, names...)
}

// clusterOpts tune a test cluster's nodes; the zero value is the default.
type clusterOpts struct {
	walkAway, maxWait time.Duration
	forward           time.Duration // server.Cluster.Forward
	// nats, when set, returns the URL node name connects to NATS by
	// (a proxy the test can cut, say), given the server's.
	nats func(name, url string) string
	// wrap, when set, wraps the handler of node name's bus.
	wrap func(name string, h bus.Handler) bus.Handler
	// store, when set, wraps the store node name serves from.
	store func(name string, st *postgres.Store) store.Store
	// bus, when set, wraps node name's bus as its service sees it.
	bus func(name string, b bus.Bus) bus.Bus
}

// startClusterOpts is startCluster with opts.
func startClusterOpts(t *testing.T, opts clusterOpts, names ...string) []*node {
	t.Helper()
	ctx := context.Background()
	pg, err := pgtest.Start(ctx, pgtest.Options{})
	if err != nil {
		t.Logf("starting PostgreSQL: %v", err)
		pgtest.Missing(t)
	}
	t.Cleanup(func() { pg.Close() })
	url := pg.NewDatabase(t)
	natsURL := natstest.URL(natstest.Run(t, -1))
	var nodes []*node
	for _, name := range names {
		n := &node{name: name, pg: pg}
		if n.st, err = postgres.Open(ctx, url, postgres.Options{}); err != nil {
			t.Fatal(err)
		}
		relay := server.NewRelay()
		handler, via := relay.Handle, natsURL
		if opts.wrap != nil {
			handler = opts.wrap(name, handler)
		}
		if opts.nats != nil {
			via = opts.nats(name, natsURL)
		}
		if n.bus, err = natsbus.Connect(ctx, natsbus.Config{URL: via, Node: name, Handler: handler}); err != nil {
			t.Fatal(err)
		}
		var st store.Store = n.st
		if opts.store != nil {
			st = opts.store(name, n.st)
		}
		var b bus.Bus = n.bus
		if opts.bus != nil {
			b = opts.bus(name, n.bus)
		}
		n.svc, err = server.New(ctx, server.Config{
			Store: st, Games: games.Registry(), NewBot: bots, Logger: testLogger(),
			Cluster: &server.Cluster{Bus: b, Relay: relay, Lease: 2 * time.Second, Forward: opts.forward}, WalkAway: opts.walkAway, MaxWait: opts.maxWait,
		})
		if err != nil {
			t.Fatal(err)
		}
		n.h = server.NewHandler(n.svc, server.Limits{})
		n.srv = httptest.NewServer(n.h)
		nodes = append(nodes, n)
		t.Cleanup(func() {
			if !n.dead {
				n.h.CloseSockets("test over")
				n.svc.Close()
				n.bus.Close()
				n.srv.Close()
			}
			n.st.Close()
		})
	}
	return nodes
}

// twoSeats makes a Nymphabet table through node made for Ann and seats
// Ben at it through node joined, and returns the table and both seats.
func twoSeats(t *testing.T, made, joined *node) (string, server.Seated, server.Seated) {
	t.Helper()
	var ann, ben server.Seated
	if st, body := nodeCall(t, made, "POST", "/api/v1/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Ann"}, &ann); st >= 300 {
		t.Fatalf("create through %s: %d %s", made.name, st, body)
	}
	if st, body := nodeCall(t, joined, "POST", "/api/v1/tables/"+ann.Table+"/join", "", map[string]any{"name": "Ben"}, &ben); st >= 300 {
		t.Fatalf("join through %s: %d %s", joined.name, st, body)
	}
	return ann.Table, ann, ben
}

// followEvents follows table id's event stream on the server at base for
// token, sending each update decoded as a T, until ctx ends or the
// stream does; then it closes the channel, of room buf.
func followEvents[T any](ctx context.Context, base, id, token string, buf int) <-chan T {
	out := make(chan T, buf)
	go func() {
		defer close(out)
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/v1/tables/"+id+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		defer res.Body.Close()
		dec := json.NewDecoder(res.Body)
		for {
			var v T
			if dec.Decode(&v) != nil {
				return
			}
			out <- v
		}
	}()
	return out
}

// testLogger logs to stderr under -v, else nowhere.
func testLogger() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	return slog.New(slog.DiscardHandler)
}

// kill stops n abruptly: no lease released, nothing disowned.
func (n *node) kill() {
	n.dead = true
	n.bus.Close() // the other nodes' requests find nobody at once
	n.srv.CloseClientConnections()
	n.srv.Close()
	n.svc.Die()
}

// nodeCall sends one request to node n's HTTP door.
func nodeCall(t *testing.T, n *node, method, path, token string, body any, out any) (int, string) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, n.srv.URL+path, r)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s on node %s: %v", method, path, n.name, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
	return res.StatusCode, string(raw)
}

// recordHolds fails t unless table id's record, read from node n's
// store, holds exactly the moves acked, in order.
func recordHolds(t *testing.T, n *node, id string, acked []string) {
	t.Helper()
	row, err := n.st.Table(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	for _, m := range row.Moves {
		stored = append(stored, m.Text)
	}
	if strings.Join(stored, " ") != strings.Join(acked, " ") {
		t.Fatalf("the record holds %d moves %q; %d were acknowledged: %q", len(stored), stored, len(acked), acked)
	}
}

// metric returns the value of a metric on node n's /metrics.
func metric(t *testing.T, n *node, name string) string {
	_, body := nodeCall(t, n, "GET", "/metrics", "", nil, nil)
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			return v
		}
	}
	return ""
}

// TestClusterPlaysThroughAnyNodeAndSurvivesTheOwner plays a Nymphabet
// game on three nodes: the players on A and B, a spectator's socket on
// C. Every move made through one node shows on C's socket. Mid-game the
// owner, A, dies without letting go; play goes on through B and C, the
// table taken over from its record; every acknowledged move is in the
// record once.
// Quizl's game has secret setups (each made by the server at random,
// sent through the player's own node) and seats moving at once; Ben
// sends his moves without a version, so that after the owner's death his
// move is one the node makes again only because nobody had received it.
func TestClusterPlaysThroughAnyNodeAndSurvivesTheOwner(t *testing.T) {
	for _, name := range []string{"nymphabet", "quizl"} {
		t.Run(name, func(t *testing.T) { playClustered(t, name) })
	}
}

func playClustered(t *testing.T, gameName string) {
	nodes := startCluster(t, "a", "b", "c")
	a, b, c := nodes[0], nodes[1], nodes[2]
	var sat server.Seated
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables", "", map[string]any{"game": gameName, "seats": []string{"me", "open"}, "name": "Ann"}, &sat); st != 200 && st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	id := sat.Table
	var joined server.Seated
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/join", "", map[string]any{"name": "Ben"}, &joined); st != 200 && st != 201 {
		t.Fatalf("join through node b: %d %s", st, body)
	}
	if metric(t, a, "parlour_cluster_owned_tables") != "1" || metric(t, b, "parlour_cluster_owned_tables") != "0" {
		t.Fatalf("owned tables: a %s, b %s; want 1 and 0", metric(t, a, "parlour_cluster_owned_tables"), metric(t, b, "parlour_cluster_owned_tables"))
	}
	if metric(t, b, "parlour_cluster_forwarded_total") == "0" {
		t.Error("node b forwarded nothing, yet the join reached the table on a")
	}
	if g, _ := games.Registry().Lookup(gameName); g.HasSetup() {
		for i, n := range []*node{a, b} {
			tok := []string{sat.Token, joined.Token}[i]
			if st, body := nodeCall(t, n, "POST", "/api/v1/tables/"+id+"/setup", tok, map[string]any{"auto": true}, nil); st != 200 {
				t.Fatalf("setup through node %s: %d %s", n.name, st, body)
			}
		}
	}

	// The spectator's socket, on c.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.srv.URL, "http")+"/api/v1/tables/"+id+"/socket", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(4 << 20)
	hello, _ := json.Marshal(map[string]any{"type": "hello"})
	ws.Write(ctx, websocket.MessageText, hello)
	seen := make(chan wireUpdate, 256)
	go func() {
		for {
			_, m, err := ws.Read(ctx)
			if err != nil {
				close(seen)
				return
			}
			var sm struct {
				Type   string `json:"type"`
				Update struct {
					wireUpdate
					Setup json.RawMessage `json:"setup"`
				} `json:"update"`
			}
			json.Unmarshal(m, &sm)
			if sm.Type == "update" && len(sm.Update.Setup) > 0 {
				t.Errorf("the spectator was sent a setup: %s", m)
			}
			if sm.Type == "update" {
				seen <- sm.Update.wireUpdate
			}
		}
	}()
	spectated := 0
	awaitSpectator := func(v int) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for spectated < v {
			select {
			case u, ok := <-seen:
				if !ok {
					t.Fatalf("the spectator's socket on node c closed at version %d, waiting for %d", spectated, v)
				}
				spectated = u.Version
			case <-deadline:
				t.Fatalf("the spectator's socket on node c is at version %d, not %d", spectated, v)
			}
		}
	}

	// Ben's event stream, on b, which does not own the table either.
	stream := followEvents[wireUpdate](ctx, b.srv.URL, id, joined.Token, 512)

	lex := lexicon.Default()
	reg := games.Registry()
	g, _ := reg.Lookup(gameName)
	brains := [2]game.Bot{}
	for i := range brains {
		if brains[i], err = bots(gameName, game.Medium, uint64(i+3), lex); err != nil {
			t.Fatal(err)
		}
	}
	tokens := [2]string{sat.Token, joined.Token}
	via := [2]*node{a, b}
	var acked []string
	killedAt, moves := 0, 0
	var takeover time.Duration
	var killed time.Time
	for turn := 0; turn < 400; turn++ {
		var u wireUpdate
		seat := -1
		for i := range 2 {
			if st, body := nodeCall(t, via[i], "GET", "/api/v1/tables/"+id, tokens[i], nil, &u); st != 200 {
				t.Fatalf("view through node %s: %d %s", via[i].name, st, body)
			}
			if u.Table.Status == store.Finished {
				break
			}
			if slices.Contains(u.Table.ToMove, game.Seat(i)) {
				seat = i
				break
			}
		}
		if u.Table.Status == store.Finished {
			break
		}
		if seat < 0 {
			t.Fatalf("nobody to move at version %d: %+v", u.Version, u.Table.ToMove)
		}
		view, err := decodeView(gameName, u.View)
		if err != nil {
			t.Fatal(err)
		}
		vals := map[string]any{}
		rb, _ := json.Marshal(u.Table.Rules)
		json.Unmarshal(rb, &vals)
		rules, err := game.ResolveValues(g.Options(), vals)
		if err != nil {
			t.Fatal(err)
		}
		cfg := game.Config{Players: []string{u.Table.Seats[0].Name, u.Table.Seats[1].Name}, Rules: rules, Lexicon: lex}
		mv, err := brains[seat].Move(ctx, cfg, game.Seat(seat), view)
		if err != nil {
			t.Fatal(err)
		}
		req := map[string]any{"move": mv, "version": u.Version}
		if seat == 1 {
			delete(req, "version") // Ben's moves are not conditional
		}
		var res server.MoveResult
		st, body := nodeCall(t, via[seat], "POST", "/api/v1/tables/"+id+"/moves", tokens[seat], req, &res)
		if st != 200 {
			t.Fatalf("move %q through node %s at version %d: %d %s", mv, via[seat].name, u.Version, st, body)
		}
		acked = append(acked, mv)
		moves++
		if killedAt > 0 && takeover == 0 {
			takeover = time.Since(killed)
			t.Logf("the first move after the owner died was acknowledged %v after its death (the takeover included)", takeover)
		}
		awaitSpectator(res.Version)
		if moves == 6 && killedAt == 0 {
			killedAt = moves
			t.Logf("killing node a, the owner, after %d moves", moves)
			a.kill()
			killed = time.Now()
			via[0] = c // Ann comes back through node c
		}
	}
	if killedAt == 0 {
		t.Fatal("the game ended before the owner could be killed")
	}
	var final wireUpdate
	nodeCall(t, b, "GET", "/api/v1/tables/"+id, tokens[1], nil, &final)
	if final.Table.Status != store.Finished {
		t.Fatalf("the game did not finish: %s", final.Table.Status)
	}
	var last wireUpdate
	for u := range stream {
		last = u
	}
	if last.Table.Status != store.Finished || last.Version != final.Version {
		t.Errorf("Ben's event stream on node b ended at version %d, %s; the table is at %d, %s", last.Version, last.Table.Status, final.Version, final.Table.Status)
	}
	recordHolds(t, c, id, acked)
	if takeover > 2*time.Second+3*time.Second {
		t.Errorf("the takeover took %v, over the lease's time and a little", takeover)
	}
	took := metric(t, b, "parlour_cluster_takeovers_total") + "+" + metric(t, c, "parlour_cluster_takeovers_total")
	if took == "0+0" {
		t.Error("neither b nor c counts a takeover")
	}
	// What the bus cost: each forward timed, and the nodes probing each
	// other (the first probes go a second after a node starts).
	for _, n := range []*node{b, c} {
		fwd, timed := metric(t, n, "parlour_cluster_forwarded_total"), metric(t, n, "parlour_cluster_forward_seconds_count")
		if fwd == "0" || timed == "" || timed == "0" {
			t.Errorf("node %s forwarded %s requests and timed %q of them", n.name, fwd, timed)
		}
		probes := ""
		for end := time.Now().Add(8 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			if probes = metric(t, n, "parlour_cluster_bus_seconds_count"); probes != "" && probes != "0" {
				break
			}
		}
		if probes == "" || probes == "0" {
			t.Errorf("node %s timed %q probes of the bus in 8 s", n.name, probes)
		}
	}
	t.Logf("%d moves, all in the record once; takeovers b+c: %s; bus round trips on b: %s s over %s probes", len(acked), took,
		metric(t, b, "parlour_cluster_bus_seconds_sum"), metric(t, b, "parlour_cluster_bus_seconds_count"))
}

// chooseMove returns the move a medium computer would make for seat in
// view u of a Nymphabet table.
func chooseMove(t *testing.T, ctx context.Context, u wireUpdate, seat int) string {
	t.Helper()
	lex := lexicon.Default()
	g, _ := games.Registry().Lookup("nymphabet")
	bot, err := bots("nymphabet", game.Medium, uint64(seat+3), lex)
	if err != nil {
		t.Fatal(err)
	}
	view, err := decodeView("nymphabet", u.View)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Players: []string{u.Table.Seats[0].Name, u.Table.Seats[1].Name}, Rules: game.Defaults(g.Options()), Lexicon: lex}
	mv, err := bot.Move(ctx, cfg, game.Seat(seat), view)
	if err != nil {
		t.Fatal(err)
	}
	return mv
}

// TestClusterFencesAPausedOwner: an owner paused past its lease, whose
// table another node took meanwhile, cannot store a move (the store
// fences it by the lease's epoch); once the other's lease runs out the
// node takes the table again, rebuilt from its record, and the move goes
// through, stored once.
func TestClusterFencesAPausedOwner(t *testing.T) {
	nodes := startCluster(t, "a")
	a := nodes[0]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// A table that does not exist is not found, and leaves no lease.
	for _, path := range []string{"/api/v1/tables/abcdefgh23456789", "/api/v1/tables/abcdefgh23456789/record"} {
		if st, body := nodeCall(t, a, "GET", path, "", nil, nil); st != http.StatusNotFound || !strings.Contains(body, "there is no table") {
			t.Errorf("GET %s: %d %s, want 404 saying there is no table", path, st, body)
		}
	}
	if l, err := a.st.Lease(ctx, "abcdefgh23456789"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a table that does not exist was leased: %+v, %v", l, err)
	}
	id, ann, ben := twoSeats(t, a, a)
	var u wireUpdate
	nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u)
	seat, tok := int(u.Table.ToMove[0]), ann.Token
	if seat == 1 {
		tok = ben.Token
	}
	mv := chooseMove(t, ctx, u, seat)

	a.svc.Pause()
	time.Sleep(2*time.Second + 200*time.Millisecond) // the lease runs out
	intruder, err := a.st.AcquireLease(ctx, id, "intruder", 2*time.Second)
	if err != nil {
		t.Fatalf("another node cannot take the expired lease: %v", err)
	}
	p, err := a.svc.Authenticate(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.svc.Move(ctx, p, id, server.MoveRequest{Move: mv})
	if server.StatusOf(err) != http.StatusServiceUnavailable {
		t.Fatalf("a move on the paused owner after the takeover: %v (status %d), want 503", err, server.StatusOf(err))
	}
	row, err := a.st.Table(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(row.Moves) != 0 {
		t.Fatalf("the fenced move was stored: %+v", row.Moves)
	}

	// Through HTTP the node sees that the lease is another's, finds
	// nobody answering for it, waits for it to run out and takes the
	// table again.
	start := time.Now()
	var res server.MoveResult
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/moves", tok, map[string]any{"move": mv, "version": u.Version}, &res); st != 200 {
		t.Fatalf("the move once the intruder's lease ran out: %d %s", st, body)
	}
	t.Logf("the move waited %v for the intruder's lease (epoch %d) to run out", time.Since(start), intruder.Epoch)
	l, err := a.st.Lease(ctx, id)
	if err != nil || l.Owner != "a" || l.Epoch <= intruder.Epoch {
		t.Fatalf("the lease after the move: %+v, %v; want a's, past epoch %d", l, err, intruder.Epoch)
	}
	if row, _ = a.st.Table(ctx, id); len(row.Moves) != 1 {
		t.Fatalf("the record holds %d moves, want 1", len(row.Moves))
	}
}

// TestClusterResumesTheComputer: Ann plays the computer through node b
// while a owns the table; a dies mid-game, and b takes the table over
// with its computer seat, which goes on playing to the end.
func TestClusterResumesTheComputer(t *testing.T) {
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	var ann server.Seated
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "computer:easy"}, "name": "Ann"}, &ann); st >= 300 {
		t.Fatalf("create: %d %s", st, body)
	}
	id := ann.Table
	var u wireUpdate
	for moves := 0; moves < 200; moves++ {
		if st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u); st != 200 {
			t.Fatalf("view through b: %d %s", st, body)
		}
		if u.Table.Status == store.Finished {
			break
		}
		if !slices.Contains(u.Table.ToMove, 0) {
			time.Sleep(50 * time.Millisecond) // the computer thinks
			continue
		}
		if moves == 3 {
			t.Log("killing node a, the owner")
			a.kill()
		}
		mv := chooseMove(t, ctx, u, 0)
		var res server.MoveResult
		if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", ann.Token, map[string]any{"move": mv, "version": u.Version, "wait": true}, &res); st != 200 {
			t.Fatalf("move %q through b: %d %s", mv, st, body)
		}
	}
	if u.Table.Status != store.Finished {
		t.Fatalf("the game against the computer did not end: %s at version %d", u.Table.Status, u.Version)
	}
	row, err := b.st.Table(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	computer := 0
	for _, m := range row.Moves {
		if m.Seat == 1 {
			computer++
		}
	}
	if computer < 2 {
		t.Fatalf("the computer made %d moves", computer)
	}
	if !a.dead || metric(t, b, "parlour_cluster_takeovers_total") != "1" {
		t.Errorf("node b counts %s takeovers, want 1", metric(t, b, "parlour_cluster_takeovers_total"))
	}
}

// TestClusterConfigRefused: a cluster on a store without leases, or
// without the relay its bus answers through, does not start.
func TestClusterConfigRefused(t *testing.T) {
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "p.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hub := bus.NewHub()
	relay := server.NewRelay()
	node, err := hub.Join("a", relay.Handle)
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	for _, tc := range []struct {
		name string
		cl   *server.Cluster
		want string
	}{
		{"a store without leases", &server.Cluster{Bus: node, Relay: relay}, "leases"},
		{"no relay", &server.Cluster{Bus: node}, "Relay"},
	} {
		_, err := server.New(context.Background(), server.Config{Store: db, Games: games.Registry(), Cluster: tc.cl})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error about %s", tc.name, err, tc.want)
		}
	}
	// Before its service starts, the relay answers nothing.
	if _, err := relay.Handle(context.Background(), bus.Request{Data: []byte(`{}`)}); err == nil {
		t.Error("a relay without a service answered")
	}
}

// TestClusterRemoteWatcherIsHere: Ben, watching through node b while a
// owns the table, is not taken for away by a (his socket's node tells a
// he is there); once his socket closes, Ann may claim the game after the
// walk-away time.
func TestClusterRemoteWatcherIsHere(t *testing.T) {
	const walkAway = 1500 * time.Millisecond
	nodes := startClusterWith(t, walkAway, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id, ann, ben := twoSeats(t, a, a)
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(b.srv.URL, "http")+"/api/v1/tables/"+id+"/socket", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	hello, _ := json.Marshal(map[string]any{"type": "hello", "token": ben.Token})
	ws.Write(ctx, websocket.MessageText, hello)
	go func() {
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				return
			}
		}
	}()
	// Ann moves until it is Ben's turn alone.
	for range 2 {
		var u wireUpdate
		nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u)
		if !slices.Contains(u.Table.ToMove, 0) {
			break
		}
		if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/moves", ann.Token, map[string]any{"move": chooseMove(t, ctx, u, 0), "version": u.Version}, nil); st != 200 {
			t.Fatalf("Ann's move: %d %s", st, body)
		}
	}
	time.Sleep(walkAway + walkAway/2)
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/claim", ann.Token, nil, nil); st != http.StatusConflict {
		t.Fatalf("a claim while Ben watches through b: %d %s, want 409", st, body)
	}
	ws.Close(websocket.StatusNormalClosure, "")
	time.Sleep(walkAway + walkAway/2)
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/claim", ann.Token, nil, nil); st != 200 {
		t.Fatalf("a claim once Ben left: %d %s, want 200", st, body)
	}
}
