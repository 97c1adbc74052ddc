package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// wsSeat is one scripted player's WebSocket onto its table (loadtest
// --transport ws): moves go out on it, and its reader takes the server's
// answers and the updates pushed to the seat.
type wsSeat struct {
	lt  *loadtest
	c   *websocket.Conn
	ans chan wsAnswer // the answers to moves and later hellos
	req []byte
	// await, while the socket moves on to another table (follow), is
	// what that table's first update holds: the reader answers it.
	await atomic.Pointer[[]byte]
}

// wsAnswer is the server's answer to one move: 200 for an ack, else the
// status of its error.
type wsAnswer struct {
	status int
	body   []byte
	err    error
}

// wsURL is the socket of table id on node i.
func (lt *loadtest) wsURL(i int, id string) string {
	return "ws" + strings.TrimPrefix(lt.nodes[i].base, "http") + "/api/v1/tables/" + id + "/socket"
}

// openSeat opens a socket onto table id through node i for the seat
// token holds (a spectator with no token), says hello, and waits for the
// first update.
func (lt *loadtest) openSeat(ctx context.Context, i int, id, token string) (*wsSeat, error) {
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(dctx, lt.wsURL(i, id), nil)
	if err != nil {
		return nil, fmt.Errorf("opening a socket onto %s: %w", id, err)
	}
	c.SetReadLimit(1 << 20)
	hello := []byte(`{"type":"hello"`)
	if token != "" {
		hello = fmt.Appendf(hello, `,"token":%q`, token)
	}
	if lt.tails {
		hello = append(hello, `,"view_tails":true`...)
	}
	hello = append(hello, '}')
	if err := c.Write(dctx, websocket.MessageText, hello); err != nil {
		c.CloseNow()
		return nil, fmt.Errorf("saying hello on %s: %w", id, err)
	}
	_, b, err := c.Read(dctx)
	if err == nil && !bytes.HasPrefix(b, []byte(`{"type":"update"`)) {
		err = fmt.Errorf("answered %.200s", b)
	}
	if err != nil {
		c.CloseNow()
		return nil, fmt.Errorf("hello on %s: %w", id, err)
	}
	s := &wsSeat{lt: lt, c: c, ans: make(chan wsAnswer, 1)}
	lt.opened.Add(1)
	go s.read()
	return s, nil
}

// read takes every message the server sends: updates are counted, and
// answers handed to move. It reuses one buffer, so that reading the
// pushes costs the tool as little as it can.
func (s *wsSeat) read() {
	var buf bytes.Buffer
	for {
		_, r, err := s.c.Reader(context.Background())
		if err == nil {
			buf.Reset()
			_, err = buf.ReadFrom(r)
		}
		if err != nil {
			select {
			case s.ans <- wsAnswer{err: err}:
			default:
			}
			close(s.ans)
			return
		}
		b := buf.Bytes()
		switch {
		case bytes.HasPrefix(b, []byte(`{"type":"update"`)):
			if w := s.await.Load(); w != nil && bytes.Contains(b, *w) {
				s.await.Store(nil)
				s.ans <- wsAnswer{status: http.StatusOK}
				break
			}
			s.lt.pushes.Add(1)
		case bytes.HasPrefix(b, []byte(`{"type":"ack"`)):
			s.ans <- wsAnswer{status: http.StatusOK, body: bytes.Clone(b)}
		default:
			st := http.StatusBadGateway
			var m struct {
				Status int `json:"status"`
			}
			if json.Unmarshal(b, &m) == nil && m.Status != 0 {
				st = m.Status
			}
			s.ans <- wsAnswer{status: st, body: bytes.Clone(b)}
		}
	}
}

// move sends move (digits only) and waits for the server's answer: an ack
// comes only once the move is durable.
func (s *wsSeat) move(move string) (int, []byte, error) {
	s.req = append(append(append(s.req[:0], `{"type":"move","move":"`...), move...), `"}`...)
	return s.send()
}

// send sends s.req and waits for the server's answer.
func (s *wsSeat) send() (int, []byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.c.Write(ctx, websocket.MessageText, s.req); err != nil {
		return 0, nil, err
	}
	select {
	case a, ok := <-s.ans:
		if !ok {
			return 0, nil, errors.New("the socket closed")
		}
		return a.status, a.body, a.err
	case <-ctx.Done():
		return 0, nil, fmt.Errorf("no answer: %w", ctx.Err())
	}
}

func (s *wsSeat) close() { s.c.Close(websocket.StatusNormalClosure, "") }

