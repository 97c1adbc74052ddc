package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/bus"
	"parlour/server/players"
	"parlour/server/table"
)

// remoteSocket is a table's WebSocket held by a test, keeping every
// message it was sent.
type remoteSocket struct {
	t    *testing.T
	name string
	ws   *websocket.Conn
	mu   sync.Mutex
	got  [][]byte
	more chan struct{} // signalled at every message
}

// dialSocket opens table id's socket on node n and says hello with token
// ("" for a spectator).
func dialSocket(t *testing.T, ctx context.Context, n *node, name, id, token string) *remoteSocket {
	t.Helper()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(n.srv.URL, "http")+"/api/v1/tables/"+id+"/socket", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	ws.SetReadLimit(4 << 20)
	s := &remoteSocket{t: t, name: name, ws: ws, more: make(chan struct{}, 1)}
	hello := map[string]any{"type": "hello"}
	if token != "" {
		hello["token"] = token
	}
	s.send(ctx, hello)
	go func() {
		for {
			_, m, err := ws.Read(ctx)
			if err != nil {
				return
			}
			s.mu.Lock()
			s.got = append(s.got, m)
			s.mu.Unlock()
			select {
			case s.more <- struct{}{}:
			default:
			}
		}
	}()
	return s
}

func (s *remoteSocket) send(ctx context.Context, m map[string]any) {
	b, _ := json.Marshal(m)
	if err := s.ws.Write(ctx, websocket.MessageText, b); err != nil {
		s.t.Fatalf("%s's socket: %v", s.name, err)
	}
}

// await waits for a message holding want, and returns it.
func (s *remoteSocket) await(want string) []byte {
	s.t.Helper()
	deadline := time.After(10 * time.Second)
	for seen := 0; ; {
		s.mu.Lock()
		got := s.got[seen:]
		seen = len(s.got)
		s.mu.Unlock()
		for _, m := range got {
			if bytes.Contains(m, []byte(want)) {
				return m
			}
		}
		select {
		case <-s.more:
		case <-deadline:
			s.t.Fatalf("%s's socket never got %s; it got:\n%s", s.name, want, s.all())
		}
	}
}

// all returns every message the socket got, a line each.
func (s *remoteSocket) all() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(bytes.Join(s.got, []byte("\n")))
}

