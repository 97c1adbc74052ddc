//go:build unix

package socket

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parlour/server/internal/servertest"

	"github.com/prometheus/client_golang/prometheus"
)

// tcpPair returns both ends of a loopback TCP connection with small
// buffers.
func tcpPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	ln := servertest.SmallListener(t)
	defer ln.Close()
	client, err := (&net.Dialer{Control: servertest.SmallBuffers}).Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err = ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client
}

// incCounter counts its Inc calls; its other methods are not to be
// called.
type incCounter struct {
	prometheus.Counter
	n atomic.Int64
}

func (c *incCounter) Inc() { c.n.Add(1) }

// message is the i-th of a test's messages: n bytes, each telling it
// from its neighbours.
func message(i, n int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, n) }

// TestCorkConnNeverWaits: writes to a socket's connection whose client
// has stopped reading return at once, corked or not; the client, reading
// at last, gets every byte in the order written; and the connection's
// backlogs are counted as they start, not at every write. The kernel
// moves what the server's send buffer holds on to the client's receive
// buffer while the backlog is flushed, so a backlog may drain and a later
// write start another: more than one is no fault, one a write would be.
func TestCorkConnNeverWaits(t *testing.T) {
	t.Parallel()
	server, client := tcpPair(t)
	behind := &incCounter{}
	c := newCorkConn(server, &sync.Pool{}, behind)
	if c.rc == nil {
		t.Fatal("a TCP connection's writes would wait")
	}
	const n, size = 64, 8 << 10 // 512 KiB: far more than the buffers hold
	var want bytes.Buffer
	done := make(chan error, 1)
	go func() {
		for i := range n {
			var err error
			if i%8 == 7 { // a move's ack and update, corked
				c.cork()
				c.Write(message(i, size/2))
				c.Write(message(i+1, size/2))
				err = c.uncork()
			} else {
				_, err = c.Write(message(i, size))
			}
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for i := range n {
		if i%8 == 7 {
			want.Write(message(i, size/2))
			want.Write(message(i+1, size/2))
		} else {
			want.Write(message(i, size))
		}
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("a write failed: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the writes waited for a client that reads nothing")
	}
	if got := behind.n.Load(); got < 1 || got > n/8 {
		t.Errorf("went behind %d times in %d writes, want at least once and at most %d", got, n, n/8)
	}
	client.SetReadDeadline(time.Now().Add(5 * time.Second))
	got := make([]byte, want.Len())
	if _, err := io.ReadFull(client, got); err != nil {
		t.Fatalf("reading what was written: %v", err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatal("the client read the writes out of order, or altered")
	}
}

// TestCorkConnTooFarBehind: a connection whose client reads nothing
// while more than maxBacklog is written to it is failed with errBehind,
// and closed, which the client sees; later writes fail too.
func TestCorkConnTooFarBehind(t *testing.T) {
	t.Parallel()
	server, client := tcpPair(t)
	c := newCorkConn(server, &sync.Pool{}, nil)
	var written int
	var err error
	for err == nil && written < 4*maxBacklog {
		var n int
		n, err = c.Write(message(written, 16<<10))
		written += n
	}
	if !errors.Is(err, errBehind) {
		t.Fatalf("after %d bytes: %v, want errBehind", written, err)
	}
	if written < maxBacklog {
		t.Errorf("failed after %d bytes, less than maxBacklog", written)
	}
	if _, err := c.Write([]byte("x")); !errors.Is(err, errBehind) {
		t.Errorf("a write after the failure: %v, want errBehind", err)
	}
	client.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = io.Copy(io.Discard, client)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the failed connection was not closed")
	}
}

// TestCorkConnFlushDeadline: a backlog's flush gives each 64 KiB the
// write timeout, not the whole backlog: a client that reads steadily,
// if slower than the backlog grows, is sent all of it though that takes
// longer than the timeout; one that reads nothing is failed once the
// timeout passes, and its connection closed. (The timeout is made short
// here: a second, where sockets have writeTimeout.)
func TestCorkConnFlushDeadline(t *testing.T) {
	t.Parallel()
	const timeout = time.Second
	t.Run("steady", func(t *testing.T) {
		server, client := tcpPair(t)
		c := newCorkConn(server, &sync.Pool{}, nil)
		c.timeout = timeout
		// 960 KiB at 32 KiB each 100 ms takes 3 s to read: more than the
		// timeout and its second of slack, though each 64 KiB takes a
		// fifth of the timeout.
		const n, size = 30, 32 << 10
		var want bytes.Buffer
		for i := range n {
			want.Write(message(i, size))
			if _, err := c.Write(message(i, size)); err != nil {
				t.Fatalf("write %d: %v", i, err)
			}
		}
		got := make([]byte, 0, want.Len())
		buf := make([]byte, size)
		client.SetReadDeadline(time.Now().Add(10 * time.Second))
		for len(got) < want.Len() {
			k, err := io.ReadFull(client, buf[:min(size, want.Len()-len(got))])
			got = append(got, buf[:k]...)
			if err != nil {
				t.Fatalf("after %d bytes of %d: %v", len(got), want.Len(), err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatal("the client read the writes out of order, or altered")
		}
		if _, err := c.Write([]byte("x")); err != nil {
			t.Fatalf("a write once the client caught up: %v", err)
		}
	})
	t.Run("stalled", func(t *testing.T) {
		server, client := tcpPair(t)
		c := newCorkConn(server, &sync.Pool{}, nil)
		c.timeout = timeout
		for i := range 8 {
			if _, err := c.Write(message(i, 32<<10)); err != nil {
				t.Fatalf("write %d: %v", i, err)
			}
		}
		// Nothing is read: within the timeout and its second of slack
		// (and some time to spare), the connection fails.
		deadline := time.Now().Add(2*timeout + 5*time.Second)
		var err error
		for err == nil && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
			_, err = c.Write([]byte("x"))
		}
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("writes to a client that reads nothing: %v, want the write deadline's error", err)
		}
		client.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.Copy(io.Discard, client); errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatal("the failed connection was not closed")
		}
	})
}
