package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/server/httpapi"
	"parlour/server/internal/servertest"
	"parlour/server/limit"
	"parlour/server/socket"
	"parlour/server/table"
)

// TestSocketCloses checks that a socket the server gives up on is closed
// with a close frame whose code and reason a client sees: policy violation
// when no hello comes in time, unsupported data for a binary message
// (as the hello or after it).
func TestSocketCloses(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	h := newHandler(f.s, limit.Limits{}, func(c *httpapi.Config) { c.HelloWait = 200 * time.Millisecond })
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.CloseSockets("test over")
		srv.Close()
	})
	hc := &client{t: t, base: srv.URL}
	var a table.Seated
	hc.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &a)

	for _, c := range []struct {
		name   string
		send   func(*websocket.Conn)
		code   websocket.StatusCode
		reason string
	}{
		{"silent", func(*websocket.Conn) {}, websocket.StatusPolicyViolation, "no hello within 10 seconds: say hello first"},
		{"binary hello", func(c *websocket.Conn) {
			c.Write(context.Background(), websocket.MessageBinary, []byte(`{"type": "hello"}`))
		}, websocket.StatusUnsupportedData, "binary messages are not accepted: send JSON as text"},
		{"binary after hello", func(c *websocket.Conn) {
			wsSend(t, c, `{"type": "hello"}`)
			if m := wsRead(t, c); m.Type != "update" {
				t.Fatalf("hello answered with %+v", m)
			}
			c.Write(context.Background(), websocket.MessageBinary, []byte(`{"type": "ping"}`))
		}, websocket.StatusUnsupportedData, "binary messages are not accepted: send JSON as text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := wsDial(t, srv, a.Table)
			c.send(ws)
			wsClosed(t, ws, c.code, c.reason)
		})
	}
}

