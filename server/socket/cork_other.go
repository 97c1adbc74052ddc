//go:build !unix

package socket

// canWriteNow: here a socket's connection is written as any net.Conn
// is, waiting for the client to take what it is sent.
const canWriteNow = false

// writeNow is never called where canWriteNow is false.
func (c *corkConn) writeNow(fd uintptr) bool {
	panic("server: writeNow on a system that cannot write without waiting")
}
