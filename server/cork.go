package server

import (
	"bufio"
	"net"
	"net/http"
	"sync"
	"time"
)

// corkConn is a socket's connection whose writes can be held back and
// sent together: between cork and uncork every frame the WebSocket
// library writes (it writes each message as soon as it is whole) is
// kept, and uncork sends them in one system call. A move's ack and the
// update that shows the move go out together that way, which halves the
// writes of the mover's socket.
type corkConn struct {
	net.Conn
	// pool lends the buffer the writes are kept in while corked (of
	// *[]byte; the Handler's, shared by its sockets).
	pool   *sync.Pool
	mu     sync.Mutex
	corked bool
	buf    *[]byte
	// deadline is the connection's write deadline (see armWrite).
	deadline time.Time
}

// writeTimeout is the least time a write to a socket's connection is
// given to be taken, before the socket is dropped.
const writeTimeout = 10 * time.Second

// armWrite makes sure the connection's write deadline is at least
// writeTimeout away. Setting a deadline costs a timer change in the
// runtime, twice a write if it were set and cleared around each; moved
// a second further than needed, it is set at most once a second however
// many messages go out, and no write waits less than writeTimeout or
// more than a second longer. A deadline that passes while the socket is
// idle harms nothing: the next write moves it first. c.mu must be held.
func (c *corkConn) armWrite(now time.Time) {
	if c.deadline.Before(now.Add(writeTimeout)) {
		c.deadline = now.Add(writeTimeout + time.Second)
		c.Conn.SetWriteDeadline(c.deadline)
	}
}

// cork holds back writes until uncork.
func (c *corkConn) cork() {
	c.mu.Lock()
	c.corked = true
	if c.buf == nil {
		if b, ok := c.pool.Get().(*[]byte); ok {
			c.buf = b
		} else {
			c.buf = new([]byte)
		}
	}
	c.mu.Unlock()
}

// uncork sends what was held back, giving the connection writeTimeout
// (or up to a second more) to take it.
func (c *corkConn) uncork() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.corked = false
	if c.buf == nil {
		return nil
	}
	var err error
	if b := *c.buf; len(b) > 0 {
		c.armWrite(time.Now())
		_, err = c.Conn.Write(b)
	}
	if cap(*c.buf) <= 64<<10 { // a rare large update's buffer is let go
		*c.buf = (*c.buf)[:0]
		c.pool.Put(c.buf)
	}
	c.buf = nil
	return err
}

// Write sends p, giving the connection writeTimeout (or up to a second
// more) to take it, or keeps it while the connection is corked.
func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.corked {
		*c.buf = append(*c.buf, p...)
		return len(p), nil
	}
	c.armWrite(time.Now())
	return c.Conn.Write(p)
}

// stopReading makes the connection's pending and later reads fail at
// once, and leaves its writes be: a socket's reader waits with no
// context to end it (socket.run), and this ends it instead, while a
// close frame can still be written.
func (c *corkConn) stopReading() {
	c.Conn.SetReadDeadline(time.Now())
}

// corkHijacker is a response writer whose Hijack hands the WebSocket
// library a corkConn in place of the connection.
type corkHijacker struct {
	http.ResponseWriter
	pool *sync.Pool
	conn *corkConn
}

// Hijack takes the connection over and wraps it.
func (h *corkHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil {
		c.Close()
		return nil, nil, err
	}
	h.conn = &corkConn{Conn: c, pool: h.pool}
	// The server's own writer (and its buffer, which the WebSocket
	// library takes for its frames) now writes through the cork: a new
	// one would cost every socket another 4 KiB.
	brw.Writer.Reset(h.conn)
	return h.conn, brw, nil
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (h *corkHijacker) Unwrap() http.ResponseWriter { return h.ResponseWriter }
