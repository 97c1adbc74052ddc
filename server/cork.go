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

// uncork sends what was held back, waiting at most timeout for the
// connection to take it.
func (c *corkConn) uncork(timeout time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.corked = false
	if c.buf == nil {
		return nil
	}
	var err error
	if b := *c.buf; len(b) > 0 {
		c.Conn.SetWriteDeadline(time.Now().Add(timeout))
		_, err = c.Conn.Write(b)
		c.Conn.SetWriteDeadline(time.Time{})
	}
	if cap(*c.buf) <= 64<<10 { // a rare large update's buffer is let go
		*c.buf = (*c.buf)[:0]
		c.pool.Put(c.buf)
	}
	c.buf = nil
	return err
}

// Write sends p, or keeps it while the connection is corked.
func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.corked {
		*c.buf = append(*c.buf, p...)
		return len(p), nil
	}
	return c.Conn.Write(p)
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
