package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rawConn dials srv and sends head, the start of a request.
func rawDial(t *testing.T, url, head string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSlowBodyIsCutOff trickles a body a byte at a time: the server
// answers 408 once the body's time is up and closes the connection, while
// a request that waits after its body (an event stream) is not cut off.
func TestSlowBodyIsCutOff(t *testing.T) {
	// Not parallel: it bounds the cut-off to a second of wall time after the body's.
	f := newFixture(t)
	const limit = 300 * time.Millisecond
	srv := startServer(t, f, Limits{BodyTimeout: limit})
	c := rawDial(t, srv.URL, "POST /api/v1/identity HTTP/1.1\r\nHost: parlour\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{")
	start := time.Now()
	answered := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(c) // until the server closes the connection
		answered <- string(b)
	}()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var got string
trickle:
	for {
		select {
		case got = <-answered:
			break trickle
		case <-tick.C:
			c.Write([]byte(" "))
			if time.Since(start) > 5*time.Second {
				t.Fatal("a trickled body held its connection for 5 s")
			}
		}
	}
	took := time.Since(start)
	if !strings.HasPrefix(got, "HTTP/1.1 408") || !strings.Contains(got, "took too long") {
		t.Errorf("the server answered %q", got)
	}
	if took < limit || took > limit+time.Second {
		t.Errorf("cut off after %v, want about %v", took, limit)
	}

	// A request whose body came in time and that then waits (as a long
	// poll does) is not cut off: the deadline goes with the body.
	waited := make(chan error, 1)
	f.s.cfg.BaseURL = srv.URL
	hh := srv.Config.Handler.(*Handler)
	hh.mux.HandleFunc("POST /test/wait", func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		select {
		case <-time.After(3 * limit):
			waited <- nil
		case <-r.Context().Done():
			waited <- r.Context().Err()
		}
	})
	if st, body := (&client{t: t, base: srv.URL}).do("POST", "/test/wait", `{}`, nil); st != http.StatusOK {
		t.Errorf("a request that waits after its body: %d %s", st, body)
	}
	if err := <-waited; err != nil {
		t.Errorf("a request that waits after its body was cut off: %v", err)
	}

	// Nor is an event stream, which has no body.
	var a Seated
	c2 := &client{t: t, base: srv.URL}
	if st, body := c2.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &a); st != http.StatusCreated {
		t.Fatalf("create: %d %s", st, body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := c2.stream(ctx, a.Table, -1)
	<-updates
	time.Sleep(3 * limit)
	if st, body := (&client{t: t, base: srv.URL}).do("POST", "/api/v1/tables/"+a.Table+"/join", `{}`, nil); st != http.StatusOK {
		t.Fatalf("join: %d %s", st, body)
	}
	select {
	case u, ok := <-updates:
		if !ok || u.Table.Seats[1].Kind != "person" {
			t.Fatalf("the stream, after %v: %+v, %v", 3*limit, u, ok)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the event stream went quiet")
	}
}

// TestConnsPerAddr opens more connections from one address than its cap:
// the one over is answered 429 and closed, and once one closes there is
// room again.
func TestConnsPerAddr(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const cap = 3
	srv := startServer(t, f, Limits{ConnsPerAddr: cap})
	healthz := "GET /healthz HTTP/1.1\r\nHost: parlour\r\n\r\n"
	status := func(c net.Conn) string {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			return err.Error()
		}
		return strings.TrimSpace(line)
	}
	var open []net.Conn
	for i := range cap {
		c := rawDial(t, srv.URL, healthz)
		if s := status(c); s != "HTTP/1.1 200 OK" {
			t.Fatalf("connection %d: %s", i+1, s)
		}
		open = append(open, c)
	}
	over := rawDial(t, srv.URL, healthz)
	over.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, _ := io.ReadAll(over)
	if !strings.HasPrefix(string(b), "HTTP/1.1 429") || !strings.Contains(string(b), fmt.Sprintf("at most %d at once", cap)) {
		t.Fatalf("connection %d: %q", cap+1, b)
	}
	open[0].Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c := rawDial(t, srv.URL, healthz)
		s := status(c)
		if s == "HTTP/1.1 200 OK" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after one closed: %s", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
