package server

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/server/internal/servertest"
	"parlour/server/table"
)

// TestStreamCaps: event streams, player streams and WebSockets each hold
// a file descriptor for as long as they are open; one address holds at
// most StreamsPerAddr of them and everybody together at most Streams,
// and a place comes back when its stream closes.
func TestStreamCaps(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	lim := generous
	lim.Streams, lim.StreamsPerAddr = 3, 2
	lim.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	srv := startServer(t, f, lim)
	ann := &client{t: t, base: srv.URL}
	var sa table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Ann"}, &sa); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// follow opens the table's event stream from addr and answers its
	// status, and a function that closes it.
	follow := func(addr string) (int, func()) {
		sctx, stop := context.WithCancel(ctx)
		req, _ := http.NewRequestWithContext(sctx, "GET", srv.URL+"/api/v1/tables/"+sa.Table+"/events", nil)
		req.Header.Set("X-Forwarded-For", addr)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != 200 {
			res.Body.Close()
		}
		return res.StatusCode, func() { stop(); res.Body.Close() }
	}
	st1, close1 := follow("203.0.113.1")
	st2, _ := follow("203.0.113.1")
	st3, _ := follow("203.0.113.1")
	if st1 != 200 || st2 != 200 || st3 != 429 {
		t.Fatalf("three streams from one address: %d %d %d, want 200 200 429", st1, st2, st3)
	}
	// A WebSocket counts alike: refused before the upgrade.
	hd := http.Header{"X-Forwarded-For": {"203.0.113.1"}}
	_, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/v1/tables/"+sa.Table+"/socket", &websocket.DialOptions{HTTPHeader: hd})
	if err == nil || res == nil || res.StatusCode != 429 {
		t.Fatalf("a socket from the full address: %v %v, want 429", err, res)
	}
	if st, _ := follow("198.51.100.7"); st != 200 {
		t.Fatalf("another address: %d", st)
	}
	if st, _ := follow("192.0.2.9"); st != 503 {
		t.Fatalf("past the total: %d, want 503", st)
	}
	close1()
	// The server sees the close when its next write fails or the request's
	// context ends: soon, not at once.
	servertest.Eventually(t, 20*time.Second, "a place after a stream closed", func() bool {
		st, _ := follow("192.0.2.9")
		return st == 200
	})
}