// TestSocketUpdateEncodedOncePerView checks that a change pushed to many
// sockets is encoded once per view: every spectator gets the same bytes,
// every socket of one seat the same bytes, and the server encodes one
// update per view, not one per socket.
func TestSocketUpdateEncodedOncePerView(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
	hc := &client{t: t, base: srv.URL}
	a, _ := guessInPlay(t, hc)
	const spectators, seated = 6, 3
	type sock struct {
		c    *websocket.Conn
		view string
	}
	var socks []sock
	for i := 0; i < spectators+seated; i++ {
		c := wsDial(t, srv, a.Table)
		view := "spectator"
		if i < seated {
			view = "seat 0"
			wsSend(t, c, fmt.Sprintf(`{"type": "hello", "token": %q}`, a.Token))
		} else {
			wsSend(t, c, `{"type": "hello"}`)
		}
		socks = append(socks, sock{c, view})
	}
	read := func(c *websocket.Conn) []byte {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	encoded := func() float64 { return metric(t, hc, "parlour_socket_updates_encoded_total") }
	// pushes reads one message from every socket and checks that the
	// sockets of one view got the same bytes, when same, and that the
	// views differ. The first update is each socket's own, made as it
	// says hello: a seat away then carries claim_in, the seconds left
	// as that socket's update was made, which two sockets may see a
	// moment apart.
	pushes := func(what string, same bool) {
		t.Helper()
		got := map[string][]byte{}
		for _, s := range socks {
			m := read(s.c)
			if !bytes.HasPrefix(m, []byte(`{"type":"update"`)) {
				t.Fatalf("%s: %s got %s, want an update", what, s.view, m)
			}
			if prev, ok := got[s.view]; ok && same && !bytes.Equal(prev, m) {
				t.Fatalf("%s: two %s sockets got different updates:\n%s\n%s", what, s.view, prev, m)
			}
			got[s.view] = m
		}
		if bytes.Equal(got["spectator"], got["seat 0"]) {
			t.Fatalf("%s: a spectator got the seat's update %s", what, got["seat 0"])
		}
	}
	pushes("first update", false)
	before, shared := encoded(), metric(t, hc, "parlour_socket_updates_shared_total")
	hc.token = a.Token
	if st, body := hc.do("POST", "/api/v1/tables/"+a.Table+"/moves", `{"move": "guess 10"}`, nil); st != 200 {
		t.Fatalf("move: %d %s", st, body)
	}
	pushes("after the move", true)
	if n := encoded() - before; n != 2 {
		t.Fatalf("the move's update was encoded %v times for %d sockets of 2 views, want 2", n, len(socks))
	}
	if n := metric(t, hc, "parlour_socket_updates_shared_total") - shared; n != float64(len(socks)-2) {
		t.Fatalf("%v of the move's updates sent from a shared encoding, want %d", n, len(socks)-2)
	}
}

// metric reads one counter from GET /metrics.
func metric(t *testing.T, hc *client, name string) float64 {
	t.Helper()
	_, body := hc.do("GET", "/metrics", nil, nil)
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /metrics", name)
	return 0
}

// TestSocketWokenAroundItsMoves: a socket that plays a move gets its ack
// and one update showing it, and nothing more for it (its pusher is not
// woken by its own move); every change made after, by the other seat or
// in chat, and after a move of its own was refused, still reaches it.
func TestSocketWokenAroundItsMoves(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
	hc := &client{t: t, base: srv.URL}
	a, b := guessInPlay(t, hc)
	c := wsDial(t, srv, a.Table)
	wsSend(t, c, fmt.Sprintf(`{"type": "hello", "token": %q}`, a.Token))
	if m := wsRead(t, c); m.Type != "update" {
		t.Fatalf("first message %+v, want an update", m)
	}
	// next reads the socket's next message, which must be of type typ;
	// quiet checks that nothing is queued: a ping's pong comes next.
	next := func(what, typ string) socket.ServerMessage {
		t.Helper()
		m := wsRead(t, c)
		if m.Type != typ {
			t.Fatalf("%s: got %+v, want %s", what, m, typ)
		}
		return m
	}
	quiet := func(what string) {
		t.Helper()
		wsSend(t, c, `{"type": "ping", "id": "p"}`)
		next(what+", then a ping", "pong")
	}
	version := func(m socket.ServerMessage) int {
		if m.Update == nil {
			t.Fatalf("an update with no update: %+v", m)
		}
		return m.Update.Version
	}
	hc.token = b.Token
	for turn := range 3 {
		// Seat 0 moves over the socket: an ack, then the update showing
		// the move, and nothing more.
		wsSend(t, c, fmt.Sprintf(`{"type": "move", "move": "guess %d", "id": "m%d"}`, 10+turn, turn))
		ack := next("own move", "ack")
		if u := next("own move's update", "update"); version(u) != ack.Version {
			t.Fatalf("turn %d: the update after the ack is at version %d, the ack %d", turn, version(u), ack.Version)
		}
		quiet(fmt.Sprintf("turn %d: own move", turn))
		// The other seat moves over HTTP: the socket is told.
		var res table.MoveResult
		if st, body := hc.do("POST", "/api/v1/tables/"+a.Table+"/moves", fmt.Sprintf(`{"move": "guess %d"}`, 20+turn), &res); st != 200 {
			t.Fatalf("seat 1's move: %d %s", st, body)
		}
		if u := next("the other seat's move", "update"); version(u) != res.Version {
			t.Fatalf("turn %d: pushed version %d, the other seat's move made %d", turn, version(u), res.Version)
		}
		// A refused move of its own, then a chat line by the other seat.
		wsSend(t, c, `{"type": "move", "move": "guess many", "id": "bad"}`)
		if e := next("a refused move", "error"); e.ID != "bad" || e.Status != http.StatusUnprocessableEntity {
			t.Fatalf("turn %d: refused move answered %+v", turn, e)
		}
		if st, body := hc.do("POST", "/api/v1/tables/"+a.Table+"/chat", fmt.Sprintf(`{"channel": "players", "text": "line %d"}`, turn), nil); st != http.StatusCreated {
			t.Fatalf("chat: %d %s", st, body)
		}
		if u := next("a chat line after a refused move", "update"); len(u.Update.Chat) == 0 || u.Update.Chat[len(u.Update.Chat)-1].Text != fmt.Sprintf("line %d", turn) {
			t.Fatalf("turn %d: the update after the chat line holds %+v", turn, u.Update.Chat)
		}
		quiet(fmt.Sprintf("turn %d: chat", turn))
	}
}

// TestSocketMovePushesToSeats: a move played over a socket is pushed to
// the other seat's socket by the mover's socket itself, once its own ack
// and update are written, with no goroutine started for it; each
// spectator's socket still gets a pusher of its own. Either way every
// socket is sent the move.
func TestSocketMovePushesToSeats(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
	hc := &client{t: t, base: srv.URL}
	a, b := guessInPlay(t, hc)
	open := func(token string) *websocket.Conn {
		t.Helper()
		c := wsDial(t, srv, a.Table)
		if token == "" {
			wsSend(t, c, `{"type": "hello"}`)
		} else {
			wsSend(t, c, fmt.Sprintf(`{"type": "hello", "token": %q}`, token))
		}
		if m := wsRead(t, c); m.Type != "update" {
			t.Fatalf("hello answered with %+v", m)
		}
		return c
	}
	seats := []*websocket.Conn{open(a.Token), open(b.Token)}
	// The second seat's arrival is pushed to the first at once.
	if u := wsRead(t, seats[0]); u.Type != "update" || u.Update.Table.Seats[1].Connected == nil || !*u.Update.Table.Seats[1].Connected {
		t.Fatalf("the other seat's arrival pushed %+v", u)
	}
	spectators := []*websocket.Conn{open(""), open("")}
	counts := func() (started, held float64) {
		return metric(t, hc, "parlour_socket_pushers_started_total"), metric(t, hc, "parlour_socket_pushes_held_total")
	}
	for turn := range 4 {
		mover, other := seats[turn%2], seats[1-turn%2]
		// The pushes of the last change (a socket's arrival, the last
		// move) are over: a pusher still on its way out would take this
		// move's push rather than a new one be started or held.
		servertest.Eventually(t, 5*time.Second, "the last pushes to end", func() bool {
			return metric(t, hc, "parlour_socket_pushes_pending") == 0
		})
		started, held := counts()
		wsSend(t, mover, fmt.Sprintf(`{"type": "move", "move": "guess %d", "id": "m%d"}`, 10+turn, turn))
		ack := wsRead(t, mover)
		if ack.Type != "ack" {
			t.Fatalf("turn %d: the move answered with %+v", turn, ack)
		}
		if u := wsRead(t, mover); u.Type != "update" || u.Update.Version != ack.Version {
			t.Fatalf("turn %d: after the ack %+v, want the update at version %d", turn, u, ack.Version)
		}
		for i, c := range append([]*websocket.Conn{other}, spectators...) {
			if u := wsRead(t, c); u.Type != "update" || u.Update.Version != ack.Version {
				t.Fatalf("turn %d: socket %d (0 the other seat's) got %+v, want the update at version %d", turn, i, u, ack.Version)
			}
		}
		s, h := counts()
		if h-held != 1 {
			t.Errorf("turn %d: %v pushes run by the mover, want 1 (the other seat's)", turn, h-held)
		}
		if s-started != float64(len(spectators)) {
			t.Errorf("turn %d: %v pushers started, want %d (the spectators')", turn, s-started, len(spectators))
		}
	}
}

// guessInPlay makes a two-seat guess table through hc, joined and with
// both setups given, and returns its two seats.
func guessInPlay(t *testing.T, hc *client) (a, b table.Seated) {
	t.Helper()
	return inPlay(t, hc, "guess")
}

// inPlay is guessInPlay for the test game named game (guess or
// tailguess).
func inPlay(t *testing.T, hc *client, game string) (a, b table.Seated) {
	t.Helper()
	hc.do("POST", "/api/v1/tables", `{"game": "`+game+`", "seats": ["me", "open"]}`, &a)
	hc.do("POST", "/api/v1/tables/"+a.Table+"/join", `{}`, &b)
	for _, tok := range []string{a.Token, b.Token} {
		hc.token = tok
		if st, body := hc.do("POST", "/api/v1/tables/"+a.Table+"/setup", `{"setup": {"number": 50}}`, nil); st != 200 {
			t.Fatalf("setup: %d %s", st, body)
		}
	}
	return a, b
}

// TestSocketViewTails: a socket that asks for view tails in its hello is
// sent a seat's view whole first, and from then on only the new entries
// of the view's log, each update saying where its entries start; put
// back together, the views are those a socket that did not ask is sent
// whole. Sockets that asked share the encodings of their view (but for
// what depends on the time it was encoded, as a seat's claim countdown:
// an encoding is shared for a moment, and on a loaded machine the second
// socket may come after it). A state may encode the tails itself
// (tailguess) or leave them to its views (guess). An update that only
// says who came or went (a socket's own seat connecting) keeps the
// version, may come between two others to a socket that opened before
// it, and is passed over.
func TestSocketViewTails(t *testing.T) {
	t.Parallel()
	for _, g := range []string{"guess", "tailguess"} {
		t.Run(g, func(t *testing.T) { testSocketViewTails(t, g) })
	}
}

func testSocketViewTails(t *testing.T, gameName string) {
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
	hc := &client{t: t, base: srv.URL}
	a, b := inPlay(t, hc, gameName)
	hello := func(tok string, tails bool) *websocket.Conn {
		c := wsDial(t, srv, a.Table)
		m := map[string]any{"type": "hello", "view_tails": tails}
		if tok != "" {
			m["token"] = tok
		}
		j, _ := json.Marshal(m)
		wsSend(t, c, string(j))
		return c
	}
	type socket struct {
		name    string
		c       *websocket.Conn
		tails   bool
		whole   map[string]any // the view put back together
		raw     []byte
		version int // of the last update read
	}
	socks := []*socket{
		{name: "seat 0, tails", c: hello(a.Token, true), tails: true},
		{name: "seat 0, tails again", c: hello(a.Token, true), tails: true},
		{name: "seat 0, whole", c: hello(a.Token, false)},
		{name: "spectator, tails", c: hello("", true), tails: true},
		{name: "spectator, whole", c: hello("", false)},
	}
	read := func(s *socket, first bool) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		type message struct {
			Type   string `json:"type"`
			Update struct {
				Version  int            `json:"version"`
				View     map[string]any `json:"view"`
				ViewTail map[string]int `json:"view_tail"`
			} `json:"update"`
		}
		var raw []byte
		var m message
		for {
			var err error
			if _, raw, err = s.c.Read(ctx); err != nil {
				t.Fatal(err)
			}
			m = message{}
			if err := json.Unmarshal(raw, &m); err != nil || m.Type != "update" {
				t.Fatalf("%s: %v in %s", s.name, err, raw)
			}
			if first || m.Update.Version > s.version {
				break
			}
			if len(logOf(m.Update.View)) > 0 {
				t.Fatalf("%s: an update of version %d, read already, adds to the view's log: %s", s.name, s.version, raw)
			}
		}
		s.version = m.Update.Version
		u := m.Update
		switch {
		case (first || !s.tails) && u.ViewTail != nil:
			t.Fatalf("%s: got a tail %v, want the view whole: %s", s.name, u.ViewTail, raw)
		case !first && s.tails && u.ViewTail["tried"] != len(logOf(s.whole)):
			t.Fatalf("%s: the tail is %v, want it to start at %d: %s", s.name, u.ViewTail, len(logOf(s.whole)), raw)
		}
		if u.ViewTail != nil {
			u.View["tried"] = append(logOf(s.whole), logOf(u.View)...)
		}
		if len(logOf(u.View)) == 0 {
			delete(u.View, "tried")
		}
		s.whole, s.raw = u.View, raw
	}
	check := func(what string, first bool) {
		t.Helper()
		for _, s := range socks {
			read(s, first)
		}
		for i := 1; i < len(socks); i++ {
			s, o := socks[i], socks[0]
			if s.name[:4] == "spec" {
				o = socks[3]
			}
			if !reflect.DeepEqual(s.whole, o.whole) {
				t.Fatalf("%s: %s put together %v, %s %v", what, s.name, s.whole, o.name, o.whole)
			}
		}
		if claimIn := regexp.MustCompile(`"claim_in":[0-9.e+-]+`); !bytes.Equal(claimIn.ReplaceAll(socks[0].raw, nil), claimIn.ReplaceAll(socks[1].raw, nil)) {
			t.Fatalf("%s: two sockets of one view with tails got different bytes:\n%s\n%s", what, socks[0].raw, socks[1].raw)
		}
	}
	check("the first update", true)
	for turn := range 3 {
		for i, tok := range []string{a.Token, b.Token} {
			hc.token = tok
			if st, body := hc.do("POST", "/api/v1/tables/"+a.Table+"/moves", fmt.Sprintf(`{"move": "guess %d"}`, 10+turn), nil); st != 200 {
				t.Fatalf("move: %d %s", st, body)
			}
			check(fmt.Sprintf("turn %d, seat %d", turn, i), false)
		}
	}
	if n := len(logOf(socks[0].whole)); n != 3 {
		t.Fatalf("seat 0's view put together holds %d guesses, want 3: %v", n, socks[0].whole)
	}
}

