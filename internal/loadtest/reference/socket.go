package reference

// The WebSocket door: a hello, then moves answered by acks once they are
// stored, and an update with its own view pushed to every socket
// following the table at each move.

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"parlour/game"
)

// sock is one WebSocket following a table.
type sock struct {
	c     *websocket.Conn
	t     *table // the table it follows; guarded by its reader
	seat  game.Seat
	tails bool // it takes views' logs in tails
	// sent is how many entries of its view's log it was sent (-1: the
	// view was never sent whole, or has no log). Guarded by t.mu.
	sent int
}

// pushed is one message for one socket.
type pushed struct {
	s   *sock
	msg []byte
}

// writeTimeout bounds a write to a socket; a socket that takes longer
// is closed.
const writeTimeout = 10 * time.Second

// push writes each message to its socket, in order.
func push(ps []pushed) {
	for _, p := range ps {
		p.s.write(p.msg)
	}
}

func (s *sock) write(msg []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	if err := s.c.Write(ctx, websocket.MessageText, msg); err != nil {
		s.c.CloseNow()
	}
}

// updates returns an update for every socket following t. t.mu must be
// held.
func (t *table) updates() []pushed {
	ps := make([]pushed, 0, len(t.socks))
	for _, s := range t.socks {
		ps = append(ps, pushed{s, t.update(s)})
	}
	return ps
}

// update encodes s's update: the table's version, its public facts, and
// the seat's view, whole or as a tail of its log (docs/protocol.md's
// "view tails"). t.mu must be held.
func (t *table) update(s *sock) []byte {
	b := append(make([]byte, 0, 2048), `{"type":"update","update":{"version":`...)
	b = strconv.AppendInt(b, int64(t.ver), 10)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(s.seat), 10)
	b = append(b, `,"table":{"id":"`...)
	b = append(b, t.id...)
	b = append(b, `","game":"`...)
	b = append(b, t.g.Name()...)
	b = append(b, `","status":"`...)
	b = append(b, t.status()...)
	b = append(b, `","players":`...)
	p, _ := json.Marshal(t.cfg.Players)
	b = append(b, p...)
	b = append(b, `,"to_move":`...)
	if t.st != nil {
		b = appendSeats(b, t.st.ToMove())
	} else {
		b = append(b, "[]"...)
	}
	b = append(b, '}')
	if t.st != nil {
		b = t.appendView(append(b, `,"view":`...), s)
	}
	return append(b, "}}"...)
}

// appendView appends s's seat's view: a tail of its log when s takes
// tails and was sent the view before, else the view whole.
func (t *table) appendView(b []byte, s *sock) []byte {
	if tv, ok := t.st.(game.TailViewer); ok && s.tails && s.sent >= 0 {
		from := s.sent
		b, s.sent = tv.AppendViewTail(b, s.seat, from)
		b = append(b, `,"view_tail":{"`...)
		b = append(b, tv.LogName()...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(from), 10)
		return append(b, '}')
	}
	v := t.st.View(s.seat)
	s.sent = -1
	if ta, ok := v.(game.TailAppender); ok {
		s.sent = ta.LogLen()
	}
	if a, ok := v.(game.JSONAppender); ok {
		return a.AppendJSON(b)
	}
	j, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, j...)
}

// clientMsg is a message from a client.
type clientMsg struct {
	Type      string          `json:"type"`
	ID        string          `json:"id,omitempty"`
	Token     string          `json:"token"`
	Table     string          `json:"table"`
	Move      string          `json:"move"`
	Version   int             `json:"version"`
	Chat      int             `json:"chat"`
	ViewTails bool            `json:"view_tails"`
	Setup     json.RawMessage `json:"setup"`
}

