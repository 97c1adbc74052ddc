package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestSocketMovesOn: a later hello that names a table moves an open
// socket on to it, as the seat its token holds there: its first update
// is that table's, its moves are played there, and the table it left
// sends it nothing more. A later hello that is wrong is answered with an
// error and leaves the socket where it was.
func TestSocketMovesOn(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, Limits{})
	hc := &client{t: t, base: srv.URL}
	a, b := guessInPlay(t, hc)
	hc2 := &client{t: t, base: srv.URL}
	c, d := guessInPlay(t, hc2)

	ws := wsDial(t, srv, a.Table)
	wsSend(t, ws, fmt.Sprintf(`{"type": "hello", "token": %q}`, a.Token))
	if m := wsRead(t, ws); m.Type != "update" || m.Update.Table.ID != a.Table {
		t.Fatalf("hello answered with %+v", m)
	}
	wsSend(t, ws, `{"type": "move", "move": "guess 10", "id": "m1"}`)
	if m := wsRead(t, ws); m.Type != "ack" {
		t.Fatalf("the move on the first table answered with %+v", m)
	}
	wsReadType(t, ws, "update")

	wsSend(t, ws, fmt.Sprintf(`{"type": "hello", "table": %q, "token": %q, "id": "h2"}`, c.Table, c.Token))
	m := wsRead(t, ws)
	if m.Type != "update" || m.Update.Table.ID != c.Table || m.Update.Seat != 0 {
		t.Fatalf("the hello naming the second table answered with %+v", m)
	}
	if got := metric(t, hc, "parlour_socket_follows_total"); got != 1 {
		t.Errorf("parlour_socket_follows_total = %v, want 1", got)
	}
	if got := metric(t, hc, "parlour_watchers"); got != 1 {
		t.Errorf("parlour_watchers = %v, want 1: the first table's watcher was not closed", got)
	}

	// Bad hellos: each refused, and the socket stays on the second table.
	for _, bad := range []struct {
		name, msg string
		status    int
		want      string
	}{
		{"no table", `{"type": "hello", "id": "x"}`, 400, `name it in "table"`},
		{"not an id", `{"type": "hello", "table": "../tables", "id": "x"}`, 400, `"table" must be a table's id`},
		{"no such table", `{"type": "hello", "table": "aaaaaaaaaaaaaaaa", "id": "x"}`, 404, "there is no table"},
		{"forged token", fmt.Sprintf(`{"type": "hello", "table": %q, "token": "forged", "id": "x"}`, a.Table), 401, ""},
		{"version ahead", fmt.Sprintf(`{"type": "hello", "table": %q, "version": 999, "id": "x"}`, a.Table), 400, "ahead of the table"},
	} {
		wsSend(t, ws, bad.msg)
		m := wsRead(t, ws)
		if m.Type != "error" || m.ID != "x" || m.Status != bad.status || !strings.Contains(m.Error, bad.want) {
			t.Errorf("%s: answered %+v, want a %d error saying %q", bad.name, m, bad.status, bad.want)
		}
	}
	if got := metric(t, hc, "parlour_watchers"); got != 1 {
		t.Errorf("parlour_watchers = %v after the bad hellos, want 1", got)
	}

	// The socket plays the second table's first seat now.
	wsSend(t, ws, `{"type": "move", "move": "guess 20", "id": "m2"}`)
	ack := wsRead(t, ws)
	if ack.Type != "ack" || ack.ID != "m2" {
		t.Fatalf("the move on the second table answered with %+v", ack)
	}
	if u := wsRead(t, ws); u.Type != "update" || u.Update.Table.ID != c.Table || u.Update.Version != ack.Version {
		t.Fatalf("after the ack %+v, want the second table's update at version %d, got %+v", ack, ack.Version, u)
	}
	// A move at the first table, then one at the second: the socket
	// hears of the second only.
	hc.token = b.Token
	if st, body := hc.do("POST", "/api/v1/tables/"+a.Table+"/moves", `{"move": "guess 30"}`, nil); st != 200 {
		t.Fatalf("a move at the first table: %d %s", st, body)
	}
	hc2.token = d.Token
	var res MoveResult
	if st, body := hc2.do("POST", "/api/v1/tables/"+c.Table+"/moves", `{"move": "guess 40"}`, &res); st != 200 {
		t.Fatalf("a move at the second table: %d %s", st, body)
	}
	// The update of the second table's move is pushed after the HTTP
	// answer, so wait for it by its version: anything before it must be
	// the second table's too.
	for {
		m := wsRead(t, ws)
		if m.Type != "update" || m.Update.Table.ID != c.Table {
			t.Fatalf("after moving on, the socket got %+v", m)
		}
		if m.Update.Version >= res.Version {
			break
		}
	}

	// Back to the first table as a spectator: no token, no moves.
	wsSend(t, ws, fmt.Sprintf(`{"type": "hello", "table": %q}`, a.Table))
	if m := wsRead(t, ws); m.Type != "update" || m.Update.Table.ID != a.Table || m.Update.Seat != -1 {
		t.Fatalf("the spectator's hello answered with %+v", m)
	}
	wsSend(t, ws, `{"type": "move", "move": "guess 50", "id": "m3"}`)
	if m := wsRead(t, ws); m.Type != "error" || m.Status != 401 {
		t.Fatalf("a spectator's move answered with %+v", m)
	}
	if got := metric(t, hc, "parlour_socket_follows_total"); got != 2 {
		t.Errorf("parlour_socket_follows_total = %v, want 2", got)
	}
}