// logOf returns a guess view's log.
func logOf(view map[string]any) []any {
	l, _ := view["tried"].([]any)
	return l
}

// TestSocketEnds checks the closes that come from the server's side
// rather than the client's: the server shutting down, and the table
// leaving this server (as when another node of a cluster takes it over),
// which the socket's pusher meets when it looks for the next update.
func TestSocketEnds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		end    func(f *fixture, table string)
		reason string
	}{
		{"server shuts down", func(f *fixture, _ string) { f.s.Close() }, "the server is shutting down"},
		{"table moves", func(f *fixture, id string) {
			// As when another node takes the table over: the copy here
			// is dropped, and its watchers end.
			f.s.Drop(id)
		}, "the table has moved to another server: connect again"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			srv := startServer(t, f, limit.Limits{})
			hc := &client{t: t, base: srv.URL}
			a, _ := guessInPlay(t, hc)
			ws := wsDial(t, srv, a.Table)
			wsSend(t, ws, `{"type": "hello"}`)
			if m := wsRead(t, ws); m.Type != "update" {
				t.Fatalf("hello answered with %+v", m)
			}
			c.end(f, a.Table)
			wsClosed(t, ws, websocket.StatusGoingAway, c.reason)
		})
	}
}

// wsClosed checks that the next thing c reads is a close frame with code
// and reason.
func wsClosed(t *testing.T, c *websocket.Conn, code websocket.StatusCode, reason string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, b, err := c.Read(ctx)
	var ce websocket.CloseError
	if !errors.As(err, &ce) {
		t.Fatalf("read %q, %v: want a close frame", b, err)
	}
	if ce.Code != code || ce.Reason != reason {
		t.Fatalf("closed with %v %q, want %v %q", ce.Code, ce.Reason, code, reason)
	}
}

