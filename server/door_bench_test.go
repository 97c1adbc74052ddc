package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"parlour/games/quizl"
	"parlour/internal/cputime"
	"parlour/lexicon"
	"parlour/server"
	"parlour/server/limit"
	"parlour/server/socket"
	"parlour/server/table"
)

// doorTable is one Quizl table of two scripted seats, for the benchmarks
// of a move through each door.
type doorTable struct {
	id    string
	tok   [2]string
	turn  int
	calls [2]int
	socks [2]*benchSocket // over the socket door
}

// benchSocket is one seat's socket: answers to its moves come on ans,
// and the updates pushed to it are read and dropped.
type benchSocket struct {
	c   *websocket.Conn
	ans chan []byte
}

// doorBench runs one move per iteration through a door: move plays mv
// for seat i of t and returns the answer's body (a MoveResult).
func doorBench(b *testing.B, open func(*doorTable), move func(t *doorTable, i int, mv string) ([]byte, error)) {
	ctx := context.Background()
	s, db, _ := openService(b, filepath.Join(b.TempDir(), "p.db"))
	defer db.Close()
	defer s.Close()
	h := server.NewHandler(s, limit.Limits{ConnsPerAddr: 1 << 16, PerIdentity: 1e6, PerIdentityBurst: 1e6})
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.CloseSockets("benchmark over")
	benchBase = srv.URL

	lex, err := lexicon.Load(lexicon.DefaultName)
	if err != nil {
		b.Fatal(err)
	}
	var grids []json.RawMessage
	for i := uint64(1); i <= 8; i++ {
		g, err := quizl.RandomSetup(lex, i)
		if err != nil {
			b.Fatal(err)
		}
		grids = append(grids, g.Setup())
	}
	made := 0
	var mu sync.Mutex
	newTable := func() *doorTable {
		mu.Lock()
		made++
		n := made
		mu.Unlock()
		a, err := s.Create(ctx, nil, table.CreateRequest{Game: "quizl", Seats: []string{"me", "open"}})
		if err != nil {
			b.Fatal(err)
		}
		j, err := s.Join(ctx, nil, a.Table, table.JoinRequest{})
		if err != nil {
			b.Fatal(err)
		}
		t := &doorTable{id: a.Table, tok: [2]string{a.Token, j.Token}}
		for i, tok := range t.tok {
			p, _ := s.Auth().Authenticate(ctx, tok)
			if _, err := s.Setup(ctx, p, t.id, table.SetupRequest{Setup: grids[(2*n+i)%len(grids)]}); err != nil {
				b.Fatal(err)
			}
		}
		open(t)
		return t
	}
	// Every table a game can need is made (its sockets opened) before the
	// clock starts: a game lasts about 45 moves, capped here at 50.
	const n = 64
	tables := make(chan *doorTable, n)
	for range n {
		tables <- newTable()
	}
	spares := make(chan *doorTable, b.N/40+n)
	for range cap(spares) {
		spares <- newTable()
	}
	cpu0, ok := cputime.Process()
	if !ok {
		b.Skip("no CPU time to read here")
	}
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			t := <-tables
			sq := t.calls[t.turn]
			body, err := move(t, t.turn, fmt.Sprintf("%d%d", 5+sq/5, sq%5))
			if err != nil {
				b.Error(err)
				return
			}
			var res table.MoveResult
			if err := json.Unmarshal(body, &res); err != nil {
				b.Errorf("%v in %s", err, body)
				return
			}
			t.calls[t.turn]++
			if len(res.ToMove) == 0 || t.calls[t.turn] >= 25 {
				for _, c := range t.socks {
					if c != nil {
						c.c.CloseNow()
					}
				}
				select {
				case t = <-spares:
				default:
					t = newTable()
				}
			} else {
				t.turn = int(res.ToMove[0])
			}
			tables <- t
		}
	})
	b.StopTimer()
	cpu1, _ := cputime.Process()
	cpu := cpu1 - cpu0
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/move")
}

// benchBase is the server under benchmark (one benchmark runs at a time).
var benchBase string

// BenchmarkMoveHTTP measures a move through the HTTP door: POST
// .../moves on kept-alive connections, answered once durable. Its
// cpu-µs/move counts the whole process: server and client.
func BenchmarkMoveHTTP(b *testing.B) {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	doorBench(b, func(*doorTable) {}, func(t *doorTable, i int, mv string) ([]byte, error) {
		req, _ := http.NewRequest("POST", benchBase+"/api/v1/tables/"+t.id+"/moves", strings.NewReader(`{"move":"`+mv+`"}`))
		req.Header.Set("Authorization", "Bearer "+t.tok[i])
		res, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		defer res.Body.Close()
		var buf bytes.Buffer
		buf.ReadFrom(res.Body)
		if res.StatusCode != 200 {
			return nil, fmt.Errorf("%d %s", res.StatusCode, buf.Bytes())
		}
		return buf.Bytes(), nil
	})
}

// BenchmarkMoveSocket measures a move through the socket door: a socket
// per seat asking for view tails as the browser does, the move answered
// by an ack once durable, and the update pushed to both seats read by
// their sockets.
func BenchmarkMoveSocket(b *testing.B) {
	ctx := context.Background()
	doorBench(b, func(t *doorTable) {
		for i, tok := range t.tok {
			c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(benchBase, "http")+"/api/v1/tables/"+t.id+"/socket", nil)
			if err != nil {
				b.Fatal(err)
			}
			c.SetReadLimit(1 << 20)
			// View tails, as the browser asks: after the first update, a
			// view's log comes as its new entries only.
			if err := c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"type":"hello","token":%q,"view_tails":true}`, tok)); err != nil {
				b.Fatal(err)
			}
			bs := &benchSocket{c: c, ans: make(chan []byte, 1)}
			go func() {
				defer close(bs.ans)
				for {
					_, m, err := c.Read(ctx)
					if err != nil {
						return
					}
					if !bytes.HasPrefix(m, []byte(`{"type":"update"`)) {
						bs.ans <- m
					}
				}
			}()
			t.socks[i] = bs
		}
	}, func(t *doorTable, i int, mv string) ([]byte, error) {
		bs := t.socks[i]
		if err := bs.c.Write(ctx, websocket.MessageText, []byte(`{"type":"move","move":"`+mv+`"}`)); err != nil {
			return nil, err
		}
		m, ok := <-bs.ans
		if !ok {
			return nil, fmt.Errorf("the socket closed")
		}
		var sm socket.ServerMessage
		if err := json.Unmarshal(m, &sm); err != nil || sm.Type != "ack" {
			return nil, fmt.Errorf("answered %s", m)
		}
		return json.Marshal(sm.Result)
	})
}

// BenchmarkIdleSocketMemory reports the memory one open, idle socket
// costs the server: 1,000 sockets onto 100 tables, each past its hello
// and first update, heap (after collection) and goroutine stacks
// measured before and after (idleSocketMemory); a spectator's, and one
// signed in with a token of its own.
func BenchmarkIdleSocketMemory(b *testing.B) {
	for _, signedIn := range []bool{false, true} {
		name := "spectator"
		if signedIn {
			name = "signed-in"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				heap, stack, _ := idleSocketMemory(b, 1000, signedIn)
				b.ReportMetric(heap, "heap-bytes/socket")
				b.ReportMetric(stack, "stack-bytes/socket")
			}
		})
	}
}