// TestSocketLeavesThenMovesOn: a "leave" takes a socket off its table
// (its watcher closed, so the seat is no longer shown here) and is
// answered once nothing more of that table can come; a hello naming a
// table then moves the socket on to it. Anything but such a hello after
// leaving closes the socket.
func TestSocketLeavesThenMovesOn(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, Limits{})
	hc := &client{t: t, base: srv.URL}
	a, b := guessInPlay(t, hc)
	c, _ := guessInPlay(t, &client{t: t, base: srv.URL})

	ws := wsDial(t, srv, a.Table)
	wsSend(t, ws, fmt.Sprintf(`{"type": "hello", "token": %q}`, a.Token))
	wsReadType(t, ws, "update")
	wsSend(t, ws, `{"type": "leave", "id": "l1"}`)
	for {
		m := wsRead(t, ws)
		if m.Type == "ack" && m.ID == "l1" {
			break
		}
		if m.Type != "update" || m.Update.Table.ID != a.Table {
			t.Fatalf("before the leave's ack: %+v", m)
		}
	}
	if got := metric(t, hc, "parlour_watchers"); got != 0 {
		t.Errorf("parlour_watchers = %v after leaving, want 0", got)
	}
	// The table left goes on without the socket.
	hc.token = a.Token
	if st, body := hc.do("POST", "/api/v1/tables/"+a.Table+"/moves", `{"move": "guess 10"}`, nil); st != 200 {
		t.Fatalf("a move at the table left: %d %s", st, body)
	}
	hc.token = b.Token
	if st, body := hc.do("POST", "/api/v1/tables/"+a.Table+"/moves", `{"move": "guess 11"}`, nil); st != 200 {
		t.Fatalf("a move at the table left: %d %s", st, body)
	}
	wsSend(t, ws, fmt.Sprintf(`{"type": "hello", "table": %q, "token": %q, "id": "h"}`, c.Table, c.Token))
	if m := wsRead(t, ws); m.Type != "update" || m.Update.Table.ID != c.Table || m.Update.Seat != 0 {
		t.Fatalf("the hello after leaving answered with %+v", m)
	}
	if got := metric(t, hc, "parlour_socket_follows_total"); got != 1 {
		t.Errorf("parlour_socket_follows_total = %v, want 1", got)
	}
	wsSend(t, ws, `{"type": "move", "move": "guess 12", "id": "m"}`)
	if m := wsReadType(t, ws, "ack"); m.ID != "m" {
		t.Fatalf("a move at the table moved on to answered %+v", m)
	}

	// Leaving, then anything but a hello naming a table.
	for _, bad := range []struct{ name, msg, want string }{
		{"a move", `{"type": "move", "move": "guess 13", "id": "x"}`, `the first message must be a "hello"`},
		{"a hello naming no table", `{"type": "hello", "id": "x"}`, `hello was already said: to follow another table, name it in "table"`},
		{"no such table", `{"type": "hello", "table": "aaaaaaaaaaaaaaaa", "id": "x"}`, "there is no table"},
	} {
		ws := wsDial(t, srv, c.Table)
		wsSend(t, ws, `{"type": "hello"}`)
		wsReadType(t, ws, "update")
		wsSend(t, ws, `{"type": "leave", "id": "l"}`)
		wsReadType(t, ws, "ack")
		wsSend(t, ws, bad.msg)
		m := wsRead(t, ws)
		if m.Type != "error" || m.ID != "x" || !strings.Contains(m.Error, bad.want) {
			t.Errorf("%s after leaving: answered %+v, want an error saying %q", bad.name, m, bad.want)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _, err := ws.Read(ctx)
		cancel()
		if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
			t.Errorf("%s after leaving: the socket went on (%v), want it closed", bad.name, err)
		}
	}
}

