package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// wsSeat is one scripted player's WebSocket onto its table (TransportWS): moves go out on it, and its reader takes the server's
// answers and the updates pushed to the seat.
type wsSeat struct {
	t   *tester
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
func (t *tester) wsURL(i int, id string) string {
	return "ws" + strings.TrimPrefix(t.nodes[i].base, "http") + "/api/v1/tables/" + id + "/socket"
}

// openSeat opens a socket onto table id through node i for the seat
// token holds (a spectator with no token), says hello, and waits for the
// first update.
func (t *tester) openSeat(ctx context.Context, i int, id, token string) (*wsSeat, error) {
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(dctx, t.wsURL(i, id), nil)
	if err != nil {
		return nil, fmt.Errorf("opening a socket onto %s: %w", id, err)
	}
	c.SetReadLimit(1 << 20)
	hello := []byte(`{"type":"hello"`)
	if token != "" {
		hello = fmt.Appendf(hello, `,"token":%q`, token)
	}
	if t.cfg.ViewTails {
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
	s := &wsSeat{t: t, c: c, ans: make(chan wsAnswer, 1)}
	t.opened.Add(1)
	go s.read()
	return s, nil
}

// read takes every message the server sends: updates are counted, and
// answers handed to move. It reuses one buffer, so that reading the
// pushes costs the tool as little as it can. It ends when the socket
// closes, not with the context of the run that opened it: a spare
// table's sockets outlive that run.
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
			s.t.pushes.Add(1)
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
func (s *wsSeat) move(ctx context.Context, move string) (int, []byte, error) {
	s.req = append(append(append(s.req[:0], `{"type":"move","move":"`...), move...), `"}`...)
	return s.send(ctx)
}

// send sends s.req and waits for the server's answer.
func (s *wsSeat) send(ctx context.Context) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
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
func (s *wsSeat) follow(ctx context.Context, id, token string) error {
	want := []byte(`"table":{"id":"` + id + `"`)
	s.await.Store(&want)
	defer s.await.Store(nil)
	s.req = fmt.Appendf(s.req[:0], `{"type":"hello","table":%q,"token":%q`, id, token)
	if s.t.cfg.ViewTails {
		s.req = append(s.req, `,"view_tails":true`...)
	}
	s.req = append(s.req, '}')
	st, body, err := s.send(ctx)
	switch {
	case err != nil:
		return fmt.Errorf("moving a socket on to %s: %w", id, err)
	case st != http.StatusOK:
		return fmt.Errorf("moving a socket on to %s: answered %d %.200s", id, st, body)
	}
	return nil
}

// openSeats opens a socket for each seat of tb.
func (t *tester) openSeats(ctx context.Context, tb *table) error {
	return t.seatSockets(ctx, nil, tb)
}

// seatSockets gives each seat of tb that has none a socket: the socket of
// the same seat of old, the table whose game just ended, moved on to tb
// (follow), or else a new one. The sockets of old that tb does not take
// are closed. With NewSockets, or a seat of tb that plays through
// another node than old's, every socket is new, as with a client that
// does not move its sockets on.
func (t *tester) seatSockets(ctx context.Context, old, tb *table) error {
	for i := range tb.ws {
		var s *wsSeat
		if old != nil {
			s, old.ws[i] = old.ws[i], nil
		}
		if s != nil {
			if tb.ws[i] == nil && !t.cfg.NewSockets && old.node[i] == tb.node[i] && s.follow(ctx, tb.id, tb.seats[i]) == nil {
				t.movedOn.Add(1)
				tb.ws[i] = s
			} else {
				s.close()
			}
		}
		if tb.ws[i] != nil {
			continue
		}
		s, err := t.openSeat(ctx, tb.node[i], tb.id, tb.seats[i])
		if err != nil {
			tb.closeSeats()
			return err
		}
		tb.ws[i] = s
	}
	return nil
}

// closeSeats closes tb's sockets, if it has any.
func (tb *table) closeSeats() {
	for i, s := range tb.ws {
		if s != nil {
			s.close()
			tb.ws[i] = nil
		}
	}
}
