package sshdoor

import (
	"bufio"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// silent connects to addr from the loopback address ip and sends nothing;
// it returns once the door has admitted the connection (its version line
// came).
func silent(t *testing.T, addr, ip string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(io.LimitReader(c, 255)).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "SSH-2.0-") {
		t.Fatalf("a connection from %s read %q (%v), not the door's version", ip, line, err)
	}
	return c
}

// closedBy reads c until the door closes it, and reports whether it did
// before the deadline.
func closedBy(c net.Conn, deadline time.Time) bool {
	c.SetReadDeadline(deadline)
	_, err := io.Copy(io.Discard, c)
	return err == nil
}

// TestSilentConnectionsHeld: connections that never authenticate, enough
// to have filled the door's sessions, keep nobody out, and count only
// against the limit on connections starting at once, whose refusal says
// so.
func TestSilentConnectionsHeld(t *testing.T) {
	f := newFixture(t, Config{MaxSessions: 4, PerAddr: 2, Burst: 100, NewPerMinute: 6000, Hello: time.Minute, Grace: time.Minute})
	// Four silent connections, two from each of two addresses: as many
	// as the door has sessions, and as many as each address may hold.
	var held []net.Conn
	for _, ip := range []string{"127.0.0.2", "127.0.0.2", "127.0.0.3", "127.0.0.3"} {
		held = append(held, silent(t, f.sshAddr, ip))
	}
	ann := f.dial("ann", nil, "")
	ann.waitFor("New table")
	ben := f.dial("ben", nil, "")
	ben.waitFor("New table")

	// Starting connections may be twice the sessions: four more, and
	// the one after is refused.
	for _, ip := range []string{"127.0.0.4", "127.0.0.4", "127.0.0.5", "127.0.0.5"} {
		held = append(held, silent(t, f.sshAddr, ip))
	}
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.6")}}
	c, err := d.Dial("tcp", f.sshAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(c, "SSH-2.0-test\r\n")
	got, _ := io.ReadAll(c)
	if want := "Parlour: too many connections are starting at once; try again in a moment.\r\n"; string(got) != want {
		t.Errorf("with %d connections starting, the next reads %q, want %q", len(held), got, want)
	}
	// The silent ones are still held: their minute is not up.
	for _, c := range held {
		if closedBy(c, time.Now().Add(10*time.Millisecond)) {
			t.Fatal("a silent connection was closed before its grace was up")
		}
	}
}

// TestHandshakeGrace: a connection whose client says nothing is dropped
// after Hello, one that speaks but does not finish the handshake after
// Grace; a session that got in outlives both.
func TestHandshakeGrace(t *testing.T) {
	const hello, grace = 300 * time.Millisecond, 1500 * time.Millisecond
	f := newFixture(t, Config{Burst: 100, NewPerMinute: 6000, Hello: hello, Grace: grace})
	start := time.Now()
	ann := f.dial("ann", nil, "")
	ann.waitFor("New table")

	quiet := silent(t, f.sshAddr, "127.0.0.2")
	talker := silent(t, f.sshAddr, "127.0.0.3")
	talkStart := time.Now()
	io.WriteString(talker, "SSH-2.0-slow\r\n")
	if !closedBy(quiet, time.Now().Add(20*time.Second)) {
		t.Fatal("a silent connection was held 20 s")
	}
	if !closedBy(talker, time.Now().Add(20*time.Second)) {
		t.Fatal("a connection that never finished its handshake was held 20 s")
	}
	if took := time.Since(talkStart); took < grace-hello {
		t.Errorf("a connection that spoke was dropped %v after it came, before its grace of %v", took, grace)
	}

	// Ann's session is older than the grace, and answers.
	if since := time.Since(start); since < grace {
		time.Sleep(grace - since)
	}
	ann.setMark()
	ann.send("j") // down: the cursor moves
	ann.waitFor(">")
}

// TestOneSessionAConnection: a second session at once on one
// connection is refused in words; the first is served.
func TestOneSessionAConnection(t *testing.T) {
	f := newFixture(t, Config{})
	c, err := gossh.Dial("tcp", f.sshAddr, &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{gossh.PublicKeys(newSigner(t))}, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	first, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewSession(); err == nil || !strings.Contains(err.Error(), "Parlour: one session at a time on a connection") {
		t.Fatalf("a second session on one connection: %v", err)
	}
	out, err := first.CombinedOutput("")
	if string(out) != usage {
		t.Fatalf("the first session, without a terminal, got %q (%v)", out, err)
	}
}

// TestGatePending: connections count against the sessions' limits once
// in, and against the starting ones' until then.
func TestGatePending(t *testing.T) {
	t.Parallel()
	g := newGate(2, 2, 1000, 1000) // two sessions, two an address
	addr := func(n byte) net.Addr { return &net.TCPAddr{IP: net.IPv4(10, 0, 0, n), Port: 1} }
	p1, _ := g.admit(addr(1))
	p2, _ := g.admit(addr(1))
	if p, why := g.admit(addr(1)); p != nil || why != whyPendingAddr {
		t.Fatalf("a third connection starting from one address (at most 2): %v %q", p, why)
	}
	p3, _ := g.admit(addr(2))
	p4, _ := g.admit(addr(3))
	if p3 == nil || p4 == nil {
		t.Fatal("a connection from another address was refused")
	}
	if p, why := g.admit(addr(4)); p != nil || why != whyPending {
		t.Fatalf("a fifth connection starting on a door of two sessions (at most 4): %v %q", p, why)
	}
	if why := p1.enter(); why != "" {
		t.Fatalf("the first in: %q", why)
	}
	if why := p3.enter(); why != "" {
		t.Fatalf("the second in: %q", why)
	}
	if why := p2.enter(); why != whyFull {
		t.Fatalf("a third in on a door of two sessions: %q", why)
	}
	if p, why := g.admit(addr(5)); p != nil || why != whyFull {
		t.Fatalf("a connection arriving at a full door: %q", why)
	}
	p1.end()
	p1.end() // twice is once
	if why := p2.enter(); why != "" {
		t.Fatalf("a place freed was not given: %q", why)
	}
	if why := p2.enter(); why != "" {
		t.Fatalf("entering twice: %q", why)
	}
	// Pending connections from one address that would be more than it
	// may have in are refused on entering.
	h := newGate(10, 2, 1000, 1000)
	r1, _ := h.admit(addr(1))
	r2, _ := h.admit(addr(1))
	r1.enter()
	r3, why := h.admit(addr(1))
	if r3 == nil {
		t.Fatalf("one in and one pending from an address of two: %q", why)
	}
	r2.enter()
	if why := r3.enter(); why != whyPerAddr {
		t.Fatalf("a third in from an address of two: %q", why)
	}
	if p, why := h.admit(addr(1)); p != nil || why != whyPerAddr {
		t.Fatalf("a connection arriving from an address with two in: %q", why)
	}
	for _, p := range []*pass{r1, r2, r3} {
		p.end()
	}
	if open, pending := h.counts(); open != 0 || pending != 0 {
		t.Fatalf("after every end: %d in, %d pending", open, pending)
	}
	for _, p := range []*pass{p2, p3, p4} {
		p.end()
	}
	if open, pending := g.counts(); open != 0 || pending != 0 {
		t.Fatalf("after every end: %d in, %d pending", open, pending)
	}
}

// fakeNewChannel is a session channel whose requests the test sends.
type fakeNewChannel struct{ in chan *gossh.Request }

func (c fakeNewChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	return nil, c.in, nil
}
func (fakeNewChannel) Reject(gossh.RejectionReason, string) error { return nil }
func (fakeNewChannel) ChannelType() string                        { return "session" }
func (fakeNewChannel) ExtraData() []byte                          { return nil }

// closeCount counts the closes of a connection.
type closeCount struct{ n chan struct{} }

func (c closeCount) Close() error {
	c.n <- struct{}{}
	return nil
}

// TestSessionRequestsScreened: before the door serves a session, its
// environment is held to maxEnv variables of at most maxEnvBytes (the
// SSH server keeps each one for the session's life: one connection sent
// enough to hold a gigabyte), window changes wait for the shell, and a
// session whose shell never comes has its connection closed (it held a
// place of the door, keep-alives keeping its transport up, for good).
func TestSessionRequestsScreened(t *testing.T) {
	t.Parallel()
	env := func(k, v string) *gossh.Request {
		return &gossh.Request{Type: "env", Payload: gossh.Marshal(struct{ Key, Value string }{k, v})}
	}
	for _, tc := range []struct {
		name   string
		sent   []*gossh.Request
		passed []string // the types passed on, in order
		closed bool
	}{
		{"a shell and a few variables", []*gossh.Request{env("LANG", "en_GB.UTF-8"), env("TZ", "Europe/Paris"), {Type: "pty-req"}, {Type: "shell"}, {Type: "window-change"}},
			[]string{"env", "env", "pty-req", "shell", "window-change"}, false},
		{"a window change before the shell", []*gossh.Request{{Type: "window-change"}, {Type: "exec"}}, []string{"exec"}, false},
		{"a variable too long", []*gossh.Request{env("X", strings.Repeat("x", maxEnvBytes)), {Type: "shell"}}, []string{"shell"}, false},
		{"no shell", []*gossh.Request{{Type: "pty-req"}}, []string{"pty-req"}, true},
		{"a flood of variables", func() []*gossh.Request {
			var rs []*gossh.Request
			for i := range maxEnv + 50 {
				rs = append(rs, env("V", strings.Repeat("v", i)))
			}
			return append(rs, &gossh.Request{Type: "shell"})
		}(), append(slices.Repeat([]string{"env"}, maxEnv), "shell"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := make(chan *gossh.Request)
			closes := closeCount{make(chan struct{}, 1)}
			_, out, err := laterWindows{NewChannel: fakeNewChannel{in}, conn: closes, wait: 200 * time.Millisecond}.Accept()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			done := make(chan struct{})
			go func() {
				defer close(done)
				for r := range out {
					got = append(got, r.Type)
				}
			}()
			for _, r := range tc.sent {
				in <- r
			}
			select {
			case <-closes.n:
				if !tc.closed {
					t.Error("the connection was closed")
				}
			case <-time.After(time.Second):
				if tc.closed {
					t.Error("the connection of a session without a shell was not closed")
				}
			}
			close(in)
			<-done
			if !slices.Equal(got, tc.passed) {
				t.Errorf("passed on %v, want %v", got, tc.passed)
			}
		})
	}
}
