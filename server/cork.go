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
	mu     sync.Mutex
	corked bool
	buf    []byte
}

// cork holds back writes until uncork.
func (c *corkConn) cork() {
	c.mu.Lock()
	c.corked = true
	c.mu.Unlock()
}

// uncork sends what was held back, waiting at most timeout for the
// connection to take it.
func (c *corkConn) uncork(timeout time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.corked = false
	if len(c.buf) == 0 {
		return nil
	}
	c.Conn.SetWriteDeadline(time.Now().Add(timeout))
	_, err := c.Conn.Write(c.buf)
	c.Conn.SetWriteDeadline(time.Time{})
	if cap(c.buf) > 64<<10 {
		c.buf = nil // a large update once: don't keep its buffer
	} else {
		c.buf = c.buf[:0]
	}
	return err
}

// Write sends p, or keeps it while the connection is corked.
func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.corked {
		c.buf = append(c.buf, p...)
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// corkHijacker is a response writer whose Hijack hands the WebSocket
// library a corkConn in place of the connection.
type corkHijacker struct {
	http.ResponseWriter
	conn *corkConn
}

// Hijack takes the connection over and wraps it.
func (h *corkHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if brw.Writer.Buffered() > 0 {
		if err := brw.Writer.Flush(); err != nil {
			c.Close()
			return nil, nil, err
		}
	}
	h.conn = &corkConn{Conn: c}
	return h.conn, bufio.NewReadWriter(brw.Reader, bufio.NewWriterSize(h.conn, brw.Writer.Size())), nil
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (h *corkHijacker) Unwrap() http.ResponseWriter { return h.ResponseWriter }
