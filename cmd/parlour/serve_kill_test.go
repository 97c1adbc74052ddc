package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server/table"
	"parlour/store"
	"parlour/store/postgres"
)

// The kill test's knobs: PARLOUR_CLUSTER_KILLS owner kills (default 3;
// docs/performance.md's measurement is 20) with PARLOUR_CLUSTER_LEASE leases
// (default 2s; parlour serve's own default is 5s).
const (
	killsEnv = "PARLOUR_CLUSTER_KILLS"
	leaseEnv = "PARLOUR_CLUSTER_LEASE"
)

// TestClusterKill runs a cluster of three parlour serve processes (the
// binary built from this package) on one throwaway PostgreSQL and one
// NATS server. First it plays a complete game of each of the four games
// with the two players on two different nodes and a spectator's socket
// on the third: every move made through one node shows on the socket the
// third holds, and the record read through the third is the moves
// acknowledged. Then, with several Quizl tables played continuously
// (each seat through a node that does not own its table, each move
// conditional on the table's version), it kills the node that owns the
// most live tables with SIGKILL, waits until every one of its tables has
// an acknowledged move again (the takeover time, as a player sees it:
// from the kill to that move), restarts the node, and repeats. At the
// end every table's record, read through the nodes, must hold exactly
// the moves the players know were made: every acknowledged move, plus any
// whose answer was lost and which the record shows, none twice.
//
//	PARLOUR_CLUSTER_KILLS=20 PARLOUR_CLUSTER_LEASE=5s go test ./cmd/parlour -run TestClusterKill -v -timeout 30m
func TestClusterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short: builds parlour and runs three nodes for a minute")
	}
	kills, lease := 3, 2*time.Second
	// The target is a takeover under 5 s with the default 5 s lease (a
	// player waits no longer than a slow page load): in a measuring run
	// (PARLOUR_CLUSTER_KILLS set) a stall of more than the lease and 3 s
	// fails. The default run, on a machine busy with the other tests,
	// checks that every table is taken over, and logs how long it took:
	// a stall fails there past the lease and 10 s.
	margin := 10 * time.Second
	if v := os.Getenv(killsEnv); v != "" {
		margin = 3 * time.Second
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a number of kills, 1 or more", killsEnv, v)
		}
		kills = n
	}
	if v := os.Getenv(leaseEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second {
			t.Fatalf("%s=%q: want a duration of 1s or more", leaseEnv, v)
		}
		lease = d
	}
	limit := lease + margin
	pgURL, natsURL := clusterEngines(t)
	bin := buildParlour(t)
	c := startCluster(t, bin, pgURL, natsURL, lease, "n1", "n2", "n3")
	for k, name := range []string{"nymphabet", "quizl", "salvo", "wordfight"} {
		t.Run(name, func(t *testing.T) { c.playAcross(t, name, k) })
	}
	if t.Failed() {
		return
	}
	c.killUnderLoad(t, kills, lease, limit)
	for _, n := range c.nodes {
		if code := n.stop(); code != 0 {
			t.Errorf("node %s exited %d on SIGINT; its log:\n%s", n.name, code, n.logTail())
		}
	}
}

// buildParlour builds the parlour binary into a temporary folder.
func buildParlour(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "parlour")
	// go test puts its own Go's bin folder first on PATH.
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("building parlour: %v\n%s", err, out)
	}
	return bin
}

