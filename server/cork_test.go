package server

import (
	"net"
	"sync"
	"testing"
	"time"
)

// countingConn records each Write the connection is given.
type countingConn struct {
	net.Conn
	writes [][]byte
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, append([]byte(nil), p...))
	return len(p), nil
}
func (c *countingConn) SetWriteDeadline(time.Time) error { return nil }

// TestCorkConn: writes between cork and uncork reach the connection as
// one write, in order; others pass straight through; the socket lets its
// buffer go, emptied, and a corked socket that wrote nothing writes nothing.
func TestCorkConn(t *testing.T) {
	var pool sync.Pool
	under := &countingConn{}
	c := &corkConn{Conn: under, pool: &pool}
	c.Write([]byte("a"))
	c.cork()
	c.Write([]byte("bb"))
	c.Write([]byte("ccc"))
	if len(under.writes) != 1 {
		t.Fatalf("corked writes reached the connection: %q", under.writes)
	}
	if err := c.uncork(time.Second); err != nil {
		t.Fatal(err)
	}
	c.cork()
	c.uncork(time.Second)
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
