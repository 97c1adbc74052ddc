package sshdoor

import (
	"context"
	"net"
	"net/http"
	"sync"
)

// Pipe is an in-memory listener for the server's HTTP handler: the
// sessions' clients reach the API through it without a socket, and each
// connection carries the SSH client's address as its remote address, so
// that the server's limits per address count each player, not the door.
type Pipe struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// NewPipe returns a Pipe; serve it with an http.Server and hand
// Pipe.Client to Config.HTTP.
func NewPipe() *Pipe {
	return &Pipe{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept implements net.Listener.
func (p *Pipe) Accept() (net.Conn, error) {
	select {
	case c := <-p.conns:
		return c, nil
	case <-p.done:
		return nil, net.ErrClosed
	}
}

// Close implements net.Listener.
func (p *Pipe) Close() error {
	p.once.Do(func() { close(p.done) })
	return nil
}

// Addr implements net.Listener.
func (p *Pipe) Addr() net.Addr { return pipeAddr("ssh-door") }

type pipeAddr string

func (a pipeAddr) Network() string { return "pipe" }
func (a pipeAddr) String() string  { return string(a) }

// remoteConn is the server's end of a pipe, from remote.
type remoteConn struct {
	net.Conn
	remote net.Addr
}

func (c remoteConn) RemoteAddr() net.Addr { return c.remote }

// Dial connects to the server as remote.
func (p *Pipe) Dial(ctx context.Context, remote net.Addr) (net.Conn, error) {
	client, srv := net.Pipe()
	select {
	case p.conns <- remoteConn{srv, remote}:
		return client, nil
	case <-p.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Client returns an HTTP client whose connections reach the server
// through the pipe as remote.
func (p *Pipe) Client(remote net.Addr) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return p.Dial(ctx, remote)
		},
		MaxIdleConnsPerHost: 4,
	}}
}
