//go:build unix

package socket

import "syscall"

// canWriteNow: a connection's socket can be written without waiting.
const canWriteNow = true

// writeNow writes c.p to the socket fd without waiting: c.n is what it
// took (zero when its buffer is full), c.err any other failure. It is
// c.rc's write function, made once (c.try) so that a write allocates
// nothing.
func (c *corkConn) writeNow(fd uintptr) bool {
	for {
		n, err := syscall.Write(int(fd), c.p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			c.n, c.err = 0, nil
		default:
			c.n, c.err = max(n, 0), err
		}
		return true // done, whatever happened: never wait here
	}
}