// socket serves a table's WebSocket.
func (s *Server) socket(w http.ResponseWriter, r *http.Request) {
	t, err := s.tableOf(r)
	if err != nil {
		writeError(w, err)
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	c.SetReadLimit(64 << 10)
	k := &sock{c: c, sent: -1}
	defer func() {
		s.leave(k)
		c.CloseNow()
	}()
	ctx := r.Context()
	hctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	m, err := read(hctx, c)
	cancel()
	if err != nil || m.Type != "hello" || (m.Table != "" && m.Table != t.id) {
		c.Close(websocket.StatusPolicyViolation, "say hello first")
		return
	}
	if err := s.hello(k, t, m); err != nil {
		c.Close(websocket.StatusPolicyViolation, err.Error())
		return
	}
	for {
		m, err := read(ctx, c)
		if err != nil {
			return
		}
		switch m.Type {
		case "move":
			s.moveSocket(k, m)
		case "hello":
			t, err := s.lookup(m.Table)
			if err == nil {
				err = s.hello(k, t, m)
			}
			if err != nil {
				k.write(errorMsg(m.ID, err))
			}
		case "ping":
			k.write([]byte(`{"type":"pong"}`))
		default:
			k.write(errorMsg(m.ID, refuse(http.StatusBadRequest, "this server takes hello, move and ping, not %q", m.Type)))
		}
	}
}

// read reads one client message.
func read(ctx context.Context, c *websocket.Conn) (*clientMsg, error) {
	typ, b, err := c.Read(ctx)
	if err != nil {
		return nil, err
	}
	if typ != websocket.MessageText {
		return nil, errors.New("binary message")
	}
	var m clientMsg
	if err := json.Unmarshal(b, &m); err != nil {
		return &clientMsg{Type: "malformed"}, nil
	}
	return &m, nil
}

// hello attaches k to t for the seat m's token holds there (a spectator
// with none) and sends the table's first update, its view whole.
func (s *Server) hello(k *sock, t *table, m *clientMsg) error {
	seat := game.Spectator
	if m.Token != "" {
		s.mu.Lock()
		so, ok := s.seats[m.Token]
		s.mu.Unlock()
		switch {
		case !ok:
			return refuse(http.StatusUnauthorized, "a token this server never issued")
		case so.t == t:
			seat = so.seat
		}
	}
	s.leave(k)
	t.mu.Lock()
	k.t, k.seat, k.tails, k.sent = t, seat, m.ViewTails, -1
	t.socks = append(t.socks, k)
	msg := t.update(k)
	t.mu.Unlock()
	k.write(msg)
	return nil
}

// leave detaches k from the table it follows.
func (s *Server) leave(k *sock) {
	t := k.t
	if t == nil {
		return
	}
	t.mu.Lock()
	for i, x := range t.socks {
		if x == k {
			t.socks = append(t.socks[:i], t.socks[i+1:]...)
			break
		}
	}
	t.mu.Unlock()
	k.t = nil
}

// moveSocket plays a move sent on k: the ack once it is stored, then the
// updates.
func (s *Server) moveSocket(k *sock, m *clientMsg) {
	if k.seat < 0 {
		k.write(errorMsg(m.ID, refuse(http.StatusForbidden, "a spectator cannot move")))
		return
	}
	ans, version, pushes, err := s.play(k.t, k.seat, m.Move)
	if err != nil {
		k.write(errorMsg(m.ID, err))
		return
	}
	b := append(make([]byte, 0, len(ans)+64), `{"type":"ack"`...)
	if m.ID != "" {
		b = append(b, `,"id":`...)
		id, _ := json.Marshal(m.ID)
		b = append(b, id...)
	}
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, int64(version), 10)
	b = append(b, `,"result":`...)
	b = append(append(b, ans...), '}')
	k.write(b)
	push(pushes)
}

// errorMsg encodes a refusal as a socket's error message.
func errorMsg(id string, err error) []byte {
	b, _ := json.Marshal(struct {
		Type   string `json:"type"`
		ID     string `json:"id,omitempty"`
		Error  string `json:"error"`
		Status int    `json:"status"`
	}{"error", id, err.Error(), statusOf(err)})
	return b
}
