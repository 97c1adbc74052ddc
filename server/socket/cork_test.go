package socket

import (
	"net"
	"sync"
	"testing"
	"time"
)

// countingConn records each Write the connection is given, and each
// write deadline set.
type countingConn struct {
	net.Conn
	writes    [][]byte
	deadlines []time.Time
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, append([]byte(nil), p...))
	return len(p), nil
}
func (c *countingConn) SetWriteDeadline(t time.Time) error {
	c.deadlines = append(c.deadlines, t)
	return nil
}

// TestCorkConn: writes between cork and uncork reach the connection as
// one write, in order; others pass straight through; the socket lets its
// buffer go, emptied, and a corked socket that wrote nothing writes nothing.
func TestCorkConn(t *testing.T) {
	t.Parallel()
	var pool sync.Pool
	under := &countingConn{}
	c := newCorkConn(under, &pool, nil)
	c.Write([]byte("a"))
	c.cork()
	c.Write([]byte("bb"))
	c.Write([]byte("ccc"))
	if len(under.writes) != 1 {
		t.Fatalf("corked writes reached the connection: %q", under.writes)
	}
	if err := c.uncork(); err != nil {
		t.Fatal(err)
	}
	c.cork()
	c.uncork()
	c.Write([]byte("d"))
	want := []string{"a", "bbccc", "d"}
	if len(under.writes) != len(want) {
		t.Fatalf("writes %q, want %q", under.writes, want)
	}
	for i, w := range want {
		if string(under.writes[i]) != w {
			t.Fatalf("writes %q, want %q", under.writes, want)
		}
	}
	if c.buf != nil {
		t.Error("the socket kept its cork buffer after uncork")
	}
	// The pool may drop what it is given (it does at random under the
	// race detector): what it hands back must at least be empty.
	if b, ok := pool.Get().(*[]byte); ok && len(*b) != 0 {
		t.Errorf("the pool got back a buffer still holding %q", *b)
	}
}

// TestCorkConnWriteDeadline: every write to the connection has at least
// writeTimeout before its deadline and at most a second more, but the
// deadline is set only when it would be too near: not at each write.
func TestCorkConnWriteDeadline(t *testing.T) {
	t.Parallel()
	under := &countingConn{}
	c := newCorkConn(under, &sync.Pool{}, nil)
	check := func(what string, sets int) {
		t.Helper()
		now := time.Now()
		if len(under.deadlines) != sets {
			t.Fatalf("%s: %d deadlines set, want %d", what, len(under.deadlines), sets)
		}
		d := under.deadlines[len(under.deadlines)-1]
		if d.Before(now.Add(writeTimeout-time.Second)) || d.After(now.Add(writeTimeout+time.Second)) {
			t.Fatalf("%s: deadline %v from now, want between %v and %v", what, d.Sub(now), writeTimeout-time.Second, writeTimeout+time.Second)
		}
	}
	c.Write([]byte("a"))
	check("first write", 1)
	for range 100 {
		c.Write([]byte("b"))
		c.cork()
		c.Write([]byte("c"))
		c.uncork()
	}
	check("200 writes within a second", 1)
	// A deadline that would leave a write less than writeTimeout is moved.
	c.deadline = time.Now().Add(writeTimeout - time.Millisecond)
	c.cork()
	c.Write([]byte("d"))
	c.uncork()
	check("a write near the deadline", 2)
	// So is one that passed while the socket was idle.
	c.deadline = time.Now().Add(-time.Minute)
	c.Write([]byte("e"))
	check("a write after a long idle", 3)
}
