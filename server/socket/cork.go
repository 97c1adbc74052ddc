package socket

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// corkConn is a socket's connection whose writes can be held back and
// sent together: between cork and uncork every frame the WebSocket
// library writes (it writes each message as soon as it is whole) is
// kept, and uncork sends them in one system call. A move's ack and the
// update that shows the move go out together that way, which halves the
// writes of the mover's socket.
//
// Its writes never wait for a slow reader either. A socket's updates are
// often written by another socket's goroutine (pushHeld: the mover pushes
// its move to the other seat), and a client that stopped reading must not
// hold that player up. What the connection does not take at once is kept
// in a backlog, in order, and a goroutine of its own (flush) sends it,
// giving each 64 KiB of it writeTimeout; every write made meanwhile joins
// the backlog. While a connection has a backlog its socket's pusher waits
// for it to be sent (backlogged) and then sends only the latest update,
// as it did when its writes waited. A connection that falls more than
// maxBacklog behind, or whose backlog cannot be sent in time, is failed
// and closed.
type corkConn struct {
	net.Conn
	// pool lends the buffer the writes are kept in while corked (of
	// *[]byte; the Handler's, shared by its sockets).
	pool *sync.Pool
	mu   sync.Mutex
	// corked counts the corks not yet uncorked: a write corked on its own
	// (socket.write) inside a move's cork sends nothing early.
	corked int
	buf    *[]byte
	// deadline is the connection's write deadline (see armWrite), and
	// timeout the least time a write is given (writeTimeout; shorter in
	// tests).
	deadline time.Time
	timeout  time.Duration
	// rc writes to the connection without waiting (nil when the
	// connection offers no way to: its writes then wait, as a net.Conn's
	// do); try is its function, and p, n and err its argument and results.
	rc  syscall.RawConn
	try func(fd uintptr) bool
	p   []byte
	n   int
	err error
	// backlog is what the connection has yet to take while flushing, and
	// drained is closed once it has taken it (or failed). werr is the
	// error that failed the connection, returned to every later write.
	// behind, when set, counts the backlogs started.
	backlog  []byte
	flushing bool
	drained  chan struct{}
	werr     error
	behind   prometheus.Counter
}

// maxBacklog is how far a socket's connection may fall behind what is
// written to it before it is failed: far more than any update, and a few
// seconds of a busy table's.
const maxBacklog = 1 << 20

// errBehind fails a socket whose client reads far too slowly.
var errBehind = errors.New("the connection fell too far behind: it is not reading what it is sent")

// newCorkConn wraps c. Its writes wait for nobody when c is a
// syscall.Conn (a TCP connection is) on a system where it can be written
// without waiting (see writeNow).
func newCorkConn(c net.Conn, pool *sync.Pool, behind prometheus.Counter) *corkConn {
	cc := &corkConn{Conn: c, pool: pool, behind: behind, timeout: writeTimeout}
	if sc, ok := c.(syscall.Conn); ok && canWriteNow {
		if rc, err := sc.SyscallConn(); err == nil {
			cc.rc = rc
			cc.try = cc.writeNow
		}
	}
	return cc
}

// writeTimeout is the least time a write to a socket's connection is
// given to be taken, before the socket is dropped.
const writeTimeout = 10 * time.Second

// armWrite makes sure the connection's write deadline is at least
// c.timeout away. Setting a deadline costs a timer change in the
// runtime, twice a write if it were set and cleared around each; moved
// a second further than needed, it is set at most once a second however
// many messages go out, and no write waits less than c.timeout or more
// than a second longer. A deadline that passes while the socket is
// idle harms nothing: the next write moves it first. c.mu must be held.
func (c *corkConn) armWrite(now time.Time) {
	if c.deadline.Before(now.Add(c.timeout)) {
		c.deadline = now.Add(c.timeout + time.Second)
		c.Conn.SetWriteDeadline(c.deadline)
	}
}