// nodeProc is one parlour serve process of the cluster, which the test
// kills and starts again on the same address.
type nodeProc struct {
	name, addr, bin, log string
	args                 []string
	// env, when set, is the process's GODEBUG and more, in the place of
	// the test's GODEBUG.
	env []string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

func (n *nodeProc) base() string { return "http://" + n.addr }

// start runs the node and waits until it answers /healthz.
func (n *nodeProc) start() error {
	f, err := os.OpenFile(n.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	cmd := exec.Command(n.bin, n.args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = nodeAttr()
	if n.env != nil {
		cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GODEBUG=") })
		cmd.Env = append(cmd.Env, n.env...)
	}
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("starting node %s: %w", n.name, err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		f.Close()
		close(done)
	}()
	n.mu.Lock()
	n.cmd, n.done = cmd, done
	n.mu.Unlock()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		res, err := http.Get(n.base() + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-done:
			return fmt.Errorf("node %s exited at start: %s", n.name, n.logTail())
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("node %s did not answer /healthz within a minute: %s", n.name, n.logTail())
}

// alive reports whether the node's process is running.
func (n *nodeProc) alive() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.done == nil {
		return false
	}
	select {
	case <-n.done:
		return false
	default:
		return true
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (n *nodeProc) kill() {
	n.mu.Lock()
	cmd, done := n.cmd, n.done
	n.mu.Unlock()
	cmd.Process.Kill()
	<-done
}

// stop asks the node to stop (SIGINT) and returns its exit code (-1 when
// it had to be killed after 20 s).
func (n *nodeProc) stop() int {
	if !n.alive() {
		return 0
	}
	n.mu.Lock()
	cmd, done := n.cmd, n.done
	n.mu.Unlock()
	cmd.Process.Signal(os.Interrupt)
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		return -1
	}
}

// logTail is the end of the node's log.
func (n *nodeProc) logTail() string {
	b, _ := os.ReadFile(n.log)
	if i := len(b) - 3000; i > 0 {
		b = b[i:]
	}
	return string(b)
}

// killCluster is the test's cluster, and its way into the database's
// leases, to find which node owns a table.
type killCluster struct {
	nodes  []*nodeProc
	byName map[string]int
	hc     *http.Client
	db     *postgres.Store
}

// startCluster starts one node process for each name on free loopback
// ports, stopped (SIGKILL) when t ends if still running.
func startCluster(t *testing.T, bin, pgURL, natsURL string, lease time.Duration, names ...string) *killCluster {
	t.Helper()
	db, err := postgres.Open(context.Background(), pgURL, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// The players wait for an answer as long as the server may take
	// (table.DefaultMaxWait and more), so that the stall measured is the
	// server's.
	c := &killCluster{byName: map[string]int{}, db: db, hc: &http.Client{Timeout: 2 * time.Minute}}
	dir := t.TempDir()
	for i, name := range names {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		n := &nodeProc{name: name, addr: addr, bin: bin, log: filepath.Join(dir, name+".log"), args: []string{
			"serve", "--addr", addr, "--data", filepath.Join(dir, name), "--store", pgURL, "--nats", natsURL,
			"--node", name, "--lease", lease.String(), "--conns-per-addr", "1000", "--rate-identity", "1000", "--rate-conn", "1000",
		}}
		if err := n.start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if n.alive() {
				n.kill()
			}
		})
		c.nodes = append(c.nodes, n)
		c.byName[name] = i
	}
	return c
}

// call makes a request through node i and decodes a 2xx answer's body
// into out; it answers the status and the body.
func (c *killCluster) call(ctx context.Context, i int, method, path, token string, body, out any) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.nodes[i].base()+path, r)
	if err != nil {
		return 0, nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, nil, err
	}
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			return res.StatusCode, b, err
		}
	}
	return res.StatusCode, b, nil
}

// live returns the first live node from i on (i itself if it is).
func (c *killCluster) live(i int) int {
	for k := range c.nodes {
		j := (i + k) % len(c.nodes)
		if c.nodes[j].alive() {
			return j
		}
	}
	return i
}

// tableView is what a seat reads of its table.
type tableView struct {
	Version int             `json:"version"`
	Table   table.Info      `json:"table"`
	View    json.RawMessage `json:"view"`
}

// record is a table's record as GET .../record answers it.
type record struct {
	Players []string `json:"players"`
	Moves   []struct {
		By   string `json:"by"`
		Move string `json:"move"`
	} `json:"moves"`
}

// seatMoves returns rec's moves as "seat:move".
func (rec record) seatMoves() []string {
	out := make([]string, len(rec.Moves))
	for i, m := range rec.Moves {
		out[i] = fmt.Sprintf("%d:%s", slices.Index(rec.Players, m.By), m.Move)
	}
	return out
}

