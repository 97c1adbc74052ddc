package loadtest

// The HTTP door of the load test: a move is one request on a kept-alive
// connection, written and read by hand (see moveConn).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// dialPools opens the connections the moves go on, t.conns spread evenly
// over the nodes, and makes one request on each: one pool a node. The
// pools are returned even with an error, for closePools.
func (t *tester) dialPools(ctx context.Context) ([]chan *moveConn, error) {
	per := (t.conns + len(t.nodes) - 1) / len(t.nodes)
	pools := make([]chan *moveConn, len(t.nodes))
	var warming sync.WaitGroup
	var dialErr atomic.Pointer[error] // the first; errors differ in type, so no atomic.Value
	for i, n := range t.nodes {
		pools[i] = make(chan *moveConn, per)
		for range per {
			c := t.newConn(i)
			pools[i] <- c
			warming.Go(func() {
				if err := c.healthz(ctx); err != nil {
					err = fmt.Errorf("%s: %w", n.base, err)
					dialErr.CompareAndSwap(nil, &err)
				}
			})
		}
	}
	warming.Wait()
	if err := dialErr.Load(); err != nil {
		return pools, fmt.Errorf("connecting: %w (above about 120 connections, start the server with a --conns-per-addr to match)", *err)
	}
	return pools, nil
}

// newConn returns a connection to node i, not yet dialled.
func (t *tester) newConn(i int) *moveConn {
	return &moveConn{addr: t.nodes[i].addr, host: t.nodes[i].host}
}

// closePools closes every connection of pools.
func closePools(pools []chan *moveConn) {
	for _, p := range pools {
		close(p)
		for c := range p {
			c.close()
		}
	}
}

// moveConn is one kept-alive HTTP/1.1 connection that scripted players send
// their moves on. The request is written by hand and the answer read by a
// small parser rather than by net/http's client, whose two goroutines per
// connection and many allocations per request cost the tool far more CPU:
// on a machine the tool shares with the server, that cost would show in
// the latencies it measures. BenchmarkMoveClient measures both at 2,000
// moves a second over 8 connections, against a server in another
// process: over 16 interleaved runs on a busy 2-processor machine (load
// average 9 to 17), a median of 68 µs of the tool's CPU a move here
// against 119 µs with net/http's client (43% less; less in every one of
// the 16 pairs of runs, from 10% to 53%), and 3 allocations (65 bytes) a
// move against 74 (6 KB).
type moveConn struct {
	addr string // host:port
	host string // the Host header
	c    net.Conn
	r    *bufio.Reader
	req  []byte
	body []byte
}

func (c *moveConn) dial(ctx context.Context) error {
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return err
	}
	c.c, c.r = conn, bufio.NewReaderSize(conn, 4096)
	return nil
}

func (c *moveConn) close() {
	if c.c != nil {
		c.c.Close()
		c.c = nil
	}
}

// healthz asks for GET /healthz, dialling first if need be.
func (c *moveConn) healthz(ctx context.Context) error {
	if c.c == nil {
		if err := c.dial(ctx); err != nil {
			return err
		}
	}
	c.req = append(append(append(c.req[:0], "GET /healthz HTTP/1.1\r\nHost: "...), c.host...), "\r\n\r\n"...)
	if err := c.c.SetDeadline(deadline(ctx)); err != nil {
		return err
	}
	if _, err := c.c.Write(c.req); err != nil {
		return err
	}
	st, _, err := c.readResponse()
	if err == nil && st != http.StatusOK {
		err = fmt.Errorf("GET /healthz: %d", st)
	}
	return err
}