// cork holds back writes until uncork.
func (c *corkConn) cork() {
	c.mu.Lock()
	c.corked++
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
	if c.corked--; c.corked > 0 {
		return nil
	}
	if c.buf == nil {
		return nil
	}
	var err error
	if b := *c.buf; len(b) > 0 {
		_, err = c.send(b)
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
	if c.corked > 0 {
		if c.werr != nil {
			return 0, c.werr
		}
		*c.buf = append(*c.buf, p...)
		return len(p), nil
	}
	return c.send(p)
}

// send writes p to the connection, keeping in the backlog what it does
// not take at once (see corkConn). p is not kept: it may be an update
// shared with other sockets. c.mu must be held.
func (c *corkConn) send(p []byte) (int, error) {
	switch {
	case c.werr != nil:
		return 0, c.werr
	case c.flushing:
		if len(c.backlog) >= maxBacklog {
			c.fail(errBehind)
			return 0, errBehind
		}
		c.backlog = append(c.backlog, p...)
		return len(p), nil
	}
	c.armWrite(time.Now()) // a passed deadline fails rc's writes too
	if c.rc == nil {
		return c.Conn.Write(p)
	}
	c.p = p
	err := c.rc.Write(c.try)
	n, werr := c.n, c.err
	c.p, c.err = nil, nil
	if err == nil {
		err = werr
	}
	if err != nil {
		return n, err
	}
	if n < len(p) {
		c.backlog = append(c.backlog[:0], p[n:]...)
		c.flushing = true
		c.drained = make(chan struct{})
		if c.behind != nil {
			c.behind.Inc()
		}
		go c.flush()
	}
	return len(p), nil
}

// flush sends the backlog while later writes join it, a flushChunk at a
// time, giving each writeTimeout (see armWrite): a client that reads
// slowly but steadily is not cut off. It ends once the backlog is empty,
// or fails the connection.
func (c *corkConn) flush() {
	var spare []byte
	for {
		c.mu.Lock()
		if c.werr != nil || len(c.backlog) == 0 {
			c.caughtUp()
			c.mu.Unlock()
			return
		}
		b := c.backlog
		c.backlog = spare[:0]
		c.mu.Unlock()
		for rest := b; len(rest) > 0; {
			k := min(len(rest), flushChunk)
			c.mu.Lock()
			c.armWrite(time.Now())
			c.mu.Unlock()
			if _, err := c.Conn.Write(rest[:k]); err != nil {
				c.mu.Lock()
				c.fail(err)
				c.caughtUp()
				c.mu.Unlock()
				return
			}
			rest = rest[k:]
		}
		spare = b
	}
}

// flushChunk is the most a backlog's flush writes at once.
const flushChunk = 64 << 10

// caughtUp ends the flush. c.mu must be held.
func (c *corkConn) caughtUp() {
	c.flushing = false
	close(c.drained)
	c.drained = nil
}

// backlogged returns a channel closed once the connection has taken what
// it was sent, or nil when it has already.
func (c *corkConn) backlogged() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.drained == nil {
		return nil
	}
	return c.drained
}

// fail fails the connection with err: every later write returns it, and
// the connection is closed, which ends the socket's reader and so the
// socket. c.mu must be held.
func (c *corkConn) fail(err error) {
	if c.werr == nil {
		c.werr = err
		c.backlog = nil
		c.Conn.Close()
	}
}

// stopReading makes the connection's pending and later reads fail at
// once, and leaves its writes be: a socket's reader waits with no
// context to end it (socket.run), and this ends it instead, while a
// close frame can still be written.
func (c *corkConn) stopReading() {
	c.Conn.SetReadDeadline(time.Now())
}

// corkHijacker is a response writer whose Hijack hands the WebSocket
// library a corkConn in place of the connection, with buffers of its own.
type corkHijacker struct {
	http.ResponseWriter
	d    *Door // its corks' buffers and its metrics
	conn *corkConn
	// refused is the status the library refused the handshake with,
	// held back with its plain text for acceptSocket to answer in JSON,
	// in a player's words, as every other refusal.
	refused int
}

// WriteHeader passes on the upgrade's answer and holds back a refusal.
func (h *corkHijacker) WriteHeader(code int) {
	if code >= http.StatusBadRequest {
		h.refused = code
		return
	}
	h.ResponseWriter.WriteHeader(code)
}

// Write drops the text of a refusal held back.
func (h *corkHijacker) Write(b []byte) (int, error) {
	if h.refused != 0 {
		return len(b), nil
	}
	return h.ResponseWriter.Write(b)
}

// The buffers a socket's WebSocket library reads and writes its frames
// through, which it holds for the socket's life. net/http's are 4 KiB
// each, and an idle socket does not need them: a client's messages are
// short (a move, a hello), and the socket corks every message it writes
// (socket.write), so that the writer needs only hold a frame's header or
// a control frame (at most 127 bytes) for the frame to leave in one
// write.
const (
	readBuffer  = 512
	writeBuffer = 128
)

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
	h.conn = h.d.corkConn(c)
	return h.conn, h.conn.buffers(brw.Reader), nil
}

// buffers returns the small reader and writer the WebSocket library is to
// use over c, in place of net/http's, which go with its request once the
// handler returns (acceptSocket). A client that sent its first frames
// before the upgrade's answer keeps net/http's reader, which holds them.
func (c *corkConn) buffers(r *bufio.Reader) *bufio.ReadWriter {
	if r.Buffered() == 0 {
		r = bufio.NewReaderSize(c, readBuffer)
	}
	return bufio.NewReadWriter(r, bufio.NewWriterSize(c, writeBuffer))
}

// corkConn wraps a socket's connection (see corkHijacker.Hijack).
func (d *Door) corkConn(c net.Conn) *corkConn {
	return newCorkConn(c, &d.corks, d.metrics.socketsBehind)
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (h *corkHijacker) Unwrap() http.ResponseWriter { return h.ResponseWriter }