// TestClusterChatReachesRemoteSockets: a table owned by node a, its
// players and a spectator on sockets held by node c, which does not own
// it. Ann's line in the players' chat, sent through a, reaches Ben's
// socket on c and not the spectator's; Cara's line in the spectators'
// chat, sent through b, reaches the spectator's socket on c and not
// Ben's. Ben's line, sent on his socket on c, reaches Ann's event stream
// on b. Once Ben mutes the players' chat through his socket, Ann's next
// line does not reach him, while her move does.
func TestClusterChatReachesRemoteSockets(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b", "c")
	a, b, c := nodes[0], nodes[1], nodes[2]
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	id, ann, ben := twoSeats(t, a, b)
	// Cara has an account: a guest that new could not write in the
	// spectators' chat yet.
	var cara players.Session
	if st, body := nodeCall(t, b, "POST", "/api/v1/accounts", "", map[string]any{"name": "Cara", "password": testPassword}, &cara); st >= 300 {
		t.Fatalf("Cara's account: %d %s", st, body)
	}
	if metric(t, c, "parlour_cluster_owned_tables") != "0" {
		t.Fatal("node c owns the table")
	}

	bens := dialSocket(t, ctx, c, "Ben", id, ben.Token)
	spec := dialSocket(t, ctx, c, "the spectator", id, "")
	bens.await(`"type":"update"`)
	spec.await(`"type":"update"`)

	// Ann's event stream, on b.
	annStream := followEvents[json.RawMessage](ctx, b.srv.URL, id, ann.Token, 64)
	awaitStream := func(want string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case m, ok := <-annStream:
				if !ok {
					t.Fatalf("Ann's stream on b ended before %s", want)
				}
				if bytes.Contains(m, []byte(want)) {
					return
				}
			case <-deadline:
				t.Fatalf("Ann's stream on b never got %s", want)
			}
		}
	}
	awaitStream(`"version"`)

	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/chat", ann.Token, map[string]any{"channel": "players", "text": "good luck, Ben"}, nil); st >= 300 {
		t.Fatalf("Ann's chat through a: %d %s", st, body)
	}
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/chat", cara.Token, map[string]any{"channel": "spectators", "text": "go Ann"}, nil); st >= 300 {
		t.Fatalf("Cara's chat through b: %d %s", st, body)
	}
	bens.await(`"text":"good luck, Ben"`)
	spec.await(`"text":"go Ann"`)

	bens.send(ctx, map[string]any{"type": "chat", "id": "c1", "channel": "players", "text": "thanks, Ann"})
	bens.await(`"id":"c1"`)
	awaitStream(`"text":"thanks, Ann"`)

	bens.send(ctx, map[string]any{"type": "mute", "id": "m1", "channel": "players", "muted": true})
	if ack := bens.await(`"id":"m1"`); !bytes.Contains(ack, []byte(`"muted":["players"]`)) {
		t.Fatalf("the mute's ack: %s", ack)
	}
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/chat", ann.Token, map[string]any{"channel": "players", "text": "are you there"}, nil); st >= 300 {
		t.Fatalf("Ann's second line: %d %s", st, body)
	}
	awaitStream(`"text":"are you there"`) // Ann sees her own line
	var u wireUpdate
	nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u)
	var res table.MoveResult
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/moves", ann.Token, map[string]any{"move": chooseMove(t, ctx, u, 0), "version": u.Version}, &res); st != 200 {
		t.Fatalf("Ann's move: %d %s", st, body)
	}
	bens.await(`"version":` + itoa(res.Version) + `,`)
	spec.await(`"version":` + itoa(res.Version) + `,`)

	if got := bens.all(); strings.Contains(got, "are you there") || strings.Contains(got, "go Ann") {
		t.Errorf("Ben's socket on c got a line he muted, or one of the spectators':\n%s", got)
	}
	if got := spec.all(); strings.Contains(got, "good luck") || strings.Contains(got, "thanks, Ann") || strings.Contains(got, "are you there") {
		t.Errorf("the spectator's socket on c got the players' chat:\n%s", got)
	}
}

// TestClusterBlockHidesLinesOnRemoteSockets: Dan, watching a table node
// a runs through a socket held by node c, blocks Cara: her line in the
// spectators' chat, sent through b, does not reach his socket, while
// Eve's, sent after it, does.
func TestClusterBlockHidesLinesOnRemoteSockets(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b", "c")
	a, b, c := nodes[0], nodes[1], nodes[2]
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	id, _, _ := twoSeats(t, a, b)
	account := func(name string) string {
		t.Helper()
		var s players.Session
		if st, body := nodeCall(t, b, "POST", "/api/v1/accounts", "", map[string]any{"name": name, "password": testPassword}, &s); st >= 300 {
			t.Fatalf("%s's account: %d %s", name, st, body)
		}
		return s.Token
	}
	cara, dan, eve := account("Cara"), account("Dan"), account("Eve")
	if st, body := nodeCall(t, c, "POST", "/api/v1/blocks", dan, map[string]any{"name": "Cara"}, nil); st != 201 {
		t.Fatalf("Dan blocks Cara: %d %s", st, body)
	}
	if metric(t, c, "parlour_cluster_owned_tables") != "0" {
		t.Fatal("node c owns the table")
	}
	dans := dialSocket(t, ctx, c, "Dan", id, dan)
	dans.await(`"type":"update"`)
	for _, l := range []struct{ token, text string }{{cara, "boo Dan"}, {eve, "hello all"}} {
		if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/chat", l.token, map[string]any{"channel": "spectators", "text": l.text}, nil); st >= 300 {
			t.Fatalf("%q through b: %d %s", l.text, st, body)
		}
	}
	dans.await(`"text":"hello all"`)
	if got := dans.all(); strings.Contains(got, "boo Dan") {
		t.Errorf("Dan's socket on c got the line of Cara, whom he blocks:\n%s", got)
	}
}

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

