package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/server"
	"parlour/server/internal/servertest"
	"parlour/server/limit"
	"parlour/server/table"
)

// crashServerEnv names the store when the test binary is re-run as a
// server for the crash tests: "KIND WHERE" (a servertest.StoreKind's name, and
// the file's path or the database's URL).
const crashServerEnv = "PARLOUR_TEST_SERVER_STORE"

// runChildServer serves the store spec names on a loopback port with
// durable commits and prints its URL; it runs until killed.
func runChildServer(spec string) int {
	ctx := context.Background()
	name, where, _ := strings.Cut(spec, " ")
	k, err := servertest.StoreKindNamed(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	st, err := k.Open(ctx, where, true)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if when := os.Getenv(dieAtEndEnv); when != "" {
		st = dieAtEndOf(st, when)
	}
	// What goes wrong is logged to stderr, which the test shows when it fails.
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	svc, err := server.New(ctx, server.Config{Store: st, Games: games.Registry(), NewBot: games.NewBot, Logger: log})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	h := server.NewHandler(svc, limit.Limits{PerIdentity: 1e6, PerIdentityBurst: 1e6, NewGuests: 1e6, NewGuestsBurst: 1e6})
	fmt.Printf("URL http://%s\n", ln.Addr())
	srv := &http.Server{Handler: h, ConnContext: h.ConnContext}
	srv.Serve(ln)
	return 0
}

type child struct {
	cmd *exec.Cmd
	url string
}

// startChild starts a server in a process of its own on the store of
// kind k at where.
func startChild(t *testing.T, k servertest.StoreKind, where string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashServerEnv+"="+k.Name+" "+where)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "URL ") {
		cmd.Process.Kill()
		t.Fatalf("child server said %q, %v", line, err)
	}
	c := &child{cmd: cmd, url: strings.TrimSpace(strings.TrimPrefix(line, "URL "))}
	t.Cleanup(func() { c.cmd.Process.Kill(); c.cmd.Wait() })
	return c
}

func call(url, method, token string, body any, out any) (int, error) {
	var rd *strings.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	} else {
		rd = strings.NewReader("")
	}
	req, _ := http.NewRequest(method, url, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			return res.StatusCode, err
		}
	}
	return res.StatusCode, nil
}

// crashTable is one Quizl table driven by a scripted pair of players who
// call the squares in order; acked holds every move the server
// acknowledged.
type crashTable struct {
	id     string
	tokens [2]string
	acked  []game.Move
	turn   int
	calls  [2]int
}

// next is seat's next scripted call: the squares in order, row by row.
func (ct *crashTable) next(seat int) string {
	sq := ct.calls[seat]
	return fmt.Sprintf("%d%d", 5+sq/5, sq%5)
}

func (ct *crashTable) play(url string, stop <-chan struct{}, acked *atomic.Int64) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		seat := ct.turn
		sq := ct.calls[seat]
		if sq >= 25 {
			return
		}
		mv := ct.next(seat)
		var res table.MoveResult
		st, err := call(url+"/api/v1/tables/"+ct.id+"/moves", "POST", ct.tokens[seat], map[string]any{"move": mv}, &res)
		if err != nil || st != 200 {
			return // the server died, or the game is over
		}
		ct.acked = append(ct.acked, game.Move{By: fmt.Sprint(seat), Move: mv})
		acked.Add(1)
		ct.calls[seat]++
		if len(res.ToMove) == 0 {
			return
		}
		ct.turn = int(res.ToMove[0])
	}
}