// follow moves the socket on to table id, for the seat token holds there
// (a later hello naming the table, docs/protocol.md), and waits for that
// table's first update, as a browser moving on to its next game does.
func (s *wsSeat) follow(id, token string) error {
	want := []byte(`"table":{"id":"` + id + `"`)
	s.await.Store(&want)
	defer s.await.Store(nil)
	s.req = fmt.Appendf(s.req[:0], `{"type":"hello","table":%q,"token":%q`, id, token)
	if s.lt.tails {
		s.req = append(s.req, `,"view_tails":true`...)
	}
	s.req = append(s.req, '}')
	st, body, err := s.send()
	switch {
	case err != nil:
		return fmt.Errorf("moving a socket on to %s: %w", id, err)
	case st != http.StatusOK:
		return fmt.Errorf("moving a socket on to %s: answered %d %.200s", id, st, body)
	}
	return nil
}

// openSeats opens a socket for each seat of t.
func (lt *loadtest) openSeats(ctx context.Context, t *ltTable) error {
	return lt.seatSockets(ctx, nil, t)
}

// seatSockets gives each seat of t that has none a socket: the socket of
// the same seat of old, the table whose game just ended, moved on to t
// (follow), or else a new one. The sockets of old that t does not take
// are closed. With --new-sockets, or a seat of t that plays through
// another node than old's, every socket is new, as with a client that
// does not move its sockets on.
func (lt *loadtest) seatSockets(ctx context.Context, old, t *ltTable) error {
	for i := range t.ws {
		var s *wsSeat
		if old != nil {
			s, old.ws[i] = old.ws[i], nil
		}
		if s != nil {
			if t.ws[i] == nil && !lt.newSockets && old.node[i] == t.node[i] && s.follow(t.id, t.seats[i]) == nil {
				lt.movedOn.Add(1)
				t.ws[i] = s
			} else {
				s.close()
			}
		}
		if t.ws[i] != nil {
			continue
		}
		s, err := lt.openSeat(ctx, t.node[i], t.id, t.seats[i])
		if err != nil {
			t.closeSeats()
			return err
		}
		t.ws[i] = s
	}
	return nil
}

// closeSeats closes t's sockets, if it has any.
func (t *ltTable) closeSeats() {
	for i, s := range t.ws {
		if s != nil {
			s.close()
			t.ws[i] = nil
		}
	}
}

// idleSockets opens n spectator sockets onto the tables at hand, n/len
// each, and reports what the server's memory grew by per socket: its
// resident set from /proc (with --server-pid) and its heap from
// /metrics, each read once the sockets are open and quiet. With several
// nodes, the sockets are spread over them and the figures are their sums.
func (lt *loadtest) idleSockets(ctx context.Context, n int, pids []int) error {
	var ids []string
	for len(ids) < lt.live {
		select {
		case t := <-lt.spare:
			ids = append(ids, t.id)
			defer func() { lt.spare <- t }()
		default:
			if err := lt.fill(ctx, lt.live-len(ids)); err != nil {
				return err
			}
		}
	}
	settle := func() (rss, heap float64) {
		time.Sleep(2 * time.Second)
		return residentSets(pids), lt.metrics(ctx)["parlour_heap_bytes"]
	}
	rss0, heap0 := settle()
	socks := make([]*wsSeat, 0, n)
	defer func() {
		for _, s := range socks {
			s.close()
		}
	}()
	for i := range n {
		s, err := lt.openSeat(ctx, i%len(lt.nodes), ids[i%len(ids)], "")
		if err != nil {
			return fmt.Errorf("after %d sockets: %w", i, err)
		}
		socks = append(socks, s)
	}
	rss1, heap1 := settle()
	fmt.Fprintf(lt.out, "%d idle sockets (spectators, %d tables): server heap %+.0f bytes a socket", n, len(ids), (heap1-heap0)/float64(n))
	if rss0 > 0 && rss1 > 0 {
		fmt.Fprintf(lt.out, ", resident set %+.0f bytes a socket", (rss1-rss0)/float64(n))
	}
	fmt.Fprintln(lt.out)
	return nil
}

// residentSets returns the sum of the resident sets of pids, or -1 when
// there are none or one cannot be read.
func residentSets(pids []int) float64 {
	if len(pids) == 0 {
		return -1
	}
	sum := 0.0
	for _, pid := range pids {
		r := residentSet(pid)
		if r < 0 {
			return -1
		}
		sum += r
	}
	return sum
}

// residentSet returns process pid's resident set in bytes, from /proc
// (Linux), or -1.
func residentSet(pid int) float64 {
	if pid <= 0 {
		return -1
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				return -1
			}
			return kb * 1024
		}
	}
	return -1
}
