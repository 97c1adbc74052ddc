package server

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestSocketCloses checks that a socket the server gives up on is closed
// with a close frame whose code and reason a client sees: policy violation
// when no hello comes in time, unsupported data for a binary message
// (as the hello or after it).
func TestSocketCloses(t *testing.T) {
	f := newFixture(t)
	h := NewHandler(f.s, Limits{})
	h.helloWait = 200 * time.Millisecond
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.CloseSockets("test over")
		srv.Close()
	})
	hc := &client{t: t, base: srv.URL}
	var a Seated
	hc.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &a)

	for _, c := range []struct {
		name   string
		send   func(*websocket.Conn)
		code   websocket.StatusCode
		reason string
	}{
		{"silent", func(*websocket.Conn) {}, websocket.StatusPolicyViolation, reasonNoHello},
		{"binary hello", func(c *websocket.Conn) {
			c.Write(context.Background(), websocket.MessageBinary, []byte(`{"type": "hello"}`))
		}, websocket.StatusUnsupportedData, reasonBinary},
		{"binary after hello", func(c *websocket.Conn) {
			wsSend(t, c, `{"type": "hello"}`)
			if m := wsRead(t, c); m.Type != "update" {
				t.Fatalf("hello answered with %+v", m)
			}
			c.Write(context.Background(), websocket.MessageBinary, []byte(`{"type": "ping"}`))
		}, websocket.StatusUnsupportedData, reasonBinary},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := wsDial(t, srv, a.Table)
			c.send(ws)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, b, err := ws.Read(ctx)
			var ce websocket.CloseError
			if !errors.As(err, &ce) {
				t.Fatalf("read %q, %v: want a close frame", b, err)
			}
			if ce.Code != c.code || ce.Reason != c.reason {
				t.Fatalf("closed with %v %q, want %v %q", ce.Code, ce.Reason, c.code, c.reason)
			}
		})
	}
}