// move posts move (digits only, as the scripted players' calls are) for
// the seat that token holds at table id, and returns the answer's status
// and body. The body is valid until the next call.
func (c *moveConn) move(ctx context.Context, id, token, move string) (int, []byte, error) {
	if c.c == nil {
		if err := c.dial(ctx); err != nil {
			return 0, nil, err
		}
	}
	const body1, body2 = `{"move":"`, `"}`
	b := append(c.req[:0], "POST /api/v1/tables/"...)
	b = append(b, id...)
	b = append(b, "/moves HTTP/1.1\r\nHost: "...)
	b = append(b, c.host...)
	b = append(b, "\r\nAuthorization: Bearer "...)
	b = append(b, token...)
	b = append(b, "\r\nContent-Type: application/json\r\nContent-Length: "...)
	b = strconv.AppendInt(b, int64(len(body1)+len(move)+len(body2)), 10)
	b = append(b, "\r\n\r\n"...)
	b = append(b, body1...)
	b = append(b, move...)
	b = append(b, body2...)
	c.req = b
	if err := c.c.SetDeadline(deadline(ctx)); err != nil {
		return 0, nil, err
	}
	if _, err := c.c.Write(b); err != nil {
		return 0, nil, err
	}
	return c.readResponse()
}

// deadline is when a request on a moveConn gives up: in 30 seconds, or
// at ctx's deadline if that is sooner.
func deadline(ctx context.Context) time.Time {
	d := time.Now().Add(30 * time.Second)
	if cd, ok := ctx.Deadline(); ok && cd.Before(d) {
		return cd
	}
	return d
}

// readResponse reads one HTTP/1.1 answer: the status line, the headers
// it needs (Content-Length, Transfer-Encoding, Connection), and the body.
func (c *moveConn) readResponse() (int, []byte, error) {
	line, err := c.r.ReadSlice('\n')
	if err != nil {
		return 0, nil, fmt.Errorf("reading the answer: %w", err)
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return 0, nil, fmt.Errorf("malformed status line %q", bytes.TrimSpace(line))
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, nil, fmt.Errorf("malformed status line %q", bytes.TrimSpace(line))
	}
	length, chunked, closing := -1, false, false
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return status, nil, fmt.Errorf("reading the answer's headers: %w", err)
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		k, v, _ := bytes.Cut(line, []byte(":"))
		v = bytes.TrimSpace(v)
		switch {
		case bytes.EqualFold(k, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(v)); err != nil || length < 0 {
				return status, nil, fmt.Errorf("malformed Content-Length %q", v)
			}
		case bytes.EqualFold(k, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(v, []byte("chunked"))
		case bytes.EqualFold(k, []byte("Connection")):
			closing = bytes.EqualFold(v, []byte("close"))
		}
	}
	switch {
	case chunked:
		c.body, err = io.ReadAll(httputil.NewChunkedReader(c.r))
	case length >= 0:
		if cap(c.body) < length {
			c.body = make([]byte, length)
		}
		c.body = c.body[:length]
		_, err = io.ReadFull(c.r, c.body)
	default:
		closing = true
		c.body, err = io.ReadAll(c.r)
	}
	if err != nil {
		return status, nil, fmt.Errorf("reading the answer's body: %w", err)
	}
	if closing {
		c.close()
	}
	return status, c.body, nil
}

// moveAnswer is what the scripted players read of an answer to a move.
type moveAnswer struct {
	Status string `json:"status"`
	ToMove []int  `json:"to_move"`
}

// parse reads the answer's "status" and "to_move". The server writes them
// ahead of the events, so they are found by scanning rather than by
// decoding every event, which would cost the tool more than the rest of
// the move; an answer of another shape is decoded in full.
func (a *moveAnswer) parse(body []byte) error {
	st, ok1 := scanField(body, `"status":"`, '"')
	tm, ok2 := scanField(body, `"to_move":[`, ']')
	if !ok1 || !ok2 {
		return json.Unmarshal(body, a)
	}
	a.Status, a.ToMove = string(st), a.ToMove[:0]
	for len(tm) > 0 {
		var f []byte
		f, tm, _ = bytes.Cut(tm, []byte(","))
		n, err := strconv.Atoi(string(bytes.TrimSpace(f)))
		if err != nil {
			return json.Unmarshal(body, a)
		}
		a.ToMove = append(a.ToMove, n)
	}
	return nil
}

// scanField returns the bytes after the first occurrence of key up to end.
func scanField(b []byte, key string, end byte) ([]byte, bool) {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return nil, false
	}
	b = b[i+len(key):]
	j := bytes.IndexByte(b, end)
	if j < 0 {
		return nil, false
	}
	return b[:j], true
}