// TestClusterRemoteWatcherIsHere: Ben, watching through node b while a
// owns the table, is not taken for away by a (his socket's node tells a
// he is there); once his socket closes, Ann may claim the game after the
// walk-away time.
func TestClusterRemoteWatcherIsHere(t *testing.T) {
	t.Parallel()
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
	// The first update says b follows the table for Ben, and so tells a
	// he is there, before his turn begins.
	if _, first, err := ws.Read(ctx); err != nil || !strings.Contains(string(first), `"id":"`+id+`"`) {
		t.Fatalf("Ben's first message through b: %s, %v", first, err)
	}
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

// TestClusterEventStreamAnswersAsLocal: a table's event stream answers
// the same through a node that does not own the table as through its
// owner, since both follow it with one handler: the same refusals, with
// the same status and text, before any update; and for a good ask the
// same headers and a first line showing the table at the same version.
func TestClusterEventStreamAnswersAsLocal(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	id, ann, _ := twoSeats(t, a, a)
	events := "/api/v1/tables/" + id + "/events"
	ask := func(n *node, query, auth string) (*http.Response, func()) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		req, _ := http.NewRequestWithContext(ctx, "GET", n.srv.URL+events+query, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			cancel()
			t.Fatalf("%s on node %s: %v", events+query, n.name, err)
		}
		return res, func() { res.Body.Close(); cancel() }
	}
	for _, c := range []struct {
		name, query, auth string
		status            int
	}{
		{"a version ahead of the table", "?from=999", "Bearer " + ann.Token, http.StatusBadRequest},
		{"a version that is no number", "?from=x", "", http.StatusBadRequest},
		{"a chat number that is no number", "?chat=x", "", http.StatusBadRequest},
		{"no bearer", "", "Basic abc", http.StatusUnauthorized},
		{"a token of nobody", "", "Bearer nobody", http.StatusUnauthorized},
	} {
		var bodies []string
		for _, n := range nodes {
			res, done := ask(n, c.query, c.auth)
			raw, _ := io.ReadAll(res.Body)
			done()
			if res.StatusCode != c.status {
				t.Errorf("%s, through %s: %d %s, want %d", c.name, n.name, res.StatusCode, raw, c.status)
			}
			bodies = append(bodies, string(raw))
		}
		if bodies[0] != bodies[1] {
			t.Errorf("%s: the owner answers %s, the other node %s", c.name, bodies[0], bodies[1])
		}
	}
	var firsts []wireUpdate
	for _, n := range []*node{a, b} {
		res, done := ask(n, "?from=0", "Bearer "+ann.Token)
		if res.StatusCode != http.StatusOK {
			raw, _ := io.ReadAll(res.Body)
			t.Fatalf("Ann's stream through %s: %d %s", n.name, res.StatusCode, raw)
		}
		for k, v := range map[string]string{"Content-Type": "application/x-ndjson", "Cache-Control": "no-store", "X-Accel-Buffering": "no"} {
			if got := res.Header.Get(k); got != v {
				t.Errorf("Ann's stream through %s: %s %q, want %q", n.name, k, got, v)
			}
		}
		var u wireUpdate
		if err := json.NewDecoder(res.Body).Decode(&u); err != nil {
			t.Fatalf("Ann's stream through %s: %v", n.name, err)
		}
		done()
		firsts = append(firsts, u)
	}
	if firsts[0].Version != firsts[1].Version || firsts[0].Table.ID != id || firsts[1].Table.ID != id {
		t.Errorf("first updates: through a version %d of %s, through b version %d of %s", firsts[0].Version, firsts[0].Table.ID, firsts[1].Version, firsts[1].Table.ID)
	}
}