// playAcross plays a complete game of gameName between Ann, on node k,
// and Ben, on the next node, watched by a spectator's socket on the node
// after, each move chosen by a medium computer player.
func (c *killCluster) playAcross(t *testing.T, gameName string, k int) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	via := [2]int{k % 3, (k + 1) % 3}
	watch := (k + 2) % 3
	var sat, joined table.Seated
	if st, body, err := c.call(ctx, via[0], "POST", "/api/v1/tables", "", map[string]any{"game": gameName, "seats": []string{"me", "open"}, "name": "Ann"}, &sat); err != nil || st != http.StatusCreated {
		t.Fatalf("create through %s: %d %s %v", c.nodes[via[0]].name, st, body, err)
	}
	id := sat.Table
	if st, body, err := c.call(ctx, via[1], "POST", "/api/v1/tables/"+id+"/join", "", map[string]any{"name": "Ben"}, &joined); err != nil || st != http.StatusOK {
		t.Fatalf("join through %s: %d %s %v", c.nodes[via[1]].name, st, body, err)
	}
	tokens := [2]string{sat.Token, joined.Token}
	g, _ := games.Registry().Lookup(gameName)
	if g.HasSetup() {
		for i := range 2 {
			if st, body, err := c.call(ctx, via[i], "POST", "/api/v1/tables/"+id+"/setup", tokens[i], map[string]any{"auto": true}, nil); err != nil || st != http.StatusOK {
				t.Fatalf("setup through %s: %d %s %v", c.nodes[via[i]].name, st, body, err)
			}
		}
	}
	spectator := c.spectate(t, ctx, watch, id)

	lex := lexicon.Default()
	var brains [2]game.Bot
	for i := range brains {
		b, err := games.NewBot(gameName, game.Medium, uint64(i+7), lex)
		if err != nil {
			t.Fatal(err)
		}
		brains[i] = b
	}
	var acked []string
	for turn := 0; ; turn++ {
		if turn > 1000 {
			t.Fatalf("no end after %d moves", len(acked))
		}
		var u tableView
		seat := -1
		for i := range 2 {
			if st, body, err := c.call(ctx, via[i], "GET", "/api/v1/tables/"+id, tokens[i], nil, &u); err != nil || st != http.StatusOK {
				t.Fatalf("view through %s: %d %s %v", c.nodes[via[i]].name, st, body, err)
			}
			if u.Table.Status == store.Finished || slices.Contains(u.Table.ToMove, game.Seat(i)) {
				seat = i
				break
			}
		}
		if u.Table.Status == store.Finished {
			break
		}
		if seat < 0 {
			t.Fatalf("nobody to move at version %d: %v", u.Version, u.Table.ToMove)
		}
		view, err := games.DecodeView(gameName, u.View)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := games.Config(gameName, u.Table.Rules, []string{u.Table.Seats[0].Name, u.Table.Seats[1].Name}, lex)
		if err != nil {
			t.Fatal(err)
		}
		mv, err := brains[seat].Move(ctx, cfg, game.Seat(seat), view)
		if err != nil {
			t.Fatal(err)
		}
		var res table.MoveResult
		if st, body, err := c.call(ctx, via[seat], "POST", "/api/v1/tables/"+id+"/moves", tokens[seat], map[string]any{"move": mv, "version": u.Version}, &res); err != nil || st != http.StatusOK {
			t.Fatalf("move %q through %s at version %d: %d %s %v", mv, c.nodes[via[seat]].name, u.Version, st, body, err)
		}
		acked = append(acked, fmt.Sprintf("%d:%s", seat, mv))
		// The move, made through one node, shows on the socket the
		// third holds.
		if err := spectator.await(res.Version, 10*time.Second); err != nil {
			t.Fatalf("move %d (%q through %s): %v", len(acked), mv, c.nodes[via[seat]].name, err)
		}
	}
	var rec record
	if st, body, err := c.call(ctx, watch, "GET", "/api/v1/tables/"+id+"/record", "", nil, &rec); err != nil || st != http.StatusOK {
		t.Fatalf("record through %s: %d %s %v", c.nodes[watch].name, st, body, err)
	}
	if got := rec.seatMoves(); !slices.Equal(got, acked) {
		t.Fatalf("the record through %s holds %d moves %v; %d were acknowledged: %v", c.nodes[watch].name, len(got), got, len(acked), acked)
	}
	t.Logf("%s: %d moves through %s and %s, each seen on %s's socket; the record holds them all once",
		gameName, len(acked), c.nodes[via[0]].name, c.nodes[via[1]].name, c.nodes[watch].name)
}

// spectator is a spectator's socket onto a table, and the newest version
// it was sent.
type spectator struct {
	mu      sync.Mutex
	version int
	changed chan struct{}
	err     error
}

