//go:build unix

package server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/limit"
	"parlour/server/table"

	"github.com/coder/websocket"
)

// TestSocketSlowSeatHoldsNoOneUp: a seat's socket whose client stops
// reading holds up neither its opponent's moves over a socket (whose
// goroutine pushes each move to it: pushHeld) nor the moves over HTTP,
// though its buffers, kept small, fill within a few moves. Reading
// again, it is sent the updates it missed, in order, up to the table's
// last version, skipping those made while it was behind. Without the backlog (corkConn), the opponent's socket
// would wait writeTimeout (10 s) on the first push that found the
// buffers full, and its next ack with it.
func TestSocketSlowSeatHoldsNoOneUp(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServerOn(t, f, limit.Limits{PerIdentity: 1e4, PerIdentityBurst: 1e4}, servertest.SmallListener(t))
	hc := &client{t: t, base: srv.URL}
	a, b := guessInPlay(t, hc)

	fast := wsDial(t, srv, a.Table)
	wsSend(t, fast, fmt.Sprintf(`{"type": "hello", "token": %q}`, a.Token))
	wsReadType(t, fast, "update")
	dialer := &net.Dialer{Control: servertest.SmallBuffers}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	slow, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/v1/tables/"+a.Table+"/socket", &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}},
	})
	if err != nil {
		t.Fatal(err)
	}
	slow.SetReadLimit(1 << 20)
	t.Cleanup(func() { slow.CloseNow() })
	wsSend(t, slow, fmt.Sprintf(`{"type": "hello", "token": %q}`, b.Token))
	first := wsRead(t, slow)
	if first.Type != "update" {
		t.Fatalf("the slow seat's hello answered with %+v", first)
	}

	// The slow seat reads nothing from here; it moves over HTTP.
	hc.token = b.Token
	var last int
	const turns = 60
	for turn := range turns {
		guess := 10 + turn%40
		wsSend(t, fast, fmt.Sprintf(`{"type": "move", "move": "guess %d", "id": "m%d"}`, guess, turn))
		for {
			m, err := readMessage(fast)
			if err != nil {
				t.Fatalf("turn %d: no answer to the fast seat's move: %v", turn, err)
			}
			if m.Type == "update" {
				continue
			}
			if m.Type != "ack" || m.ID != fmt.Sprintf("m%d", turn) {
				t.Fatalf("turn %d: the fast seat's move answered %+v", turn, m)
			}
			break
		}
		var res table.MoveResult
		if st, body := hc.do("POST", "/api/v1/tables/"+a.Table+"/moves", fmt.Sprintf(`{"move": "guess %d"}`, guess), &res); st != 200 {
			t.Fatalf("turn %d: the slow seat's move over HTTP: %d %s", turn, st, body)
		}
		last = res.Version
	}
	if got := metric(t, hc, "parlour_socket_backlogs_total"); got < 1 {
		t.Errorf("parlour_socket_backlogs_total = %v: the slow seat's buffers never filled, so the test shows nothing", got)
	}

	// Reading again, the slow seat catches up, in order, skipping the
	// versions made while its connection was behind: once it was, its
	// pusher waited and then sent the latest.
	version, updates := first.Update.Version, 0
	for version < last {
		m := wsRead(t, slow)
		if m.Type != "update" || m.Update.Version <= version {
			t.Fatalf("catching up after version %d: got %+v", version, m)
		}
		version = m.Update.Version
		updates++
	}
	if versions := last - first.Update.Version; updates > versions/2 {
		t.Errorf("the slow seat was sent %d updates for %d versions: its pushes did not skip to the latest", updates, versions)
	}
	t.Logf("%d updates for %d versions", updates, last-first.Update.Version)
}