// TestClusterSocketAnswersAsLocal: a table's socket answers a hello the
// same through a node that does not own the table as through its owner,
// since both serve it with one loop: a refused hello gets the same error
// and the same close; a good one, a first update at the same version.
func TestClusterSocketAnswersAsLocal(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b")
	a := nodes[0]
	id, ann, _ := twoSeats(t, a, a)
	other, _, _ := twoSeats(t, a, a)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	hello := func(n *node, m map[string]any) (string, websocket.StatusCode) {
		t.Helper()
		ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(n.srv.URL, "http")+"/api/v1/tables/"+id+"/socket", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		b, _ := json.Marshal(m)
		if err := ws.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
		_, got, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("hello %s on node %s: %v", b, n.name, err)
		}
		_, _, err = ws.Read(ctx)
		return string(got), websocket.CloseStatus(err)
	}
	for _, c := range []struct {
		name  string
		hello map[string]any
		want  string
	}{
		{"a version ahead of the table", map[string]any{"type": "hello", "token": ann.Token, "version": 999}, `"status":400`},
		{"another table named", map[string]any{"type": "hello", "token": ann.Token, "table": other}, `"status":400`},
	} {
		var got []string
		for _, n := range nodes {
			m, code := hello(n, c.hello)
			if !strings.Contains(m, c.want) || code != websocket.StatusPolicyViolation {
				t.Errorf("%s, through %s: %s and close %d, want %s and close %d", c.name, n.name, m, code, c.want, websocket.StatusPolicyViolation)
			}
			got = append(got, m)
		}
		if got[0] != got[1] {
			t.Errorf("%s: the owner answers %s, the other node %s", c.name, got[0], got[1])
		}
	}
	var versions []int
	for _, n := range nodes {
		s := dialSocket(t, ctx, n, "Ann", id, ann.Token)
		var m struct {
			Update wireUpdate `json:"update"`
		}
		if err := json.Unmarshal(s.await(`"type":"update"`), &m); err != nil || m.Update.Table.ID != id {
			t.Fatalf("Ann's first update through %s: %v, table %q", n.name, err, m.Update.Table.ID)
		}
		versions = append(versions, m.Update.Version)
	}
	if versions[0] != versions[1] {
		t.Errorf("first updates: version %d through a, %d through b", versions[0], versions[1])
	}
}

// TestClusterRemoteSocketWaitsOutAHandOver: while the owner of a table
// answers a remote watcher's asks that it no longer owns the table, as it
// does between letting the table go and the next node taking it up, a
// socket following the table through another node keeps asking rather
// than closing, and gets the move made meanwhile once the owner answers
// again.
func TestClusterRemoteSocketWaitsOutAHandOver(t *testing.T) {
	t.Parallel()
	// a answers "not the owner" to the next asks for an update: more
	// than a remote follower once made before it gave up.
	const refusals = 6
	var refuse, refused atomic.Int32
	nodes := startClusterOpts(t, clusterOpts{wrap: func(name string, h bus.Handler) bus.Handler {
		if name != "a" {
			return h
		}
		return func(ctx context.Context, req bus.Request) ([]byte, error) {
			if bytes.Contains(req.Data, []byte(`"kind":"update"`)) && refuse.Add(-1) >= 0 {
				refused.Add(1)
				return []byte(`{"not_owner":true}`), nil
			}
			return h(ctx, req)
		}
	}}, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id, ann, _ := twoSeats(t, a, a)
	spec := dialSocket(t, ctx, b, "the spectator", id, "")
	spec.await(`"type":"update"`)

	var u wireUpdate
	nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u)
	refuse.Store(refusals)
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+id+"/moves", ann.Token, map[string]any{"move": chooseMove(t, ctx, u, 0), "version": u.Version}, nil); st != 200 {
		t.Fatalf("Ann's move: %d %s", st, body)
	}
	spec.await(`"version":` + strconv.Itoa(u.Version+1))
	if n := refused.Load(); n != refusals {
		t.Fatalf("a refused the socket's asks %d times, want %d", n, refusals)
	}
	if strings.Contains(spec.all(), "changing hands") {
		t.Errorf("the socket was told the table is changing hands:\n%s", spec.all())
	}
}