// TestSocketFirstHelloNamesItsTable: a first hello may name the socket's
// table, and no other.
func TestSocketFirstHelloNamesItsTable(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, Limits{})
	hc := &client{t: t, base: srv.URL}
	a, _ := guessInPlay(t, hc)
	c, _ := guessInPlay(t, &client{t: t, base: srv.URL})

	ws := wsDial(t, srv, a.Table)
	wsSend(t, ws, fmt.Sprintf(`{"type": "hello", "table": %q}`, a.Table))
	if m := wsRead(t, ws); m.Type != "update" || m.Update.Table.ID != a.Table {
		t.Fatalf("a hello naming the socket's table answered with %+v", m)
	}

	ws = wsDial(t, srv, a.Table)
	wsSend(t, ws, fmt.Sprintf(`{"type": "hello", "table": %q}`, c.Table))
	want := fmt.Sprintf("the hello names table %s, but the socket was opened onto %s", c.Table, a.Table)
	if m := wsRead(t, ws); m.Type != "error" || m.Status != 400 || m.Error != want {
		t.Fatalf("a hello naming another table answered with %+v", m)
	}
	wsClosed(t, ws, websocket.StatusPolicyViolation, want)
}

// TestSocketMovesOnUnderPlay moves a seat's socket back and forth
// between two tables forty times while both tables are played, each by
// one seat over HTTP and the other over a socket whose moves push to
// the seats' sockets themselves (pushHeld): every hello is followed by
// its table's first update, every move is acknowledged, and in the end
// the socket is on the table it was last sent to, with one watcher. Run
// it with -race.
func TestSocketMovesOnUnderPlay(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, Limits{})
	hc, hc2 := &client{t: t, base: srv.URL}, &client{t: t, base: srv.URL}
	a, b := guessInPlay(t, hc)
	c, d := guessInPlay(t, hc2)

	hello := func(table, token string) *websocket.Conn {
		ws := wsDial(t, srv, table)
		wsSend(t, ws, fmt.Sprintf(`{"type": "hello", "token": %q}`, token))
		if m := wsRead(t, ws); m.Type != "update" {
			t.Fatalf("hello answered with %+v", m)
		}
		return ws
	}
	mover := hello(a.Table, a.Token)
	// play plays n turns at table: the first seat's over HTTP, the
	// second's on its socket.
	play := func(table string, first Seated, second *websocket.Conn, n int) error {
		for i := range n {
			req, _ := http.NewRequest("POST", srv.URL+"/api/v1/tables/"+table+"/moves", strings.NewReader(fmt.Sprintf(`{"move": "guess %d"}`, 10+i%40)))
			req.Header.Set("Authorization", "Bearer "+first.Token)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				return fmt.Errorf("turn %d over HTTP: %d %s", i, res.StatusCode, body)
			}
			msg := fmt.Sprintf(`{"type": "move", "move": "guess %d", "id": "t%d"}`, 10+i%40, i)
			if err := second.Write(context.Background(), websocket.MessageText, []byte(msg)); err != nil {
				return err
			}
			for {
				m, err := readMessage(second)
				if err != nil {
					return fmt.Errorf("turn %d on the socket: %w", i, err)
				}
				if m.Type == "error" {
					return fmt.Errorf("turn %d on the socket: %s", i, m.Error)
				}
				if m.Type == "ack" {
					break
				}
			}
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, p := range []struct {
		table  string
		first  Seated
		second *websocket.Conn
	}{{a.Table, a, hello(a.Table, b.Token)}, {c.Table, c, hello(c.Table, d.Token)}} {
		wg.Go(func() { errs[i] = play(p.table, p.first, p.second, 30) })
	}

	on := a.Table
	for i := range 40 {
		to, tok := c.Table, c.Token
		if on == c.Table {
			to, tok = a.Table, a.Token
		}
		wsSend(t, mover, fmt.Sprintf(`{"type": "hello", "table": %q, "token": %q, "view_tails": true}`, to, tok))
		for {
			m := wsRead(t, mover)
			if m.Type != "update" {
				t.Fatalf("move %d on to %s: got %+v", i, to, m)
			}
			if m.Update.Table.ID == to {
				break
			}
			if m.Update.Table.ID != on {
				t.Fatalf("move %d on to %s: an update of %s", i, to, m.Update.Table.ID)
			}
		}
		on = to
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	wsSend(t, mover, `{"type": "ping"}`)
	for {
		m := wsRead(t, mover)
		if m.Type == "pong" {
			break
		}
		if m.Type != "update" || m.Update.Table.ID != on {
			t.Fatalf("after the last move on, to %s: got %+v", on, m)
		}
	}
	if got := metric(t, hc, "parlour_watchers"); got != 3 {
		t.Errorf("parlour_watchers = %v, want 3 (the mover's and the two players')", got)
	}
	if got := metric(t, hc, "parlour_socket_follows_total"); got != 40 {
		t.Errorf("parlour_socket_follows_total = %v, want 40", got)
	}
}
