package httpapi

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// Configure sets up srv to serve h with h's limits: the connection's rate
// limit (ConnContext), and the time a client may take over its headers and
// leave a keep-alive connection idle. Bodies get their own deadline, per
// request (see ServeHTTP); no overall ReadTimeout is set, since an event
// stream or a WebSocket lives as long as its game. Serve on
// h.Listener(ln), so that one address cannot take every connection.
func (h *Handler) Configure(srv *http.Server) {
	srv.Handler = h
	srv.ConnContext = h.ConnContext
	srv.ReadHeaderTimeout = h.lim.HeaderTimeout
	srv.IdleTimeout = h.lim.IdleTimeout
}

// Listener wraps ln so that each remote address holds at most
// limit.Limits.ConnsPerAddr connections at once, WebSockets and event streams
// included. A connection beyond the cap is answered 429 and closed. A
// trusted proxy's connections are not counted (limit.Limits.TrustedProxies).
func (h *Handler) Listener(ln net.Listener) net.Listener {
	return &addrListener{Listener: ln, max: h.lim.ConnsPerAddr, open: map[string]int{}, refusing: make(chan struct{}, 64),
		refused: func() { h.tables.RateLimited() }, trusted: h.trusted}
}

// addrListener counts the open connections of each remote address.
type addrListener struct {
	net.Listener
	max     int
	refused func()
	// trusted reports a proxy's address, whose connections carry many
	// clients' requests and are not capped.
	trusted  func(host string) bool
	refusing chan struct{} // caps the connections being refused at once

	mu   sync.Mutex
	open map[string]int
}

func hostOf(a net.Addr) string {
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// Accept returns the next connection whose address is under its cap.
func (l *addrListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := hostOf(c.RemoteAddr())
		if l.trusted != nil && l.trusted(host) {
			return c, nil
		}
		l.mu.Lock()
		if l.open[host] >= l.max {
			l.mu.Unlock()
			l.refused()
			select {
			case l.refusing <- struct{}{}:
				go func() {
					defer func() { <-l.refusing }()
					refuseConn(c, l.max)
				}()
			default:
				c.Close() // too many to answer politely
			}
			continue
		}
		l.open[host]++
		l.mu.Unlock()
		return &countedConn{Conn: c, l: l, host: host}, nil
	}
}

func (l *addrListener) release(host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[host]--; l.open[host] <= 0 {
		delete(l.open, host)
	}
}

// refuseConn answers a connection over its address's cap with a 429 and
// closes it, without waiting long for a client that does not read.
func refuseConn(c net.Conn, max int) {
	defer c.Close()
	body := fmt.Sprintf(`{"error": "too many connections from your address: at most %d at once"}`+"\n", max)
	c.SetDeadline(time.Now().Add(time.Second))
	fmt.Fprintf(c, "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	// Read what the client sent before closing, so that the answer is
	// not lost to a reset.
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	}
	io.Copy(io.Discard, io.LimitReader(c, 64<<10))
}

// countedConn gives its address's place back when it closes.
type countedConn struct {
	net.Conn
	l    *addrListener
	host string
	once sync.Once
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.host) })
	return err
}

// SyscallConn returns the wrapped connection's raw connection, which a
// socket's connection writes through without waiting (corkConn), or an
// error when it has none.
func (c *countedConn) SyscallConn() (syscall.RawConn, error) {
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return nil, fmt.Errorf("a %T has no raw connection", c.Conn)
	}
	return sc.SyscallConn()
}