// TestClusterRemoteWatcherConnected: Ben, whose socket is on node b while
// a owns the table, shows as connected to Ann, as he would with his socket
// on a; once his socket closes he shows as not connected, well before
// the time b's vouching for him would run out.
func TestClusterRemoteWatcherConnected(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id, ann, ben := twoSeats(t, a, a)
	bens := func() (connected *bool) {
		var u wireUpdate
		if st, body := nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u); st != 200 {
			t.Fatalf("Ann reads the table: %d %s", st, body)
		}
		return u.Table.Seats[1].Connected
	}
	until := func(what string, want bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if c := bens(); c != nil && *c == want {
				return
			}
			if time.Now().After(deadline) {
				c := bens()
				t.Fatalf("%s: Ben's seat says connected %v, want %v", what, c != nil && *c, want)
			}
		}
	}
	until("with no socket of Ben's", false)
	sock := dialSocket(t, ctx, b, "Ben", id, ben.Token)
	sock.await(`"id":"` + id + `"`)
	until("with Ben's socket on b", true)
	sock.ws.Close(websocket.StatusNormalClosure, "")
	until("once Ben's socket on b closed", false)

	// A spectator's socket on b counts among those watching in the lobby,
	// which a lists as the table's owner.
	watching := func(what string, want int) {
		t.Helper()
		var got int
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			var lobby struct {
				Tables []table.Info `json:"tables"`
			}
			if st, body := nodeCall(t, a, "GET", "/api/v1/tables?status=playing", "", nil, &lobby); st != 200 {
				t.Fatalf("the games to watch: %d %s", st, body)
			}
			got = -1
			for _, in := range lobby.Tables {
				if in.ID == id && in.Spectators != nil {
					got = *in.Spectators
				}
			}
			if got == want {
				return
			}
		}
		t.Fatalf("%s: the lobby says %d watch, want %d", what, got, want)
	}
	watching("before anyone watches", 0)
	cy := dialSocket(t, ctx, b, "Cy", id, "")
	cy.await(`"id":"` + id + `"`)
	watching("with Cy watching through b", 1)
	cy.ws.Close(websocket.StatusNormalClosure, "")
	watching("once Cy's socket on b closed", 0)
}

// TestClusterFollowEndsAsNodeStops: a stream that follows another node's
// table, and a move that waits there for the next, end as the node they
// came through stops, saying the server is shutting down, as a single
// server's do: they held the node's stop up until the server gave up on
// them, then ended as its failure, or as the table's node gone.
func TestClusterFollowEndsAsNodeStops(t *testing.T) {
	t.Parallel()
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	id, ann, ben := twoSeats(t, a, a)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", b.srv.URL+"/api/v1/tables/"+id+"/events?from=0", nil)
	req.Header.Set("Authorization", "Bearer "+ann.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	lines := bufio.NewScanner(res.Body)
	if !lines.Scan() {
		t.Fatalf("no first update through b: %v", lines.Err())
	}
	// Ann moves, waiting for Ben's answer, through b.
	mover := ann
	var u table.Update
	if st, body := nodeCall(t, a, "GET", "/api/v1/tables/"+id, ann.Token, nil, &u); st != 200 {
		t.Fatalf("the table: %d %s", st, body)
	} else if len(u.Table.ToMove) == 1 && u.Table.ToMove[0] == 1 {
		mover = ben
	}
	moved := make(chan string, 1)
	go func() {
		st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+id+"/moves", mover.Token, map[string]any{"move": "abdicate", "wait": true}, nil)
		moved <- fmt.Sprintf("%d %s", st, body)
	}()
	time.Sleep(500 * time.Millisecond) // the move made, its answer waiting
	start := time.Now()
	go b.svc.Close()
	var last string
	for lines.Scan() {
		last = lines.Text()
	}
	if took := time.Since(start); took > 5*time.Second || !strings.Contains(last, "shutting down") {
		t.Errorf("the stream through b ended %v after b began to stop, its last line %q; want it at once, saying the server is shutting down", took, last)
	}
	select {
	case got := <-moved:
		if !strings.HasPrefix(got, "503") || !strings.Contains(got, "shutting down") {
			t.Errorf("the waiting move through b as b stopped: %s, want 503 saying the server is shutting down", got)
		}
	case <-time.After(5 * time.Second):
		t.Error("the waiting move through b went unanswered as b stopped")
	}
}