// TestCrashRecovery kills a server process with SIGKILL while scripted
// players hammer it, restarts it on the same data, and finds every
// acknowledged move in the tables' records, in order; play then goes on.
func TestCrashRecovery(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		if testing.Short() {
			t.Skip("short: no crash test")
		}
		dir := k.Fresh(t)
		c := startChild(t, k, dir)
		const tables = 24
		var all []*crashTable
		for i := 0; i < tables; i++ {
			ct := &crashTable{}
			var a, b table.Seated
			if st, err := call(c.url+"/api/v1/tables", "POST", "", map[string]any{"game": "quizl", "seats": []string{"me", "open"}}, &a); st != 201 {
				t.Fatalf("create: %d %v", st, err)
			}
			if st, err := call(c.url+"/api/v1/tables/"+a.Table+"/join", "POST", "", map[string]any{}, &b); st != 200 {
				t.Fatalf("join: %d %v", st, err)
			}
			ct.id, ct.tokens = a.Table, [2]string{a.Token, b.Token}
			for _, tok := range ct.tokens {
				if st, err := call(c.url+"/api/v1/tables/"+a.Table+"/setup", "POST", tok, map[string]any{"auto": true}, nil); st != 200 {
					t.Fatalf("setup: %d %v", st, err)
				}
			}
			all = append(all, ct)
		}
		stop := make(chan struct{})
		var acked atomic.Int64
		var wg sync.WaitGroup
		for _, ct := range all {
			wg.Add(1)
			go func() { defer wg.Done(); ct.play(c.url, stop, &acked) }()
		}
		// Kill the server mid-game, once it has acknowledged a good number of
		// moves (or after a while on a slow machine).
		deadline := time.Now().Add(5 * time.Second)
		for acked.Load() < 200 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		c.cmd.Wait()
		close(stop)
		wg.Wait()
		total := 0
		for _, ct := range all {
			total += len(ct.acked)
		}
		if total == 0 {
			t.Fatal("no move was acknowledged before the kill")
		}

		c = startChild(t, k, dir)
		for _, ct := range all {
			var rec game.Record
			if st, err := call(c.url+"/api/v1/tables/"+ct.id+"/record", "GET", ct.tokens[0], nil, &rec); st != 200 || err != nil {
				t.Fatalf("record of %s after restart: %d %v", ct.id, st, err)
			}
			if len(rec.Moves) < len(ct.acked) || len(rec.Moves) > len(ct.acked)+1 {
				t.Fatalf("table %s: %d moves acknowledged, %d in the record after the crash", ct.id, len(ct.acked), len(rec.Moves))
			}
			for i, m := range ct.acked {
				seat := int(m.By[0] - '0')
				if rec.Moves[i].Move != m.Move || rec.Moves[i].By != rec.Players[seat] {
					t.Fatalf("table %s move %d: acknowledged %s by seat %d, record has %+v", ct.id, i+1, m.Move, seat, rec.Moves[i])
				}
			}
			// The table resumes where it stood: the next scripted move is
			// accepted.
			var v struct {
				Version int
				Table   table.Info
			}
			call(c.url+"/api/v1/tables/"+ct.id, "GET", "", nil, &v)
			if len(v.Table.ToMove) == 1 && len(rec.Moves) == len(ct.acked) {
				ct.turn = int(v.Table.ToMove[0])
				if err := ct.playOne(c.url); err != nil {
					ct.landedLate(t, c.url, v.Version, err)
				}
			}
		}
		t.Logf("%d tables, %d moves acknowledged before SIGKILL, all found after restart", tables, total)
	})
}

// landedLate checks a table whose first move after the restart was
// refused (err). The move the killed server had in flight, the same move
// (the same seat's next square), had reached PostgreSQL before the kill
// and was committed after the restarted server read the table:
// PostgreSQL finishes a commit it was sent whatever became of its client.
// The server refuses its own copy with a 503 ("try again") and reads the
// table again before the next move. A client that tries again with the
// version it played at is told its move was made (repeated); the record
// holds it once, and the move after it is taken.
func (ct *crashTable) landedLate(t *testing.T, url string, version int, err error) {
	t.Helper()
	seat := ct.turn
	mv := ct.next(seat)
	var res table.MoveResult
	st, aerr := call(url+"/api/v1/tables/"+ct.id+"/moves", "POST", ct.tokens[seat], map[string]any{"move": mv, "version": version}, &res)
	if st != 200 || aerr != nil || !res.Repeated {
		t.Fatalf("table %s does not take moves after the restart (%v), nor says the move was made when asked again: %d %+v %v", ct.id, err, st, res, aerr)
	}
	ct.acked = append(ct.acked, game.Move{By: fmt.Sprint(seat), Move: mv})
	ct.calls[seat]++
	var rec game.Record
	if st, rerr := call(url+"/api/v1/tables/"+ct.id+"/record", "GET", ct.tokens[0], nil, &rec); st != 200 || rerr != nil {
		t.Fatalf("record of %s: %d %v", ct.id, st, rerr)
	}
	if n := len(ct.acked); len(rec.Moves) != n || rec.Moves[n-1].Move != mv || rec.Moves[n-1].By != rec.Players[seat] {
		t.Fatalf("table %s: after the late move, %d moves acknowledged, record %+v", ct.id, n, rec.Moves)
	}
	if len(res.ToMove) != 1 {
		return // that move ended the game
	}
	ct.turn = int(res.ToMove[0])
	if err := ct.playOne(url); err != nil {
		t.Fatalf("table %s does not take moves after the restart, once its late move was in: %v", ct.id, err)
	}
}

