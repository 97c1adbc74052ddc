package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parlour/server/limit"
	"parlour/server/table"
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
	t.Parallel()
	f := newFixture(t)
	const bodyLimit = 300 * time.Millisecond
	srv := startServer(t, f, limit.Limits{BodyTimeout: bodyLimit})
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
	t.Logf("cut off after %v (the body's time: %v)", took.Round(time.Millisecond), bodyLimit)
	if took < bodyLimit {
		t.Errorf("cut off after %v, before the body's time of %v", took, bodyLimit)
	}

	// A request whose body came in time and that then waits (as a long
	// poll does) is not cut off: the deadline goes with the body.
	waited := make(chan error, 1)
	f.s.SetBaseURL(srv.URL)
	// The handler serves the path the API leaves to the browser client.
	hh := srv.Config.Handler.(*Handler)
	hh.ServeStatic(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		select {
		case <-time.After(3 * bodyLimit):
			waited <- nil
		case <-r.Context().Done():
			waited <- r.Context().Err()
		}
	}))
	if st, body := (&client{t: t, base: srv.URL}).do("POST", "/test/wait", `{}`, nil); st != http.StatusOK {
		t.Errorf("a request that waits after its body: %d %s", st, body)
	}
	if err := <-waited; err != nil {
		t.Errorf("a request that waits after its body was cut off: %v", err)
	}

	// Nor is an event stream, which has no body.
	var a table.Seated
	c2 := &client{t: t, base: srv.URL}
	if st, body := c2.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &a); st != http.StatusCreated {
		t.Fatalf("create: %d %s", st, body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := c2.stream(ctx, a.Table, -1)
	<-updates
	time.Sleep(3 * bodyLimit)
	if st, body := (&client{t: t, base: srv.URL}).do("POST", "/api/v1/tables/"+a.Table+"/join", `{}`, nil); st != http.StatusOK {
		t.Fatalf("join: %d %s", st, body)
	}
	select {
	case u, ok := <-updates:
		if !ok || u.Table.Seats[1].Kind != "person" {
			t.Fatalf("the stream, after %v: %+v, %v", 3*bodyLimit, u, ok)
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
	srv := startServer(t, f, limit.Limits{ConnsPerAddr: cap})
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

// TestSlowBodyAttack is the slow-body attack on the door, run against a
// server of one's choosing (it is skipped unless PARLOUR_ATTACK_URL names
// one): PARLOUR_ATTACK_CONNS connections (300) from this address each
// send the headers of a request with a 100,000-byte body, then one byte
// of it every 2 s, for PARLOUR_ATTACK_FOR (30s). Every 5 s it reports how
// many are still open and how long GET /healthz takes, asked from
// PARLOUR_ATTACK_PROBE_FROM when set (another loopback address, say
// 127.0.0.2: the attacker's own address may well be refused). For example:
//
//	ulimit -n 400; parlour serve --addr localhost:8099 --data /tmp/d &
//	PARLOUR_ATTACK_URL=http://localhost:8099 PARLOUR_ATTACK_CONNS=450 \
//	    PARLOUR_ATTACK_PROBE_FROM=127.0.0.2 go test ./server -run TestSlowBodyAttack -v
func TestSlowBodyAttack(t *testing.T) {
	// Not parallel: it loads a server outside the test and measures its
	// answers, which another test running at once would disturb.
	base := os.Getenv("PARLOUR_ATTACK_URL")
	if base == "" {
		t.Skip("set PARLOUR_ATTACK_URL to attack a server")
	}
	n, _ := strconv.Atoi(os.Getenv("PARLOUR_ATTACK_CONNS"))
	if n <= 0 {
		n = 300
	}
	dur, err := time.ParseDuration(os.Getenv("PARLOUR_ATTACK_FOR"))
	if err != nil {
		dur = 30 * time.Second
	}
	addr := strings.TrimPrefix(base, "http://")
	stop := make(chan struct{})
	var open, dialFailed atomic.Int64
	var mu sync.Mutex
	answers := map[string]int{} // how the server ended each connection
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			c, err := net.DialTimeout("tcp", addr, 5*time.Second)
			if err != nil {
				dialFailed.Add(1)
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /api/v1/identity HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", addr)
			open.Add(1)
			ended := make(chan string, 1)
			go func() {
				line, err := bufio.NewReader(c).ReadString('\n')
				if err != nil {
					ended <- "closed without an answer"
				} else {
					ended <- strings.TrimSpace(line)
				}
			}()
			tick := time.NewTicker(2 * time.Second)
			defer tick.Stop()
			for {
				select {
				case how := <-ended:
					open.Add(-1)
					mu.Lock()
					answers[how]++
					mu.Unlock()
					return
				case <-stop:
					return
				case <-tick.C:
					c.Write([]byte(" "))
				}
			}
		})
	}
	hc := &http.Client{Timeout: 5 * time.Second}
	if from := os.Getenv("PARLOUR_ATTACK_PROBE_FROM"); from != "" {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		hc.Transport = &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}
	}
	start := time.Now()
	for time.Since(start) < dur {
		time.Sleep(5 * time.Second)
		t0 := time.Now()
		res, err := hc.Get(base + "/healthz")
		health := ""
		if err != nil {
			health = "failed: " + err.Error()
		} else {
			res.Body.Close()
			health = fmt.Sprintf("%d in %v", res.StatusCode, time.Since(t0).Round(time.Millisecond))
		}
		t.Logf("after %2.0f s: %d of %d connections still open (%d dials failed); /healthz %s",
			time.Since(start).Seconds(), open.Load(), n, dialFailed.Load(), health)
	}
	close(stop)
	wg.Wait()
	t.Logf("how the server ended connections: %v", answers)
}