// spectate opens a spectator's socket onto table id through node i.
func (c *killCluster) spectate(t *testing.T, ctx context.Context, i int, id string) *spectator {
	t.Helper()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.nodes[i].base(), "http")+"/api/v1/tables/"+id+"/socket", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	ws.SetReadLimit(4 << 20)
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	s := &spectator{changed: make(chan struct{})}
	go func() {
		for {
			_, m, err := ws.Read(ctx)
			var sm struct {
				Type   string `json:"type"`
				Update struct {
					Version int `json:"version"`
				} `json:"update"`
			}
			if err == nil {
				err = json.Unmarshal(m, &sm)
			}
			s.mu.Lock()
			if err != nil {
				s.err = err
			} else if sm.Type == "update" && sm.Update.Version > s.version {
				s.version = sm.Update.Version
			}
			close(s.changed)
			s.changed = make(chan struct{})
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return s
}

// await waits until the socket was sent version v.
func (s *spectator) await(v int, d time.Duration) error {
	deadline := time.After(d)
	for {
		s.mu.Lock()
		at, err, ch := s.version, s.err, s.changed
		s.mu.Unlock()
		if at >= v {
			return nil
		}
		if err != nil {
			return fmt.Errorf("the spectator's socket ended at version %d, before %d: %w", at, v, err)
		}
		select {
		case <-ch:
		case <-deadline:
			return fmt.Errorf("the spectator's socket is at version %d, not %d, after %v", at, v, d)
		}
	}
}

// loadTable is one Quizl table the load plays: its seats call the
// squares of the other's grid in order, each move conditional on the
// table's version.
type loadTable struct {
	id    string
	seats [2]string
	via   [2]int // the node each seat prefers: two that do not own the table

	mu       sync.Mutex
	made     []string // the moves known made, "seat:move": acknowledged, or found in the record after a failed answer
	acks     []ack    // when each acknowledged move was sent, and its acknowledgement came
	acked    int
	resolved int       // moves whose answer failed but which the record holds
	inflight string    // the move whose request the end of the load cut short
	sentAt   time.Time // when the move now awaiting its answer was sent, and through which node
	sentVia  string
	failures int // answers that were not an acknowledgement
	version  int
	turn     int
	calls    [2]int
	over     bool
	overAt   time.Time // when the answer or record that showed the game over came
}

// quizlCall is the move that calls square sq of the other seat's grid
// (as parlour loadtest's players call them).
func quizlCall(sq int) string { return string([]byte{byte('0' + 5 + sq/5), byte('0' + sq%5)}) }

// newLoadTable makes a Quizl table through node home (or the next live
// one), joined through the next and seated with computer-made grids; its
// seats play through the two nodes other than home.
func (c *killCluster) newLoadTable(ctx context.Context, home, n int) (*loadTable, error) {
	home = c.live(home)
	var sat, joined table.Seated
	if st, body, err := c.call(ctx, home, "POST", "/api/v1/tables", "", map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "name": fmt.Sprintf("Ann %d", n), "private": true}, &sat); err != nil || st != http.StatusCreated {
		return nil, fmt.Errorf("create through %s: %d %s %v", c.nodes[home].name, st, body, err)
	}
	t := &loadTable{id: sat.Table, via: [2]int{(home + 1) % 3, (home + 2) % 3}}
	at := c.live(t.via[1])
	if st, body, err := c.call(ctx, at, "POST", "/api/v1/tables/"+t.id+"/join", "", map[string]any{"name": fmt.Sprintf("Ben %d", n)}, &joined); err != nil || st != http.StatusOK {
		return nil, fmt.Errorf("join through %s: %d %s %v", c.nodes[at].name, st, body, err)
	}
	t.seats = [2]string{sat.Token, joined.Token}
	for i, tok := range t.seats {
		at := c.live(t.via[i])
		if st, body, err := c.call(ctx, at, "POST", "/api/v1/tables/"+t.id+"/setup", tok, map[string]any{"auto": true}, nil); err != nil || st != http.StatusOK {
			return nil, fmt.Errorf("setup through %s: %d %s %v", c.nodes[at].name, st, body, err)
		}
	}
	return t, c.resync(ctx, t, "")
}