// playOne plays the next scripted move, and says why when the server
// does not take it.
func (ct *crashTable) playOne(url string) error {
	seat := ct.turn
	mv := ct.next(seat)
	var res json.RawMessage
	st, err := call(url+"/api/v1/tables/"+ct.id+"/moves", "POST", ct.tokens[seat], map[string]any{"move": mv}, &res)
	if st != 200 || err != nil {
		return fmt.Errorf("seat %d's move %s: %d %s %v", seat, mv, st, res, err)
	}
	ct.acked = append(ct.acked, game.Move{By: fmt.Sprint(seat), Move: mv})
	ct.calls[seat]++
	return nil
}

// TestRecordKeepsTheNotation: a Quizl announcement written with a seat
// number or the start of a name is played, and the record keeps it as
// RECORDS.md writes it, with the whole name, so that it replays anywhere.
func TestRecordKeepsTheNotation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := &person{e: e, name: "Ann", gname: "quizl"}
	var seated struct {
		Table string `json:"table"`
		Token string `json:"token"`
	}
	if st, b := ann.post("/api/v1/tables", map[string]any{"game": "quizl", "seats": []string{"me", "open", "open"}, "name": "Ann"}, &seated); st != 201 {
		t.Fatalf("create: %d %s", st, b)
	}
	ann.table, ann.token = seated.Table, seated.Token
	people := []*person{ann}
	// Guests may not pass for the computer: these names only share a word
	// and a bracket.
	for _, name := range []string{"Robot (strong)", "Robot (easy)"} {
		p := &person{e: e, name: name, gname: "quizl", table: ann.table}
		if st, b := p.post("/api/v1/tables/"+ann.table+"/join", map[string]any{"name": name}, &seated); st != 200 {
			t.Fatalf("join: %d %s", st, b)
		}
		p.token = seated.Token
		people = append(people, p)
	}
	for _, p := range people {
		if st, b := p.post("/api/v1/tables/"+ann.table+"/setup", map[string]any{"auto": true}, nil); st != 200 {
			t.Fatalf("setup: %d %s", st, b)
		}
	}
	for i, c := range []struct {
		who  int
		move string
		want string
	}{
		{0, "say 1 CRANE", "say Robot (strong) CRANE"},
		{1, "say robot (e psalm", "say Robot (easy) PSALM"},
		{2, "say ann blimp", "say Ann BLIMP"},
	} {
		if st, b := people[c.who].post("/api/v1/tables/"+ann.table+"/moves", map[string]any{"move": c.move}, nil); st != 200 {
			t.Fatalf("%q: %d %s", c.move, st, b)
		}
		var rec game.Record
		raw := ann.get("/api/v1/tables/" + ann.table + "/record")
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatal(err)
		}
		if got := rec.Moves[i].Move; got != c.want {
			t.Errorf("%q is kept as %q, want %q", c.move, got, c.want)
		}
	}
	st, b := people[0].post("/api/v1/tables/"+ann.table+"/moves", map[string]any{"move": "say rob CRANE"}, nil)
	if st != 422 || !strings.Contains(b, `could be Robot (strong) or Robot (easy)`) {
		t.Errorf("an ambiguous name: %d %s", st, b)
	}
}
