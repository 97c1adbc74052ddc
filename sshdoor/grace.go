package sshdoor

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Defaults of Config's handshake times. An SSH client sends its version
// line as soon as it connects, so one that has said nothing after
// DefaultHello never will. The rest of the handshake may wait on a
// person: ssh asks whether to trust the host key on the first connection
// (and the door's documentation asks players to compare its
// fingerprint), and for a key's passphrase, so DefaultGrace gives the
// whole of it a minute, as OpenSSH's LoginGraceTime gives two.
const (
	DefaultHello = 5 * time.Second
	DefaultGrace = time.Minute
)

// connKey is where a connection's gatedConn is kept in its ssh.Context.
type connKey struct{}

// gatedConn is a connection from its admission by the gate: until it is
// in (authenticated, its session opened) no deadline set on it reaches
// past its grace (hello after arrival until the client first speaks, then
// grace after arrival), whatever the SSH server's idle timeout asks; once
// in, the idle timeout alone holds. Closing it gives its place at the gate
// back.
type gatedConn struct {
	net.Conn
	pass  *pass
	grace time.Duration // from arrival to the end of the handshake
	idle  time.Duration // the SSH server's idle timeout, for once in

	mu      sync.Mutex
	arrived time.Time
	until   time.Time // the end of the grace; zero once in
	spoke   bool

	sessions atomic.Int32 // sessions open on the connection
}

func newGatedConn(c net.Conn, p *pass, hello, grace, idle time.Duration) *gatedConn {
	now := time.Now()
	g := &gatedConn{Conn: c, pass: p, grace: grace, idle: idle, arrived: now, until: now.Add(min(hello, grace))}
	g.Conn.SetDeadline(g.until)
	return g
}

// Read reads, and gives a client that speaks for the first time the rest
// of its grace.
func (c *gatedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.mu.Lock()
		if !c.spoke && !c.until.IsZero() {
			c.spoke = true
			c.until = c.arrived.Add(c.grace)
			c.Conn.SetDeadline(c.until)
		}
		c.mu.Unlock()
	}
	return n, err
}

// SetDeadline sets the deadline, no later than the grace's end while the
// connection is not in.
func (c *gatedConn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.until.IsZero() && (t.IsZero() || t.After(c.until)) {
		t = c.until
	}
	return c.Conn.SetDeadline(t)
}

// SetReadDeadline and SetWriteDeadline are bounded as SetDeadline is.
func (c *gatedConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.until.IsZero() && (t.IsZero() || t.After(c.until)) {
		t = c.until
	}
	return c.Conn.SetReadDeadline(t)
}

func (c *gatedConn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.until.IsZero() && (t.IsZero() || t.After(c.until)) {
		t = c.until
	}
	return c.Conn.SetWriteDeadline(t)
}

// enter counts the connection against the sessions' limits and lifts its
// grace, or says which limit it would exceed.
func (c *gatedConn) enter() (why string) {
	if why := c.pass.enter(); why != "" {
		return why
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.until.IsZero() {
		return ""
	}
	c.until = time.Time{}
	var t time.Time
	if c.idle > 0 {
		t = time.Now().Add(c.idle)
	}
	c.Conn.SetDeadline(t)
	return ""
}

func (c *gatedConn) Close() error {
	c.pass.end()
	return c.Conn.Close()
}

// oneSession is a session channel handler that lets a connection in at
// its first session (a channel opens only after authentication), and
// refuses a second session at once on one connection: each session runs a
// client of its own, and the limits count connections.
func (d *Door) oneSession(next ssh.ChannelHandler) ssh.ChannelHandler {
	return func(srv *ssh.Server, conn *gossh.ServerConn, ch gossh.NewChannel, ctx ssh.Context) {
		c, _ := ctx.Value(connKey{}).(*gatedConn)
		if c == nil {
			ch.Reject(gossh.ConnectionFailed, "Parlour: the connection was not admitted.")
			conn.Close()
			return
		}
		if why := c.enter(); why != "" {
			d.cfg.Log.Warn("ssh session refused", "addr", conn.RemoteAddr().String(), "why", why)
			ch.Reject(gossh.ResourceShortage, d.refusal(why))
			conn.Close()
			return
		}
		if !c.sessions.CompareAndSwap(0, 1) {
			ch.Reject(gossh.ResourceShortage, "Parlour: one session at a time on a connection; open another connection for another session.")
			return
		}
		defer c.sessions.Store(0)
		next(srv, conn, laterWindows{NewChannel: ch, conn: conn, wait: startWait}, ctx)
	}
}

// The requests a session may make before the door serves it: the SSH
// server keeps every environment variable it is sent for the session's
// life, and a session that never asks for its shell holds one of the
// door's places with no key press to time out.
const (
	maxEnv      = 32               // environment variables a session may set
	maxEnvBytes = 1024             // the most one may take
	startWait   = 30 * time.Second // for the shell (or exec) request
)

// laterWindows is a session channel whose window changes before its
// shell request are dropped. The SSH server hands each window change to a
// channel that holds one (and holds the first size already) from the loop
// that reads the session's requests; before the shell no one reads it, so
// any change held the loop, and the session's goroutines, for good.
// (Passed on just after the shell, it would race with the door reading the
// first size.) A client's terminal is rarely resized in the moment before
// its shell starts; the next resize after it is drawn. It also holds a
// session to maxEnv environment variables of maxEnvBytes, and closes the
// connection when no shell or exec request came within wait (startWait).
type laterWindows struct {
	gossh.NewChannel
	conn io.Closer
	wait time.Duration
}

func (c laterWindows) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, in, err := c.NewChannel.Accept()
	if err != nil {
		return ch, in, err
	}
	out := make(chan *gossh.Request)
	unstarted := time.AfterFunc(c.wait, func() { c.conn.Close() })
	go screenRequests(in, out, unstarted)
	return ch, out, nil
}

// screenRequests passes requests from in to out, in order, but for
// window changes before the shell (or exec) request and environment
// variables past maxEnv or over maxEnvBytes, which it refuses; it stops
// unstarted once the shell or exec request passes, or in ends.
func screenRequests(in <-chan *gossh.Request, out chan<- *gossh.Request, unstarted *time.Timer) {
	defer close(out)
	defer unstarted.Stop()
	started, envs := false, 0
	refuse := func(r *gossh.Request) {
		if r.WantReply {
			r.Reply(false, nil)
		}
	}
	for r := range in {
		switch r.Type {
		case "window-change":
			if !started {
				refuse(r)
				continue
			}
		case "env":
			if envs++; envs > maxEnv || len(r.Payload) > maxEnvBytes {
				refuse(r)
				continue
			}
		case "shell", "exec":
			if !started {
				started = true
				unstarted.Stop()
			}
		}
		out <- r
	}
}
