package client

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
)

// Unreachable is a request that never had the server's answer: the
// server is down, the network is, or the name does not resolve. Its
// text says so in a player's words, the address and the cause, rather
// than Go's chain of operations ("Post URL: dial tcp ADDR: connect:
// connection refused"); Err keeps the whole of it.
type Unreachable struct {
	Base string
	Err  error
}

func (u *Unreachable) Error() string {
	return "cannot reach the server at " + u.Base + " (" + cause(u.Err) + ")"
}

func (u *Unreachable) Unwrap() error { return u.Err }

// cause is the root of a failed request in a few words: "connection
// refused", "no such host", "no answer in time".
func cause(err error) string {
	var dns *net.DNSError
	var sys *os.SyscallError
	var op *net.OpError
	var ue *url.Error
	var timeout interface{ Timeout() bool }
	switch {
	case errors.Is(err, context.Canceled):
		return "the request was cancelled"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &timeout) && timeout.Timeout():
		return "no answer in time"
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "no such host: " + dns.Name
		}
		return "looking up " + dns.Name + ": " + dns.Err
	case errors.As(err, &sys):
		return sys.Err.Error()
	case errors.As(err, &op):
		return op.Err.Error()
	case errors.As(err, &ue):
		return ue.Err.Error()
	}
	return err.Error()
}
