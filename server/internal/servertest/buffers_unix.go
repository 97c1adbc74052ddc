//go:build unix

package servertest

import (
	"context"
	"net"
	"syscall"
	"testing"
)

// SmallBuffers sets a socket's send and receive buffers as small as the
// system lets them be, so that a client that stops reading soon fills
// them. Accepted connections take a listener's. Use it as a Dialer's or
// a ListenConfig's Control.
func SmallBuffers(network, address string, c syscall.RawConn) error {
	var err error
	c.Control(func(fd uintptr) {
		for _, opt := range []int{syscall.SO_SNDBUF, syscall.SO_RCVBUF} {
			if err == nil {
				err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, opt, 4096)
			}
		}
	})
	return err
}

// SmallListener listens on loopback with small buffers (SmallBuffers).
func SmallListener(t testing.TB) net.Listener {
	t.Helper()
	ln, err := (&net.ListenConfig{Control: SmallBuffers}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}