// resync reads t's record and view through a live node and takes them as
// the truth: the moves known made must be the record's first, and the
// record may hold one more only if it is pending, the move whose answer
// failed. It retries for a while when the table is mid-takeover.
func (c *killCluster) resync(ctx context.Context, t *loadTable, pending string) error {
	var last error
	for try := 0; try < 100; try++ {
		if try > 0 {
			time.Sleep(100 * time.Millisecond)
		}
		at := c.live(t.via[try%2] + try/2)
		var rec record
		if st, body, err := c.call(ctx, at, "GET", "/api/v1/tables/"+t.id+"/record", t.seats[0], nil, &rec); err != nil || st != http.StatusOK {
			last = fmt.Errorf("record through %s: %d %s %v", c.nodes[at].name, st, body, err)
			continue
		}
		var u tableView
		if st, body, err := c.call(ctx, at, "GET", "/api/v1/tables/"+t.id, t.seats[0], nil, &u); err != nil || st != http.StatusOK {
			last = fmt.Errorf("view through %s: %d %s %v", c.nodes[at].name, st, body, err)
			continue
		}
		got := rec.seatMoves()
		t.mu.Lock()
		defer t.mu.Unlock()
		if len(got) < len(t.made) || !slices.Equal(got[:len(t.made)], t.made) {
			return fmt.Errorf("table %s: %d moves known made %v, the record holds %d: %v", t.id, len(t.made), t.made, len(got), got)
		}
		switch extra := got[len(t.made):]; {
		case len(extra) == 1 && extra[0] == pending && pending != "":
			t.made = append(t.made, pending)
			t.resolved++
			seat, _ := strconv.Atoi(pending[:1])
			t.calls[seat]++
		case len(extra) > 0:
			return fmt.Errorf("table %s: the record holds %v beyond the %d moves known made (pending %q): applied twice, or by nobody", t.id, extra, len(t.made), pending)
		}
		t.version = u.Version
		t.over = u.Table.Status == store.Finished || len(u.Table.ToMove) == 0
		if t.over {
			t.overAt = time.Now()
		} else {
			t.turn = int(u.Table.ToMove[0])
		}
		return nil
	}
	return fmt.Errorf("table %s: no node answered its record for 10 s: %w", t.id, last)
}

// step makes t's next move through the seat's node, or the next live
// one. A failed answer (a node died, a takeover ran out of time) is
// resolved against the record, and the move is made again if it is not
// there; a refusal (409: the version moved) likewise.
func (c *killCluster) step(ctx context.Context, t *loadTable) error {
	t.mu.Lock()
	seat := t.turn
	mv := quizlCall(t.calls[seat])
	version := t.version
	t.mu.Unlock()
	at := c.live(t.via[seat])
	var res table.MoveResult
	sent := time.Now()
	t.mu.Lock()
	t.sentAt, t.sentVia = sent, c.nodes[at].name
	t.mu.Unlock()
	st, _, err := c.call(ctx, at, "POST", "/api/v1/tables/"+t.id+"/moves", t.seats[seat], map[string]any{"move": mv, "version": version}, &res)
	t.mu.Lock()
	t.sentAt = time.Time{}
	t.mu.Unlock()
	if err == nil && st == http.StatusOK {
		t.mu.Lock()
		t.made = append(t.made, fmt.Sprintf("%d:%s", seat, mv))
		t.acks = append(t.acks, ack{sent, time.Now()})
		t.acked++
		t.calls[seat]++
		t.version = res.Version
		t.over = res.Status == store.Finished || len(res.ToMove) == 0
		if t.over {
			t.overAt = time.Now()
		} else {
			t.turn = int(res.ToMove[0])
		}
		t.mu.Unlock()
		return nil
	}
	if ctx.Err() != nil {
		t.mu.Lock()
		t.inflight = fmt.Sprintf("%d:%s", seat, mv)
		t.mu.Unlock()
		return nil
	}
	t.mu.Lock()
	t.failures++
	t.mu.Unlock()
	return c.resync(ctx, t, fmt.Sprintf("%d:%s", seat, mv))
}

// ack is one acknowledged move's times.
type ack struct{ sent, acked time.Time }

// firstAckAfter returns when the acknowledgement came of t's first move
// sent after at, or the zero time. A move sent before at and answered
// after it (the dead owner had stored it, or a node waited for it) only
// delays the first move sent after.
func (t *loadTable) firstAckAfter(at time.Time) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	i, _ := slices.BinarySearchFunc(t.acks, at, func(a ack, at time.Time) int { return a.sent.Compare(at) })
	if i < len(t.acks) {
		return t.acks[i].acked
	}
	return time.Time{}
}