// TestSocketIdleGoroutines checks that an open socket keeps one goroutine
// on the server while nothing happens (its reader), not a second waiting
// to push: the collector scans every goroutine's stack, and thousands
// of idle pushers made its work several times larger. The pushers start
// when the table changes, and each socket still gets the update.
func TestSocketIdleGoroutines(t *testing.T) {
	// Not parallel: it counts the goroutines of the whole process.
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
	hc := &client{t: t, base: srv.URL}
	a, _ := guessInPlay(t, hc)
	const n = 40
	// grown waits for the goroutines of finished work to end, and returns
	// how many goroutines were added since before: at most want, or more
	// if they do not end within a few seconds.
	before := runtime.NumGoroutine()
	grown := func(want int) int {
		deadline := time.Now().Add(5 * time.Second)
		for {
			got := runtime.NumGoroutine() - before
			if got <= want || time.Now().After(deadline) {
				return got
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	socks := make([]*websocket.Conn, n)
	for i := range socks {
		socks[i] = wsDial(t, srv, a.Table)
		wsSend(t, socks[i], `{"type": "hello"}`)
		if m := wsRead(t, socks[i]); m.Type != "update" {
			t.Fatalf("hello answered with %+v", m)
		}
	}
	// The client side of each socket in this process has no goroutine
	// while nobody reads it; n sockets need n goroutines on the server.
	if grew := grown(n + n/4); grew > n+n/4 {
		t.Fatalf("%d idle sockets added %d goroutines: want about one each", n, grew)
	}
	hc.token = a.Token
	var res table.MoveResult
	if st, body := hc.do("POST", "/api/v1/tables/"+a.Table+"/moves", `{"move": "guess 50"}`, &res); st != 200 {
		t.Fatalf("move: %d %s", st, body)
	}
	for i, ws := range socks {
		if m := wsReadType(t, ws, "update"); m.Update == nil || m.Update.Version != res.Version {
			t.Fatalf("socket %d: update %+v, want version %d", i, m.Update, res.Version)
		}
	}
	if grew := grown(n + n/4); grew > n+n/4 {
		t.Fatalf("after a move, %d idle sockets hold %d goroutines: want the pushers gone", n, grew)
	}
}

// TestSocketMovesOn: a later hello that names a table moves an open
// socket on to it, as the seat its token holds there: its first update
// is that table's, its moves are played there, and the table it left
// sends it nothing more. A later hello that is wrong is answered with an
// error and leaves the socket where it was.
func TestSocketMovesOn(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, limit.Limits{})
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
	var res table.MoveResult
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
	srv := startServer(t, f, limit.Limits{})
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
	srv := startServer(t, f, limit.Limits{})
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
	srv := startServer(t, f, limit.Limits{})
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
	play := func(table string, first table.Seated, second *websocket.Conn, n int) error {
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
		first  table.Seated
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