// quantile returns the q-quantile of sorted durations (the median of an
// even count is the mean of the middle two), or 0 of none.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	if q == 0.5 && len(sorted)%2 == 0 {
		return (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

// logsOf returns the lines of the nodes' logs that mention s.
func (c *killCluster) logsOf(s string) string {
	var out []string
	for _, n := range c.nodes {
		b, _ := os.ReadFile(n.log)
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, s) {
				out = append(out, n.name+": "+line)
			}
		}
	}
	return strings.Join(out, "\n")
}

// killUnderLoad plays tables continuously through the nodes, kills the
// owner of the most live ones kills times (restarting it each time), and
// checks the records.
//
// A table that stalls longer than limit fails the test, but only once the
// kills are done, so that the figures are all measured; one with no move
// for a minute past limit fails it at once.
func (c *killCluster) killUnderLoad(t *testing.T, kills int, lease, limit time.Duration) {
	const players = 6                  // tables played at once
	const pace = 30 * time.Millisecond // between two moves at a table
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var mu sync.Mutex
	var all []*loadTable
	current := make([]*loadTable, players) // the table each player is at
	errs := make(chan error, players)
	var wg sync.WaitGroup
	made := 0
	for p := range players {
		wg.Go(func() {
			for ctx.Err() == nil {
				mu.Lock()
				made++
				n := made
				mu.Unlock()
				tb, err := c.newLoadTable(ctx, n, n)
				if err != nil {
					if ctx.Err() != nil {
						return
					}
					// A node died under the request: try the next.
					time.Sleep(200 * time.Millisecond)
					continue
				}
				mu.Lock()
				all = append(all, tb)
				current[p] = tb
				mu.Unlock()
				for ctx.Err() == nil {
					tb.mu.Lock()
					over := tb.over
					tb.mu.Unlock()
					if over {
						break
					}
					if err := c.step(ctx, tb); err != nil {
						errs <- err
						stop()
						return
					}
					time.Sleep(pace)
				}
			}
		})
	}
	fail := func(format string, args ...any) {
		stop()
		wg.Wait()
		t.Fatalf(format, args...)
	}
	var stalls []time.Duration
	for k := 1; k <= kills; k++ {
		// Play a while first: the node started last takes tables too.
		select {
		case err := <-errs:
			fail("before kill %d: %v", k, err)
		case <-time.After(lease + time.Second):
		}
		// The owners of the tables being played, from their leases.
		mu.Lock()
		live := slices.Clone(current)
		mu.Unlock()
		owned := make([][]*loadTable, len(c.nodes))
		for _, tb := range live {
			if tb == nil {
				continue
			}
			l, err := c.db.Lease(ctx, tb.id)
			if err != nil {
				fail("the lease of %s: %v", tb.id, err)
			}
			if i, ok := c.byName[l.Owner]; ok && c.nodes[i].alive() {
				owned[i] = append(owned[i], tb)
			}
		}
		victim := 0
		for i := range owned {
			if len(owned[i]) > len(owned[victim]) {
				victim = i
			}
		}
		if len(owned[victim]) == 0 {
			fail("kill %d: no node owns a table being played", k)
		}
		n := c.nodes[victim]
		killed := time.Now()
		n.kill()
		var tables []string
		var worst time.Duration
		for _, tb := range owned[victim] {
			tb.mu.Lock()
			over := tb.over
			tb.mu.Unlock()
			if over {
				continue // it ended just before the kill
			}
			deadline := time.Now().Add(limit + time.Minute)
			for {
				at := tb.firstAckAfter(killed)
				if at.IsZero() {
					// A move sent before the kill and answered after it
					// may have ended the game: no move follows it, and
					// its answer is the table's first after the kill.
					tb.mu.Lock()
					if tb.over && tb.overAt.After(killed) {
						at = tb.overAt
					}
					tb.mu.Unlock()
				}
				if !at.IsZero() {
					stall := at.Sub(killed)
					stalls = append(stalls, stall)
					worst = max(worst, stall)
					note := ""
					if stall > limit {
						note = " (over the limit)"
						for _, line := range strings.Split(c.logsOf(tb.id), "\n") {
							note += "\n\t" + line
						}
					}
					tables = append(tables, fmt.Sprintf("%s %v%s", tb.id, stall.Round(time.Millisecond), note))
					break
				}
				if time.Now().After(deadline) {
					tb.mu.Lock()
					state := fmt.Sprintf("%d moves known made, %d failed answers, version %d, turn %d", len(tb.made), tb.failures, tb.version, tb.turn)
					if !tb.sentAt.IsZero() {
						state += fmt.Sprintf("; a move sent through %s %v after the kill has had no answer since", tb.sentVia, tb.sentAt.Sub(killed).Round(time.Millisecond))
					}
					tb.mu.Unlock()
					fail("kill %d of node %s: table %s (%s) had no move acknowledged in the %v since; the nodes' logs of it:\n%s",
						k, n.name, tb.id, state, time.Since(killed).Round(time.Millisecond), c.logsOf(tb.id))
				}
				select {
				case err := <-errs:
					fail("after kill %d of node %s: %v", k, n.name, err)
				case <-time.After(20 * time.Millisecond):
				}
			}
		}
		t.Logf("kill %d: node %s (owner of %d of the %d tables in play); first move acknowledged after: %s", k, n.name, len(owned[victim]), players, strings.Join(tables, ", "))
		if err := n.start(); err != nil {
			fail("restarting node %s: %v", n.name, err)
		}
		if worst > limit {
			t.Errorf("kill %d: a table stalled %v, over the lease and its margin (%v)", k, worst, limit)
		}
	}
	// Play on a little after the last restart, then stop and check.
	select {
	case err := <-errs:
		fail("after the last kill: %v", err)
	case <-time.After(time.Second):
	}
	stop()
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	bctx := context.Background()
	var acked, resolved, failures, tables int
	for i, tb := range all {
		at := (tb.via[0] + 1 + i) % len(c.nodes)
		var rec record
		if st, body, err := c.call(bctx, at, "GET", "/api/v1/tables/"+tb.id+"/record", tb.seats[0], nil, &rec); err != nil || st != http.StatusOK {
			t.Fatalf("record of %s through %s: %d %s %v", tb.id, c.nodes[at].name, st, body, err)
		}
		got := rec.seatMoves()
		tb.mu.Lock()
		if !slices.Equal(got, tb.made) {
			// The last move may have been in flight when the players
			// stopped: its answer was lost to the cancelled request. Only
			// that move may the record hold beyond those known made.
			if !slices.Equal(got, append(slices.Clone(tb.made), tb.inflight)) {
				t.Errorf("table %s: the record through %s holds %d moves %v; %d known made (%d acknowledged): %v", tb.id, c.nodes[at].name, len(got), got, len(tb.made), tb.acked, tb.made)
			}
		}
		acked += tb.acked
		resolved += tb.resolved
		failures += tb.failures
		if tb.acked > 0 {
			tables++
		}
		tb.mu.Unlock()
	}
	if acked == 0 || len(stalls) < kills {
		t.Fatalf("%d moves acknowledged, %d takeovers timed: the load did not run", acked, len(stalls))
	}
	slices.Sort(stalls)
	median := quantile(stalls, 0.5)
	taken := 0
	for _, n := range c.nodes {
		b, _ := os.ReadFile(n.log)
		taken += bytes.Count(b, []byte(`msg="table taken over"`))
	}
	t.Logf("%d SIGKILLs of an owner node (lease %v) under load: %d tables played, %d moves acknowledged and all in the records, none twice; %d answers failed (%d of those moves were made, and found in the record); %d takeovers logged",
		kills, lease, tables, acked, failures, resolved, taken)
	t.Logf("takeover, from the kill to the first move acknowledged at each of the dead owner's tables (%d tables): median %v, max %v",
		len(stalls), median.Round(time.Millisecond), stalls[len(stalls)-1].Round(time.Millisecond))
	if within := stalls[:sort.Search(len(stalls), func(i int) bool { return stalls[i] > limit })]; len(within) < len(stalls) {
		t.Logf("%d of the %d tables stalled over the limit (%v), from %v to %v; the other %d: median %v, max %v",
			len(stalls)-len(within), len(stalls), limit, stalls[len(within)].Round(time.Millisecond), stalls[len(stalls)-1].Round(time.Millisecond),
			len(within), quantile(within, 0.5).Round(time.Millisecond), quantile(within, 1).Round(time.Millisecond))
	}
}
